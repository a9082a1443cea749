import { isIP } from 'node:net';
import { nonPublicRange } from './webhook-address.js';

/** The host of a URL as a resolver takes it: without IPv6 brackets or the trailing dot of a name. */
export function urlHost(url: URL): string {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/** Names that always mean this machine (RFC 6761), whatever a resolver says. */
export function isLocalName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/** The ports a notice may go to unless WEBHOOK_PORTS says otherwise (docs/design-record.md#d25). */
export const DEFAULT_WEBHOOK_PORTS: readonly number[] = [443, 8443];

/** The rules of an address that depend on the deployment's settings. */
export interface WebhookUrlRules {
  /** WEBHOOKS_ALLOW_PRIVATE: http, non-public addresses and any port are accepted. */
  allowPrivate: boolean;
  /** WEBHOOK_PORTS. */
  ports?: readonly number[];
}

/**
 * Checks an endpoint address when it is registered; returns why it is refused, or null.
 * Only what the address itself shows is checked here; resolveDeliveryTarget also resolves the
 * name and checks every address, at registration and again at every send (DNS rebinding).
 * allowPrivate (WEBHOOKS_ALLOW_PRIVATE) lifts the https, range and port rules for local use and tests.
 */
export function checkWebhookUrl(raw: string, rules: WebhookUrlRules): string | null {
  const { allowPrivate } = rules;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return allowPrivate ? 'must be an http or https URL' : 'must be an https URL';
  }
  // Credentials in the address would be sent to, and logged by, every proxy on the way.
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  if (url.hash !== '') return 'must not have a fragment';
  if (raw.length > 2048) return 'must be at most 2048 characters';
  if (allowPrivate) return null;
  // The WHATWG parser has already turned decimal, octal and hex IPv4 forms (2130706433,
  // 0177.0.0.1, 0x7f.1) into dotted quads, so only canonical addresses reach the range check.
  const host = urlHost(url);
  if (isLocalName(host)) return 'must not point to this machine';
  const range = isIP(host) === 0 ? null : nonPublicRange(host);
  if (range) return `must not point to a non-public address (${range})`;
  // Only the ports web receivers listen on: any other would make the service a port scanner of
  // the internet, one test ping at a time.
  const ports = rules.ports ?? DEFAULT_WEBHOOK_PORTS;
  const port = url.port === '' ? 443 : Number(url.port);
  if (!ports.includes(port)) return `must use port ${ports.join(' or ')}`;
  return null;
}
