import type { ClientDiscovery, OAuthOptions, Scope as OAuthScope } from '@better-auth/oauth-provider';
import { SCOPES } from '../scopes/scope.js';
import { consentReference } from './consent-choice.js';
import { oauthResourceUrl } from './oauth-resources.js';
import { oauthTokenHash } from './oauth-token-hash.js';

/** An access token's life (docs/design-record.md#d30). */
export const ACCESS_TOKEN_SECONDS = 60 * 60;
/** A grant unused this long ends: each refresh moves its refresh token's end this far ahead. */
export const GRANT_IDLE_SECONDS = 90 * 24 * 60 * 60;
/** After a refresh, the refresh token it spent still answers (with the same new tokens) this long. */
export const REFRESH_REUSE_SECONDS = 30;
/** The scope that asks for a refresh token: the API's scopes, and this one. */
export const OFFLINE_ACCESS = 'offline_access';

/**
 * What the tokens and client secrets this server issues start with, so that they are told from
 * keys (`rk_`) at a glance and by secret scanners. Better Auth stores them without it.
 */
export const ACCESS_TOKEN_PREFIX = 'oat_';
export const REFRESH_TOKEN_PREFIX = 'ort_';
export const CLIENT_SECRET_PREFIX = 'ocs_';

/** Where the console shows sign-in and consent for an authorization. */
export const OAUTH_SIGN_IN_PAGE = '/console/oauth/sign-in';
export const OAUTH_CONSENT_PAGE = '/console/oauth/consent';

/** The columns both kinds of token have. */
const TOKEN_FIELDS = {
  clientId: 'client_id',
  sessionId: 'session_id',
  userId: 'user_id',
  referenceId: 'reference_id',
  authorizationCodeId: 'authorization_code_id',
  requestedUserInfoClaims: 'requested_user_info_claims',
  expiresAt: 'expires_at',
  createdAt: 'created_at',
} as const;

/** The tables of Better Auth's OAuth provider, named and spelled as this database's others. */
const OAUTH_SCHEMA = {
  oauthClient: {
    modelName: 'oauth_clients',
    fields: {
      clientId: 'client_id',
      clientSecret: 'client_secret',
      skipConsent: 'skip_consent',
      enableEndSession: 'enable_end_session',
      subjectType: 'subject_type',
      clientCredentialsScopes: 'client_credentials_scopes',
      clientSecretExpiresAt: 'client_secret_expires_at',
      userId: 'user_id',
      createdAt: 'created_at',
      updatedAt: 'updated_at',
      redirectUris: 'redirect_uris',
      postLogoutRedirectUris: 'post_logout_redirect_uris',
      backchannelLogoutUri: 'backchannel_logout_uri',
      backchannelLogoutSessionRequired: 'backchannel_logout_session_required',
      tokenEndpointAuthMethod: 'token_endpoint_auth_method',
      softwareId: 'software_id',
      softwareVersion: 'software_version',
      softwareStatement: 'software_statement',
      applicationType: 'application_type',
      jwksUri: 'jwks_uri',
      grantTypes: 'grant_types',
      responseTypes: 'response_types',
      requirePKCE: 'require_pkce',
      dpopBoundAccessTokens: 'dpop_bound_access_tokens',
      referenceId: 'reference_id',
      clientDiscoveryId: 'client_discovery_id',
    },
  },
  oauthResource: {
    modelName: 'oauth_resources',
    fields: {
      accessTokenTtl: 'access_token_ttl',
      refreshTokenTtl: 'refresh_token_ttl',
      signingAlgorithm: 'signing_algorithm',
      signingKeyId: 'signing_key_id',
      allowedScopes: 'allowed_scopes',
      customClaims: 'custom_claims',
      dpopBoundAccessTokensRequired: 'dpop_bound_access_tokens_required',
      createdAt: 'created_at',
      updatedAt: 'updated_at',
      policyVersion: 'policy_version',
    },
  },
  oauthClientResource: {
    modelName: 'oauth_client_resources',
    fields: { clientId: 'client_id', resourceId: 'resource_id', createdAt: 'created_at' },
  },
  oauthRefreshToken: {
    modelName: 'oauth_refresh_tokens',
    fields: {
      ...TOKEN_FIELDS,
      rotatedAt: 'rotated_at',
      rotationReplayResponse: 'rotation_replay_response',
      rotationReplayExpiresAt: 'rotation_replay_expires_at',
      authTime: 'auth_time',
    },
  },
  oauthAccessToken: {
    modelName: 'oauth_access_tokens',
    fields: { ...TOKEN_FIELDS, refreshId: 'refresh_id' },
  },
  oauthConsent: {
    modelName: 'oauth_consents',
    fields: {
      clientId: 'client_id',
      userId: 'user_id',
      referenceId: 'reference_id',
      requestedUserInfoClaims: 'requested_user_info_claims',
      createdAt: 'created_at',
      updatedAt: 'updated_at',
    },
  },
  oauthClientAssertion: {
    modelName: 'oauth_client_assertions',
    fields: { clientId: 'client_id', expiresAt: 'expires_at', createdAt: 'created_at' },
  },
} as const;

export interface OAuthServerSettings {
  /** The deployment's origin: the resources are `<origin>/v1/api` and `<origin>/mcp`. */
  origin: string;
  /** Client ID Metadata Documents, fetched under the webhook address rules. */
  clientMetadataDocuments: (options: () => OAuthOptions<OAuthScope[]>) => ClientDiscovery;
}

/**
 * Better Auth's OAuth 2.1 provider as this service runs it (docs/design-record.md#d30): the
 * authorization code with PKCE S256 only, opaque tokens stored as their SHA-256, 1 h access tokens
 * bound to one of the two resources, refresh tokens that rotate with a 30 s grace and end after
 * 90 days unused, dynamic registration open to public clients, and Client ID Metadata Documents.
 * Sign-in and consent are console pages; the consent's reference is the grant the owner chose
 * there (consent-choice.ts), which every token of the authorization carries.
 */
export function oauthServerOptions(settings: OAuthServerSettings): OAuthOptions<OAuthScope[]> {
  const scopes: OAuthScope[] = [...SCOPES, OFFLINE_ACCESS];
  const options: OAuthOptions<OAuthScope[]> = {
    schema: OAUTH_SCHEMA,
    scopes,
    resources: (['rest', 'mcp'] as const).map((resource) => ({
      identifier: oauthResourceUrl(settings.origin, resource),
      name: resource === 'rest' ? 'REST API' : 'MCP server',
      accessTokenTtl: ACCESS_TOKEN_SECONDS,
    })),
    resourceSeedMode: 'overwrite',
    // Every app may ask for either resource; a token is still bound to the one it asked for.
    clientRegistrationDefaultResources: (['rest', 'mcp'] as const).map((resource) => oauthResourceUrl(settings.origin, resource)),
    grantTypes: ['authorization_code', 'refresh_token'],
    accessTokenExpiresIn: ACCESS_TOKEN_SECONDS,
    refreshTokenExpiresIn: GRANT_IDLE_SECONDS,
    refreshTokenReuseInterval: REFRESH_REUSE_SECONDS,
    allowDynamicClientRegistration: true,
    allowUnauthenticatedClientRegistration: true,
    clientRegistrationRequirePKCE: true,
    clientRegistrationDefaultScopes: scopes,
    clientRegistrationAllowedScopes: scopes,
    loginPage: OAUTH_SIGN_IN_PAGE,
    consentPage: OAUTH_CONSENT_PAGE,
    postLogin: {
      page: OAUTH_CONSENT_PAGE,
      // Business and mode are chosen on the consent page itself, not on a page before it.
      shouldRedirect: () => false,
      consentReferenceId: () => consentReference(),
    },
    // Tokens are opaque and looked up; no JWT, so no signing keys to keep.
    disableJwtPlugin: true,
    storeTokens: { hash: (token) => oauthTokenHash(token) },
    prefix: { opaqueAccessToken: ACCESS_TOKEN_PREFIX, refreshToken: REFRESH_TOKEN_PREFIX, clientSecret: CLIENT_SECRET_PREFIX },
    extensions: [{ clientDiscovery: settings.clientMetadataDocuments(() => options) }],
  };
  return options;
}
