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
 * them. The key may be live (`rk_live_…`) or test (`rk_test_…`, D19): the API decides what it may do.
 */
export function readMcpConfig(env: Record<string, string | undefined>): McpConfig {
  const problems: string[] = [];
  const apiUrl = env.SCHEDULING_API_URL?.trim() ?? '';
  if (apiUrl === '') {
    problems.push('SCHEDULING_API_URL is missing: set it to the API’s address, e.g. http://localhost:3000');
  } else if (!isHttpUrl(apiUrl)) {
    problems.push(`SCHEDULING_API_URL must be an http or https address, not ${JSON.stringify(apiUrl)}`);
  }
  const apiKey = env.SCHEDULING_API_KEY?.trim() ?? '';
  if (apiKey === '') problems.push('SCHEDULING_API_KEY is missing: set it to an API key of the business (rk_live_… or rk_test_…)');
  else if (/\s/.test(apiKey)) problems.push('SCHEDULING_API_KEY must not contain spaces');
  if (problems.length > 0) throw new McpConfigError(problems.join('\n'));
  return { apiUrl, apiKey };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
