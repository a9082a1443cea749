/**
 * The application type a dynamic registration gets when it names none (docs/design-record.md#d30).
 * RFC 7591 clients such as the MCP SDK's send no `application_type`, which OpenID's registration
 * rules read as `web`, and a web client may not redirect to http on a loopback address. An app
 * that keeps no secret and only ever comes back to this machine's loopback over http is a native
 * app (RFC 8252 §7.3), so that is what it is registered as; anything else keeps the rule.
 */
export function withApplicationTypeDefault(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const registration = body as Record<string, unknown>;
  if (registration.application_type !== undefined || registration.token_endpoint_auth_method !== 'none') return body;
  const uris = registration.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every(isLoopbackHttp)) return body;
  return { ...registration, application_type: 'native' };
}

function isLoopbackHttp(uri: unknown): boolean {
  if (typeof uri !== 'string') return false;
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}
