import { loadContract } from '#contract/openapi-document.js';
import { SCOPE_DESCRIPTIONS, SCOPES } from './scope.js';

interface OAuthScheme {
  flows: { authorizationCode: { scopes: Record<string, string> } };
}

describe('the scopes an app is granted (docs/design-record.md#d30)', () => {
  it("are the keys' scopes, each with the description GET /me gives it, in the oauth2 scheme of the document", () => {
    const schemes = loadContract().document.components.securitySchemes as unknown as Record<string, OAuthScheme>;
    expect(schemes.oauth2.flows.authorizationCode.scopes).toEqual(
      Object.fromEntries(SCOPES.map((scope) => [scope, SCOPE_DESCRIPTIONS[scope]])),
    );
  });
});
