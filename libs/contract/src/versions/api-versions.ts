/**
 * The published versions of the contract, oldest first (docs/design-record.md#d22). Each stays
 * served and frozen once a later one is published; the last is the source of truth.
 */
export const API_VERSIONS = ['1.2.0', '1.3.0', '1.4.0', '1.5.0'] as const;

export type ApiVersion = (typeof API_VERSIONS)[number];

/** The newest version: new keys and endpoints are pinned to it unless their maker chose another. */
export const CURRENT_API_VERSION: ApiVersion = '1.5.0';

/** What keys and webhook endpoints made before pinning existed (before 1.4.0) are pinned to. */
export const VERSION_BEFORE_PINNING: ApiVersion = '1.3.0';

/** The document of each version, relative to the repository's root. */
export const CONTRACT_FILES: Readonly<Record<ApiVersion, string>> = {
  '1.2.0': 'openapi/v1.2.0.yaml',
  '1.3.0': 'openapi/v1.3.0.yaml',
  '1.4.0': 'openapi/v1.4.0.yaml',
  '1.5.0': 'openapi/v1.5.0.yaml',
};

export function isApiVersion(value: unknown): value is ApiVersion {
  return typeof value === 'string' && (API_VERSIONS as readonly string[]).includes(value);
}

/**
 * The refusal of a version a key or an endpoint cannot be pinned to, as a field problem at `path`
 * (none when it is published): the one wording of the API, the console and the admin command line.
 */
export function apiVersionProblems(value: string, path: string): { path: string; message: string }[] {
  return isApiVersion(value) ? [] : [{ path, message: `unknown API version ${value}; published: ${API_VERSIONS.join(', ')}` }];
}

/** Negative when a is older than b, 0 when equal, positive when newer. */
export function compareApiVersions(a: ApiVersion, b: ApiVersion): number {
  return API_VERSIONS.indexOf(a) - API_VERSIONS.indexOf(b);
}

/** The newer of two versions. */
export function laterApiVersion(a: ApiVersion, b: ApiVersion): ApiVersion {
  return compareApiVersions(a, b) >= 0 ? a : b;
}
