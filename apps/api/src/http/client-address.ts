import type { Request } from 'express';

/**
 * The client's address as Express resolves it (the socket's, or X-Forwarded-For's behind
 * TRUSTED_PROXIES hops), with an IPv4 address seen through an IPv6 socket (::ffff:a.b.c.d)
 * written as plain IPv4, so one client is one address whichever way it connected.
 */
export function clientAddress(req: Request): string {
  const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
}
