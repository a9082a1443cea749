import { isIP } from 'node:net';
import { isWellFormedApiKey } from '#core/api-keys/api-key-format.js';

/** What the MCP server needs: where the API is and the key it acts with. */
export interface McpConfig {
  apiUrl: string;
  apiKey: string;
}

/** A setting that is missing or malformed, named in the message. */
export class McpConfigError extends Error {
  override readonly name = 'McpConfigError';
}

/**
 * Reads SCHEDULING_API_URL and SCHEDULING_API_KEY once at start; the server does not start without
 * them (docs/design-record.md#d25). The key may be live (`rk_live_…`) or test (`rk_test_…`, D19):
 * the API decides what it may do. A key that is not one (a character lost in a copy) is refused
 * here rather than on every tool call, where each refusal would count against the failed
 * authentications of the machine's address. The key travels with every request, so the address
 * must be https unless the API is on this machine.
 */
export function readMcpConfig(env: Record<string, string | undefined>): McpConfig {
  const problems: string[] = [];
  const apiUrl = env.SCHEDULING_API_URL?.trim() ?? '';
  if (apiUrl === '') {
    problems.push('SCHEDULING_API_URL is missing: set it to the API’s address, e.g. https://api.example or http://localhost:3000');
  } else {
    const url = httpUrl(apiUrl);
    if (!url) problems.push(`SCHEDULING_API_URL must be an http or https address, not ${JSON.stringify(apiUrl)}`);
    else if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
      problems.push(
        `SCHEDULING_API_URL must be https: the key would cross the network to ${url.host} in clear (plain http is for an API on this machine: localhost, 127.0.0.1 or [::1])`,
      );
    }
  }
  const apiKey = env.SCHEDULING_API_KEY?.trim() ?? '';
  if (apiKey === '') problems.push('SCHEDULING_API_KEY is missing: set it to an API key of the business (rk_live_… or rk_test_…)');
  else if (!isWellFormedApiKey(apiKey)) {
    // The key itself is never shown: it may be a real one with a typo.
    problems.push(
      'SCHEDULING_API_KEY is not an API key: a key is rk_live_ or rk_test_ and 38 letters and digits, copied whole from where it was created',
    );
  }
  if (problems.length > 0) throw new McpConfigError(problems.join('\n'));
  return { apiUrl, apiKey };
}

function httpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** localhost, 127.0.0.0/8 or ::1 (a URL's hostname: IPv4 written out, IPv6 in brackets). */
function isLoopback(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return isIP(hostname) === 4 && hostname.startsWith('127.');
}
