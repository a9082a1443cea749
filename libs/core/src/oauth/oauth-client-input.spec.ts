import { DomainError } from '../errors/domain-error.js';
import { checkOAuthClientInput, OAUTH_CLIENT_SCOPES } from './oauth-client-input.js';

function problems(input: Parameters<typeof checkOAuthClientInput>[0]): { path: string; message: string }[] {
  try {
    checkOAuthClientInput(input);
  } catch (error) {
    if (error instanceof DomainError) return error.fieldErrors;
    throw error;
  }
  return [];
}

describe('checkOAuthClientInput', () => {
  it('takes https redirect URIs, trims the name and asks for every scope when none is given', () => {
    expect(checkOAuthClientInput({ name: '  Partner  ', redirectUris: ['https://partner.example/cb'] })).toEqual({
      name: 'Partner',
      redirectUris: ['https://partner.example/cb'],
      scopes: [...OAUTH_CLIENT_SCOPES],
      applicationType: 'web',
    });
  });

  it('takes http on loopback only, registering such an app as native', () => {
    for (const uri of ['http://localhost:3000/cb', 'http://127.0.0.1/cb', 'http://[::1]:8080/cb']) {
      expect(checkOAuthClientInput({ name: 'Dev', redirectUris: [uri] }).applicationType).toBe('native');
    }
    expect(problems({ name: 'Dev', redirectUris: ['http://partner.example/cb'] })).toEqual([
      { path: '/redirectUris', message: 'http://partner.example/cb must be https (http only on localhost, 127.0.0.1 or [::1])' },
    ]);
  });

  it('refuses addresses that are not absolute, carry credentials or a fragment, or use another scheme', () => {
    for (const uri of ['/callback', 'https://user:pw@partner.example/cb', 'https://partner.example/cb#top', 'com.partner:/cb']) {
      expect(problems({ name: 'App', redirectUris: [uri] }).map((p) => p.path)).toEqual(['/redirectUris']);
    }
    expect(problems({ name: 'App', redirectUris: [] })).toEqual([
      { path: '/redirectUris', message: 'at least one redirect URI is needed' },
    ]);
  });

  it('names every field at fault: the name, an unknown scope, no scope', () => {
    expect(problems({ name: ' ', redirectUris: ['https://a.example/cb'], scopes: ['everything'] }).map((p) => p.path)).toEqual([
      '/name',
      '/scopes',
    ]);
    expect(problems({ name: 'App', redirectUris: ['https://a.example/cb'], scopes: [] }).map((p) => p.path)).toEqual(['/scopes']);
    expect(
      checkOAuthClientInput({ name: 'App', redirectUris: ['https://a.example/cb'], scopes: ['offline_access', 'offline_access'] }).scopes,
    ).toEqual(['offline_access']);
  });
});
