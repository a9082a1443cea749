import { consoleBaseUrl, consoleIsSecure, consoleOrigin, signInConfirmUrl } from './console-origin.js';
import { consoleSecret, sessionCookieName } from './console-auth.js';

describe('where the console is', () => {
  it('is PUBLIC_BASE_URL when set, with its path, else this machine at PORT', () => {
    expect(consoleBaseUrl({ PUBLIC_BASE_URL: 'https://api.example.com/scheduling', PORT: 3000 })).toBe(
      'https://api.example.com/scheduling',
    );
    expect(consoleOrigin({ PUBLIC_BASE_URL: 'https://api.example.com/scheduling', PORT: 3000 })).toBe('https://api.example.com');
    expect(consoleBaseUrl({ PUBLIC_BASE_URL: undefined, PORT: 4100 })).toBe('http://127.0.0.1:4100');
  });

  it('is https, with __Host- cookies, where PUBLIC_BASE_URL says so, or in production', () => {
    expect(consoleIsSecure({ PUBLIC_BASE_URL: 'https://api.example.com', NODE_ENV: 'development' })).toBe(true);
    expect(consoleIsSecure({ PUBLIC_BASE_URL: 'http://localhost:3000', NODE_ENV: 'production' })).toBe(false);
    expect(consoleIsSecure({ PUBLIC_BASE_URL: undefined, NODE_ENV: 'production' })).toBe(true);
    expect(consoleIsSecure({ PUBLIC_BASE_URL: undefined, NODE_ENV: 'development' })).toBe(false);
    expect(sessionCookieName(true)).toBe('__Host-console_session');
    expect(sessionCookieName(false)).toBe('console_session');
  });

  it('mails links to the confirming page, the token escaped', () => {
    expect(signInConfirmUrl('http://127.0.0.1:3000', 'a+b/c')).toBe('http://127.0.0.1:3000/console/sign-in/confirm?token=a%2Bb%2Fc');
  });

  it('derives a key of its own per purpose, never the pepper itself', () => {
    const pepper = 'p'.repeat(40);
    const sessions = consoleSecret(pepper, 'sessions');
    expect(sessions).toHaveLength(43);
    expect(sessions).not.toBe(consoleSecret(pepper, 'forms'));
    expect(sessions).toBe(consoleSecret(pepper, 'sessions'));
    expect(sessions).not.toContain(pepper);
  });
});
