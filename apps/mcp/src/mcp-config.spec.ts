import { generateApiKey } from '#core/api-keys/api-key-format.js';
import { McpConfigError, readMcpConfig } from './mcp-config.js';

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('readMcpConfig', () => {
  const live = generateApiKey('live');
  const test = generateApiKey('test');

  it('accepts an https address, or http on this machine, and a live or test key', () => {
    expect(readMcpConfig({ SCHEDULING_API_URL: 'http://localhost:3000', SCHEDULING_API_KEY: live })).toEqual({
      apiUrl: 'http://localhost:3000',
      apiKey: live,
    });
    expect(readMcpConfig({ SCHEDULING_API_URL: ' https://api.example ', SCHEDULING_API_KEY: ` ${test} ` }).apiKey).toBe(test);
    for (const url of ['http://127.0.0.1:3000', 'http://127.1.2.3', 'http://[::1]:3000/', 'http://LOCALHOST', 'https://10.0.0.5']) {
      expect(readMcpConfig({ SCHEDULING_API_URL: url, SCHEDULING_API_KEY: live }).apiUrl).toBe(url);
    }
  });

  it('names every missing or malformed setting at once', () => {
    expect(() => readMcpConfig({})).toThrow(McpConfigError);
    expect(() => readMcpConfig({})).toThrow(/SCHEDULING_API_URL is missing[\s\S]*SCHEDULING_API_KEY is missing/);
    expect(() => readMcpConfig({ SCHEDULING_API_URL: 'localhost:3000', SCHEDULING_API_KEY: live })).toThrow(/http or https/);
    expect(() => readMcpConfig({ SCHEDULING_API_URL: 'ftp://x', SCHEDULING_API_KEY: 'k' })).toThrow(
      /http or https[\s\S]*SCHEDULING_API_KEY is not an API key/,
    );
  });

  it('refuses a key that is not one, without showing it', () => {
    const typo = `${live.slice(0, -1)}${live.endsWith('A') ? 'B' : 'A'}`;
    for (const key of ['rk_live_abc', typo, live.slice(1), `${live} x`, live.replace('rk_live_', 'sk_live_')]) {
      const message = messageOf(() => readMcpConfig({ SCHEDULING_API_URL: 'https://api.example', SCHEDULING_API_KEY: key }));
      expect(message).toMatch(/SCHEDULING_API_KEY is not an API key/);
      expect(message).not.toContain(key.trim());
    }
  });

  it('refuses plain http to another machine: the key would cross the network in clear', () => {
    for (const url of [
      'http://api.example',
      'http://10.0.0.5:3000',
      'http://[2001:db8::1]',
      'http://localhost.example.com',
      'http://128.0.0.1',
    ]) {
      expect(() => readMcpConfig({ SCHEDULING_API_URL: url, SCHEDULING_API_KEY: live })).toThrow(
        /must be https: the key would cross the network/,
      );
    }
  });
});
