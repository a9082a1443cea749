import { withApplicationTypeDefault } from './registration-defaults.js';

describe('withApplicationTypeDefault', () => {
  const publicClient = { token_endpoint_auth_method: 'none', redirect_uris: ['http://localhost:33418/callback', 'http://127.0.0.1:9/cb'] };

  it('registers a public client that only comes back to loopback http as native', () => {
    expect(withApplicationTypeDefault(publicClient)).toEqual({ ...publicClient, application_type: 'native' });
  });

  it('keeps a stated application type, a confidential client, and any non-loopback redirect as they are', () => {
    for (const body of [
      { ...publicClient, application_type: 'web' },
      { ...publicClient, token_endpoint_auth_method: 'client_secret_basic' },
      { ...publicClient, redirect_uris: ['http://localhost:1/cb', 'https://app.example/cb'] },
      { token_endpoint_auth_method: 'none', redirect_uris: [] },
      'not an object',
    ]) {
      expect(withApplicationTypeDefault(body)).toBe(body);
    }
  });
});
