import { unstorableTextProblem } from '#contract/text-rules.js';
import { visibleTextProblem } from '#contract/visible-text.js';
import { validationFailed, type FieldError } from '../errors/domain-error.js';
import { SCOPES } from '../scopes/scope.js';
import { OFFLINE_ACCESS } from './oauth-server-options.js';

/** The longest app name, in characters once trimmed: a key's, as a grant carries it as its name. */
export const OAUTH_CLIENT_NAME_MAX_LENGTH = 120;
/** What a confidential app may ask for: the API's scopes, and offline_access for a refresh token. */
export const OAUTH_CLIENT_SCOPES: readonly string[] = [...SCOPES, OFFLINE_ACCESS];

/** What `admin oauth-client create` is given. */
export interface OAuthClientInput {
  name: string;
  redirectUris: readonly string[];
  /** Every scope of OAUTH_CLIENT_SCOPES when not given. */
  scopes?: readonly string[];
}

/** An input the rules accept, as it is registered. */
export interface CheckedOAuthClientInput {
  name: string;
  redirectUris: string[];
  scopes: string[];
  /** `native` when a redirect URI is http on loopback (RFC 8252 §7.3): Better Auth refuses that of a `web` app. */
  applicationType: 'web' | 'native';
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

function nameProblems(raw: string): FieldError[] {
  const name = raw.trim();
  const length = [...name].length;
  if (length === 0 || length > OAUTH_CLIENT_NAME_MAX_LENGTH) {
    return [{ path: '/name', message: `must be 1 to ${OAUTH_CLIENT_NAME_MAX_LENGTH} characters besides spaces at its ends` }];
  }
  // The owner reads it on the consent page and on Connections: the rule for text shown as typed.
  const problem = visibleTextProblem(name) ?? unstorableTextProblem(name);
  return problem ? [{ path: '/name', message: problem }] : [];
}

/** Why the address cannot be a redirect URI, or null. */
function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URI`;
  }
  if (url.username !== '' || url.password !== '' || uri.includes('#')) return `${uri} must carry no credentials and no fragment`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackHttp(url)) return null;
  return `${uri} must be https (http only on localhost, 127.0.0.1 or [::1])`;
}

function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

function redirectUriProblems(uris: readonly string[]): FieldError[] {
  if (uris.length === 0) return [{ path: '/redirectUris', message: 'at least one redirect URI is needed' }];
  return uris.flatMap((uri) => {
    const problem = redirectUriProblem(uri);
    return problem ? [{ path: '/redirectUris', message: problem }] : [];
  });
}

function scopeProblems(scopes: readonly string[] | undefined): FieldError[] {
  if (scopes === undefined) return [];
  if (scopes.length === 0) return [{ path: '/scopes', message: `at least one scope is needed; known: ${OAUTH_CLIENT_SCOPES.join(', ')}` }];
  return scopes
    .filter((scope) => !OAUTH_CLIENT_SCOPES.includes(scope))
    .map((scope) => ({ path: '/scopes', message: `unknown scope ${scope}; known: ${OAUTH_CLIENT_SCOPES.join(', ')}` }));
}

/**
 * The rules of a confidential app's registration (docs/design-record.md#d30), every problem at
 * its field (`/name`, `/redirectUris`, `/scopes`): VALIDATION_FAILED, or the input as registered.
 */
export function checkOAuthClientInput(input: OAuthClientInput): CheckedOAuthClientInput {
  const problems = [...nameProblems(input.name), ...redirectUriProblems(input.redirectUris), ...scopeProblems(input.scopes)];
  if (problems.length > 0) throw validationFailed(problems);
  const redirectUris = [...new Set(input.redirectUris)];
  return {
    name: input.name.trim(),
    redirectUris,
    scopes: [...new Set(input.scopes ?? OAUTH_CLIENT_SCOPES)],
    applicationType: redirectUris.some((uri) => isLoopbackHttp(new URL(uri))) ? 'native' : 'web',
  };
}
