import type { Request, Response } from 'express';
import type { AppConfig } from '#config/app-config.js';
import { API_PREFIX } from './api-prefix.js';

/** A host as a URL may carry it: a name or IPv4 address, or a bracketed IPv6 one, and a port. */
const SANE_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * The API's base address as a served document names it (docs/design-record.md#d25):
 * `<PUBLIC_BASE_URL>/v1/api` when that is set, the same for every caller. Else the address this
 * request reached (requestBaseUrl), and then the answer varies with the headers it was read from
 * (Host, and X-Forwarded-Host and -Proto when TRUSTED_PROXIES lets them count), so that a cache
 * never hands one caller's address to another.
 */
export function documentBaseUrl(
  request: Request,
  response: Response,
  config: Pick<AppConfig, 'PUBLIC_BASE_URL' | 'TRUSTED_PROXIES'>,
): string {
  if (config.PUBLIC_BASE_URL !== undefined) return `${config.PUBLIC_BASE_URL}/${API_PREFIX}`;
  response.vary('Host');
  if (config.TRUSTED_PROXIES > 0) {
    response.vary('X-Forwarded-Host');
    response.vary('X-Forwarded-Proto');
  }
  return requestBaseUrl(request, API_PREFIX);
}

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
