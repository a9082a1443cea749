import { unstorableTextProblem } from '#contract/text-rules.js';
import { apiVersionProblems, CURRENT_API_VERSION, type ApiVersion } from '#contract/versions/api-versions.js';
import { visibleTextProblem } from '#contract/visible-text.js';
import { validationFailed, type FieldError } from '../errors/domain-error.js';
import { isScope, SCOPES, type Scope } from '../scopes/scope.js';

/** The longest name a key may have, in characters (code points) once trimmed. */
export const API_KEY_NAME_MAX_LENGTH = 120;

/** What the maker of a key types: the console's form fields and `admin key create`'s options alike. */
export interface ApiKeyInput {
  name: string;
  scopes: readonly string[];
  /** The current version when not given (docs/design-record.md#d22). */
  apiVersion?: string;
}

/** An input the rules accept, as it is stored: the name trimmed, each scope once. */
export interface CheckedApiKeyInput {
  name: string;
  scopes: Scope[];
  apiVersion: ApiVersion;
}

function nameProblems(raw: string): FieldError[] {
  const name = raw.trim();
  const length = [...name].length;
  if (length === 0 || length > API_KEY_NAME_MAX_LENGTH) {
    return [{ path: '/name', message: `must be 1 to ${API_KEY_NAME_MAX_LENGTH} characters besides spaces at its ends` }];
  }
  // The name is shown in the console and the audit beside the key: the contract's rule for text a
  // reader sees as typed, not a rule of its own.
  const problem = visibleTextProblem(name) ?? unstorableTextProblem(name);
  return problem ? [{ path: '/name', message: problem }] : [];
}

function scopeProblems(scopes: readonly string[]): FieldError[] {
  if (scopes.length === 0) return [{ path: '/scopes', message: `at least one scope is needed; known: ${SCOPES.join(', ')}` }];
  return scopes.filter((s) => !isScope(s)).map((s) => ({ path: '/scopes', message: `unknown scope ${s}; known: ${SCOPES.join(', ')}` }));
}

/**
 * The rules of a key's name, scopes and version, the one place they are said (docs/design-record.md#d29):
 * every problem found, each at the field it is about (`/name`, `/scopes`, `/apiVersion`), so a form
 * shows it beside the field.
 */
export function apiKeyInputProblems(input: ApiKeyInput): FieldError[] {
  return [
    ...nameProblems(input.name),
    ...scopeProblems(input.scopes),
    ...(input.apiVersion !== undefined ? apiVersionProblems(input.apiVersion, '/apiVersion') : []),
  ];
}

/** The input as it is stored, or VALIDATION_FAILED naming every field that breaks a rule. */
export function checkApiKeyInput(input: ApiKeyInput): CheckedApiKeyInput {
  const problems = apiKeyInputProblems(input);
  if (problems.length > 0) throw validationFailed(problems);
  return {
    name: input.name.trim(),
    scopes: [...new Set(input.scopes as Scope[])],
    apiVersion: (input.apiVersion as ApiVersion | undefined) ?? CURRENT_API_VERSION,
  };
}
