import { loadConfig } from '#config/app-config.js';
import { HttpMetrics } from './http-metrics.js';
import { MetricsServer } from './metrics-server.js';

const secrets = { API_KEY_PEPPER: 'p'.repeat(32), CURSOR_SECRET: 'c'.repeat(32), SECRETS_KEY: `k1:${'A'.repeat(43)}=` };

/** The address a metrics server listens on under these settings, and whether it serves GET /metrics there. */
async function listenedOn(settings: Record<string, string>): Promise<{ address: string; status: number }> {
  const server = new MetricsServer(new HttpMetrics(), loadConfig({ ...secrets, ...settings }));
  try {
    const { address, port } = await server.listen(0);
    const status = (await fetch(`http://127.0.0.1:${port}/metrics`)).status;
    return { address, status };
  } finally {
    await server.onApplicationShutdown();
  }
}

describe('MetricsServer', () => {
  it('listens on loopback only by default (METRICS_HOST), and on the address METRICS_HOST names', async () => {
    expect(await listenedOn({})).toEqual({ address: '127.0.0.1', status: 200 });
    expect(await listenedOn({ METRICS_HOST: '0.0.0.0' })).toEqual({ address: '0.0.0.0', status: 200 });
  });
});
