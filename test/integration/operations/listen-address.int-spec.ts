import { jest } from '@jest/globals';
import { networkInterfaces } from 'node:os';
import { Child, buildApps, childEnv, freePort } from '../../utils/child-process.js';
import { connectsTo } from '../../utils/connects-to.js';

/**
 * HOST (docs/design-record.md#d25): the compiled API listens on every interface when it is unset,
 * as production and the image run it, and on the one address HOST names otherwise (`npm start`
 * names 127.0.0.1, npm-start-demo.int-spec.ts). Reached through this machine's own non-loopback
 * address, which every test host has (the test fails without one rather than pass on nothing).
 */
jest.setTimeout(120_000);

const children: Child[] = [];
const outside = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && !address.internal && address.family === 'IPv4')?.address;

async function startApi(extra: Record<string, string>): Promise<{ api: Child; port: number }> {
  const port = await freePort();
  const api = Child.spawn(process.execPath, ['dist/apps/api/src/main.js'], childEnv('listen-address', { PORT: String(port), ...extra }));
  children.push(api);
  await api.waitForOutput(/Listening on/, 60_000);
  return { api, port };
}

beforeAll(() => buildApps());
afterAll(async () => {
  for (const child of children) await child.kill();
});

describe('the address the API listens on', () => {
  it('is every interface without HOST, and the log says so', async () => {
    expect(outside).toEqual(expect.any(String));
    const { api, port } = await startApi({});
    expect(api.output).toMatch(new RegExp(`Listening on http://(\\[::\\]|0\\.0\\.0\\.0):${port}/v1/api`));
    expect(await connectsTo('127.0.0.1', port)).toBe(true);
    expect(await connectsTo(outside!, port)).toBe(true);
  });

  it('is the one HOST names', async () => {
    const { api, port } = await startApi({ HOST: '127.0.0.1' });
    expect(api.output).toContain(`Listening on http://127.0.0.1:${port}/v1/api`);
    expect(await connectsTo('127.0.0.1', port)).toBe(true);
    expect(await connectsTo(outside!, port)).toBe(false);
  });

  it('stops the start on a HOST that is not an IP address', async () => {
    const api = Child.spawn(process.execPath, ['dist/apps/api/src/main.js'], childEnv('listen-address', { HOST: 'my-laptop' }));
    children.push(api);
    expect(await api.exited).toBe(1);
    expect(api.output).toContain('HOST must be an IP address');
  });
});
