import type { GenericEndpointContext } from '@better-auth/core';
import {
  oauthClientMetadataSchema,
  type ClientDiscovery,
  type OAuthOptions,
  type Scope,
  type SchemaClient,
} from '@better-auth/oauth-provider';
import { Logger } from '@nestjs/common';
import { fetch } from 'undici';
import { isForbiddenCimdClientMetadataField, registerClientMetadataDocument } from '@better-auth/oauth-provider/internal';
import { resolveDeliveryTarget, type TargetOptions } from '../notices/endpoints/delivery-target.js';
import { PinnedDispatchers } from '../notices/endpoints/pinned-dispatchers.js';

/** A metadata document is a few hundred bytes; anything past this is refused unread. */
export const CLIENT_METADATA_MAX_BYTES = 5 * 1024;
/** How long the fetch of a document may take, connection included. */
export const CLIENT_METADATA_TIMEOUT_MS = 5_000;
/** A stored document is fetched again when older than this, at the app's next authorization. */
const CLIENT_METADATA_FRESH_MS = 60 * 60 * 1000;

const logger = new Logger('ClientMetadataDocuments');

export const CLIENT_METADATA_DISCOVERY_ID = 'client-id-metadata-document';

/** Why a document could not be used: what the authorization answers (invalid_client). */
export class ClientMetadataRefused extends Error {}

/** The address rules of the fetch: the webhook rules (https, public addresses, allowed ports). */
export type ClientMetadataFetchRules = Omit<TargetOptions, 'resolve'> & {
  resolve(hostname: string, timeoutMs: number): Promise<{ address: string; family: 4 | 6 }[]>;
};

/**
 * Client ID Metadata Documents (docs/design-record.md#d30): an app whose `client_id` is an https URL
 * is described by the JSON document at that URL, fetched by this server, so an assistant needs no
 * registration step. The fetch follows the webhook address rules (https, every resolved address
 * public, allowed ports, the connection pinned to the checked address), takes no redirect, and
 * stops at CLIENT_METADATA_MAX_BYTES or CLIENT_METADATA_TIMEOUT_MS. Better Auth's provider stores
 * the result as a client it does not own (no secret; `token_endpoint_auth_method` none).
 */
export function clientMetadataDocuments(rules: ClientMetadataFetchRules, options: () => OAuthOptions<Scope[]>): ClientDiscovery {
  const dispatchers = new PinnedDispatchers(CLIENT_METADATA_TIMEOUT_MS);
  return {
    id: CLIENT_METADATA_DISCOVERY_ID,
    discoveryMetadata: { client_id_metadata_document_supported: true },
    matches: isMetadataDocumentClientId,
    async resolve(ctx: GenericEndpointContext, clientId: string, existing: SchemaClient<Scope[]> | null) {
      if (existing?.updatedAt && Date.now() - new Date(existing.updatedAt).getTime() < CLIENT_METADATA_FRESH_MS) return existing;
      let document: Awaited<ReturnType<typeof fetchDocument>>;
      try {
        document = await fetchDocument(clientId, rules, dispatchers);
      } catch (error) {
        // An app whose document cannot be used is an unknown client (invalid_client), as the
        // draft says; why is for the operator's log, not for whoever typed the URL.
        if (!(error instanceof ClientMetadataRefused)) throw error;
        logger.warn(`Client ID Metadata Document refused: ${error.message}`);
        return null;
      }
      const registered = await registerClientMetadataDocument(ctx, options(), {
        metadata: document,
        clientId,
        clientDiscoveryId: CLIENT_METADATA_DISCOVERY_ID,
        existingClient: existing ?? undefined,
      });
      return registered.client;
    },
  };
}

/** An https URL with a path and no fragment, credentials or dot segments: the draft's client_id. */
export function isMetadataDocumentClientId(clientId: string): boolean {
  if (!clientId.startsWith('https://') && !clientId.startsWith('http://')) return false;
  try {
    const url = new URL(clientId);
    return url.href === clientId && url.pathname !== '/' && !url.hash && !url.username && !url.password;
  } catch {
    return false;
  }
}

async function fetchDocument(clientId: string, rules: ClientMetadataFetchRules, dispatchers: PinnedDispatchers) {
  const signal = AbortSignal.timeout(CLIENT_METADATA_TIMEOUT_MS);
  const target = await resolveDeliveryTarget(clientId, { ...rules, resolve: (host) => rules.resolve(host, CLIENT_METADATA_TIMEOUT_MS) });
  if (!target.ok) throw new ClientMetadataRefused(`The client's metadata document cannot be fetched: ${target.reason}.`);
  const response = await fetch(target.url, {
    redirect: 'manual',
    signal,
    headers: { accept: 'application/json' },
    dispatcher: dispatchers.for(target.address),
  }).catch((error: unknown) => {
    throw new ClientMetadataRefused(`The client's metadata document could not be fetched (${(error as Error).message}).`);
  });
  if (response.status !== 200) throw new ClientMetadataRefused(`The client's metadata document answered ${response.status}, not 200.`);
  const text = await readAtMost(response, CLIENT_METADATA_MAX_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ClientMetadataRefused("The client's metadata document is not JSON.");
  }
  const parsed = oauthClientMetadataSchema.safeParse(json);
  if (!parsed.success) throw new ClientMetadataRefused(`The client's metadata document is not valid: ${parsed.error.message}`);
  const document = parsed.data;
  if (document.client_id !== clientId) throw new ClientMetadataRefused("The client's metadata document names another client_id.");
  const forbidden = Object.keys(json as object).filter((field) => isForbiddenCimdClientMetadataField(field));
  if (forbidden.length > 0) throw new ClientMetadataRefused(`The client's metadata document may not hold ${forbidden.join(', ')}.`);
  const redirectUris = document.redirect_uris ?? [];
  if (redirectUris.length === 0) throw new ClientMetadataRefused("The client's metadata document lists no redirect_uris.");
  return { ...document, redirect_uris: redirectUris };
}

async function readAtMost(response: Awaited<ReturnType<typeof fetch>>, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > limit) throw new ClientMetadataRefused(`The client's metadata document is larger than ${limit} bytes.`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    // Leaving the loop early cancels the stream: the rest is never read.
    if (size > limit) throw new ClientMetadataRefused(`The client's metadata document is larger than ${limit} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
