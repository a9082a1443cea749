import type { AppConfig } from '#config/app-config.js';

/**
 * Where the console is reached, for what is written outside a request (the admin command line's
 * links, Better Auth's own origin): PUBLIC_BASE_URL when set, else this machine's API port.
 */
export function consoleBaseUrl(config: Pick<AppConfig, 'PUBLIC_BASE_URL' | 'PORT'>): string {
  return config.PUBLIC_BASE_URL ?? `http://127.0.0.1:${config.PORT}`;
}

export function consoleOrigin(config: Pick<AppConfig, 'PUBLIC_BASE_URL' | 'PORT'>): string {
  return new URL(consoleBaseUrl(config)).origin;
}

/**
 * Whether the console is served over https, and so gets `__Host-` Secure cookies: as
 * PUBLIC_BASE_URL says, else in production (which is served behind TLS), not on a developer's http.
 */
export function consoleIsSecure(config: Pick<AppConfig, 'PUBLIC_BASE_URL' | 'NODE_ENV'>): boolean {
  return config.PUBLIC_BASE_URL !== undefined ? config.PUBLIC_BASE_URL.startsWith('https://') : config.NODE_ENV === 'production';
}

/** The page an e-mailed link opens: it shows a button, and only the button's POST spends the token. */
export function signInConfirmUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/console/sign-in/confirm?token=${encodeURIComponent(token)}`;
}
