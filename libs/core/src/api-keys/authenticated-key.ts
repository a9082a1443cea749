import type { ApiKeyLookup } from './api-keys.repository.js';

/** The caller of an API request, once its key is known. */
export type AuthenticatedKey = ApiKeyLookup;
