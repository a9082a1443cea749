import type { IncomingMessage } from 'node:http';
import type { AppConfig } from '#config/app-config.js';
import type { ApiKeyLookup } from '#core/api-keys/api-keys.repository.js';
import { AccessTokenCallers } from '#core/oauth/access-token-callers.js';
import type { OAuthResource } from '#core/oauth/oauth-resources.js';
import { McpCaller } from './mcp-caller.js';

const CALLER = { keyId: 'grant-1', scopes: ['services.read', 'appointments.read'] } as ApiKeyLookup;

class OneToken extends AccessTokenCallers {
  readonly asked: [string, OAuthResource][] = [];
  callerOf(token: string, resource: OAuthResource): Promise<ApiKeyLookup | null> {
    this.asked.push([token, resource]);
    return Promise.resolve(token === 'good' ? CALLER : null);
  }
}

function request(...authorization: string[]): IncomingMessage {
  return {
    headers: authorization.length > 0 ? { authorization: authorization[0] } : {},
    rawHeaders: authorization.flatMap((value) => ['Authorization', value]),
  } as unknown as IncomingMessage;
}

describe('McpCaller', () => {
  const config = { PUBLIC_BASE_URL: 'https://book.example/', PORT: 3000 } as AppConfig;
  const metadata = 'resource_metadata="https://book.example/.well-known/oauth-protected-resource/mcp"';

  it('takes the caller of a bearer token issued for the MCP server', async () => {
    const tokens = new OneToken();
    expect(await new McpCaller(tokens, config).authenticate(request('Bearer good'))).toBe(CALLER);
    expect(tokens.asked).toEqual([['good', 'mcp']]);
  });

  it('answers 401 naming the resource metadata, with invalid_token only when a token was sent', async () => {
    const caller = new McpCaller(new OneToken(), config);
    expect(await caller.authenticate(request())).toMatchObject({ status: 401, wwwAuthenticate: `Bearer ${metadata}` });
    for (const refused of [request('Bearer other'), request('Bearer good', 'Bearer good')]) {
      expect(await caller.authenticate(refused)).toMatchObject({ status: 401 });
    }
    expect(await caller.authenticate(request('Bearer other'))).toMatchObject({
      wwwAuthenticate: `Bearer error="invalid_token", ${metadata}`,
    });
    // Not a bearer token at all: as if none was sent.
    expect(await caller.authenticate(request('Basic dXNlcjpwYXNz'))).toMatchObject({ wwwAuthenticate: `Bearer ${metadata}` });
  });

  it('asks for more scope only when a tool needs one the caller lacks, naming the caller’s with the missing', () => {
    const caller = new McpCaller(new OneToken(), config);
    expect(caller.stepUp(CALLER, [{ tool: 'list_services', scope: 'services.read' }])).toBeNull();
    expect(caller.stepUp(CALLER, [])).toBeNull();
    const refusal = caller.stepUp(CALLER, [
      { tool: 'get_appointment', scope: 'appointments.read' },
      { tool: 'create_client', scope: 'clients.write' },
    ]);
    expect(refusal).toEqual({
      status: 403,
      wwwAuthenticate: `Bearer error="insufficient_scope", scope="services.read appointments.read clients.write", ${metadata}`,
      message: 'The tool create_client needs the scope clients.write, which this access was not granted.',
    });
  });
});
