/** Where the owner's console is served (docs/design-record.md#d29). */
export const CONSOLE_PATH = 'console';

/** The console's paths, left out of the API's /v1/api prefix. */
export const CONSOLE_ROUTES = [CONSOLE_PATH, `${CONSOLE_PATH}/{*path}`];
