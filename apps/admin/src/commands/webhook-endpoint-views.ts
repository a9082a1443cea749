import type { ApiVersion } from '#contract/versions/api-versions.js';
import type { WebhookEndpointEntity } from '#database/entities/webhook-endpoint.entity.js';

/** An endpoint as `admin webhook list` and `enable` print it (docs/operations-interface.md): never its secrets. */
export interface WebhookEndpointView {
  id: string;
  business: string;
  url: string;
  events: string[];
  description: string | null;
  /** The version its notices are shaped for (docs/design-record.md#d22). */
  apiVersion: ApiVersion;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  /** While set, deliveries are also signed with the secret before the last rotation. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What `admin webhook create` prints: the secret, this once (it cannot be read back). */
export interface CreatedWebhookEndpointView {
  id: string;
  secret: string;
  business: string;
  url: string;
  events: string[];
  description: string | null;
  apiVersion: ApiVersion;
  createdAt: string;
}

/** What `admin webhook rotate-secret` prints: the new secret, this once. */
export interface RotatedSecretView {
  id: string;
  business: string;
  secret: string;
  previousSecretExpiresAt: string;
}

export function endpointView(endpoint: WebhookEndpointEntity, business: string): WebhookEndpointView {
  return {
    id: endpoint.id,
    business,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    apiVersion: endpoint.apiVersion,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    failingSince: endpoint.failingSince?.toISOString() ?? null,
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

export function createdEndpointView(endpoint: WebhookEndpointEntity, business: string): CreatedWebhookEndpointView {
  return {
    id: endpoint.id,
    secret: endpoint.secret,
    business,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    apiVersion: endpoint.apiVersion,
    createdAt: endpoint.createdAt.toISOString(),
  };
}

export function rotatedSecretView(endpoint: WebhookEndpointEntity, business: string): RotatedSecretView {
  return {
    id: endpoint.id,
    business,
    secret: endpoint.secret,
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? '',
  };
}
