import type { Request } from 'express';

/** A host as a URL may carry it: a name or IPv4 address, or a bracketed IPv6 one, and a port. */
const SANE_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * The API's base address as this request reached it: scheme and host as the client saw them
 * (through TRUSTED_PROXIES' X-Forwarded-Proto/-Host, else the socket and Host header) and the
 * versioned prefix. A Host header that is not a host gives the relative `/v1/api`, which a
 * client resolves against the document's own address: nothing a caller sends ends up in the
 * document unchecked.
 */
export function requestBaseUrl(request: Request, prefix: string): string {
  const host = request.host;
  if (typeof host !== 'string' || !SANE_HOST.test(host)) return `/${prefix}`;
  const scheme = request.protocol === 'https' ? 'https' : 'http';
  return `${scheme}://${host}/${prefix}`;
}
