import { McpConfigError, readMcpConfig } from './mcp-config.js';

describe('readMcpConfig', () => {
  it('accepts an http(s) address and a live or test key', () => {
    expect(readMcpConfig({ SCHEDULING_API_URL: 'http://localhost:3000', SCHEDULING_API_KEY: 'rk_live_abc' })).toEqual({
      apiUrl: 'http://localhost:3000',
      apiKey: 'rk_live_abc',
    });
    expect(readMcpConfig({ SCHEDULING_API_URL: ' https://api.example ', SCHEDULING_API_KEY: 'rk_test_abc' }).apiKey).toBe('rk_test_abc');
  });

  it('names every missing or malformed setting at once', () => {
    expect(() => readMcpConfig({})).toThrow(McpConfigError);
    expect(() => readMcpConfig({})).toThrow(/SCHEDULING_API_URL is missing[\s\S]*SCHEDULING_API_KEY is missing/);
    expect(() => readMcpConfig({ SCHEDULING_API_URL: 'localhost:3000', SCHEDULING_API_KEY: 'k' })).toThrow(/http or https/);
    expect(() => readMcpConfig({ SCHEDULING_API_URL: 'http://x', SCHEDULING_API_KEY: 'a b' })).toThrow(/spaces/);
  });
});
