/** The versioned base path of every API route (docs/design-record.md#d1). */
export const API_PREFIX = 'v1/api';
