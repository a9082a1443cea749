import { API_VERSIONS, CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { VISIBLE_TEXT_MESSAGE } from '#contract/visible-text.js';
import { DomainError } from '../errors/domain-error.js';
import { API_KEY_NAME_MAX_LENGTH, apiKeyInputProblems, checkApiKeyInput } from './api-key-input.js';

const valid = { name: 'Website', scopes: ['services.read'] };

function refusal(input: Parameters<typeof checkApiKeyInput>[0]): DomainError {
  try {
    checkApiKeyInput(input);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('the input was accepted');
}

describe("a key's input rules", () => {
  it('accepts a name, known scopes and a published version; trims the name, keeps each scope once, defaults the version', () => {
    expect(checkApiKeyInput({ name: '  Website  ', scopes: ['services.read', 'clients.read', 'services.read'] })).toEqual({
      name: 'Website',
      scopes: ['services.read', 'clients.read'],
      apiVersion: CURRENT_API_VERSION,
    });
    for (const apiVersion of API_VERSIONS) expect(checkApiKeyInput({ ...valid, apiVersion }).apiVersion).toBe(apiVersion);
    expect(checkApiKeyInput({ ...valid, name: 'Agenda do salão · 日本 📅' }).name).toBe('Agenda do salão · 日本 📅');
  });

  it('takes a name of up to the limit in characters, not UTF-16 units, and refuses an empty or longer one at /name', () => {
    expect(checkApiKeyInput({ ...valid, name: '📅'.repeat(API_KEY_NAME_MAX_LENGTH) }).name).toHaveLength(2 * API_KEY_NAME_MAX_LENGTH);
    for (const name of ['', '   ', 'x'.repeat(API_KEY_NAME_MAX_LENGTH + 1)]) {
      expect(apiKeyInputProblems({ ...valid, name })).toEqual([
        { path: '/name', message: 'must be 1 to 120 characters besides spaces at its ends' },
      ]);
    }
  });

  it("refuses control, bidirectional and zero-width characters in a name, with the contract's words", () => {
    for (const hidden of ['\n', '\u0000', '\u0085', '\u200B', '\u202E', '\u2066', '\uFEFF']) {
      expect(apiKeyInputProblems({ ...valid, name: `Web${hidden}site` })).toEqual([{ path: '/name', message: VISIBLE_TEXT_MESSAGE }]);
    }
    expect(apiKeyInputProblems({ ...valid, name: 'Web\uD800site' })).toEqual([
      { path: '/name', message: expect.stringContaining('unpaired surrogate') },
    ]);
  });

  it('needs at least one scope, each known, at /scopes', () => {
    expect(apiKeyInputProblems({ ...valid, scopes: [] })).toEqual([
      { path: '/scopes', message: expect.stringMatching(/^at least one scope/) },
    ]);
    expect(apiKeyInputProblems({ ...valid, scopes: ['services.read', 'admin', 'x'] })).toEqual([
      { path: '/scopes', message: expect.stringMatching(/^unknown scope admin; known: appointments\.read/) },
      { path: '/scopes', message: expect.stringMatching(/^unknown scope x;/) },
    ]);
  });

  it('refuses an unpublished version at /apiVersion, naming the published ones', () => {
    expect(apiKeyInputProblems({ ...valid, apiVersion: 'latest' })).toEqual([
      { path: '/apiVersion', message: `unknown API version latest; published: ${API_VERSIONS.join(', ')}` },
    ]);
  });

  it('reports every field at once, as VALIDATION_FAILED', () => {
    const error = refusal({ name: '', scopes: [], apiVersion: '9' });
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fieldErrors.map((e) => e.path)).toEqual(['/name', '/scopes', '/apiVersion']);
  });
});
