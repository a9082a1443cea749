import request from 'supertest';
import { E2eApi } from '../utils/e2e-api.js';

/**
 * A newcomer's first request (`curl localhost:3000`, or the base path in a browser) points to the
 * reference and the documents instead of answering 404. Not an operation of the contract: it is
 * served without a key, like /docs and /health.
 */
let api: E2eApi;
beforeAll(async () => {
  api = await E2eApi.start();
});
afterAll(() => api.close());

const ROOTS = ['/', '/v1/api', '/v1/api/'];

describe('GET / and GET /v1/api', () => {
  it.each(ROOTS)('%s lists, as JSON, the reference page and each served version of the document', async (path) => {
    const res = await request(api.app.getHttpServer()).get(path).set('Accept', '*/*');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-request-id']).toBeDefined();
    expect(res.body).toEqual({
      name: 'Business Scheduling API',
      docs: '/docs',
      openapi: '/v1/api/openapi.json',
      versions: [
        { version: '1.5.0', openapi: '/v1/api/openapi.json', yaml: '/v1/api/openapi.yaml' },
        { version: '1.4.0', openapi: '/v1/api/openapi/1.4.0.json', yaml: '/v1/api/openapi/1.4.0.yaml' },
        { version: '1.3.0', openapi: '/v1/api/openapi/1.3.0.json', yaml: '/v1/api/openapi/1.3.0.yaml' },
        { version: '1.2.0', openapi: '/v1/api/openapi/1.2.0.json', yaml: '/v1/api/openapi/1.2.0.yaml' },
      ],
      health: '/health/ready',
    });
  });

  it('links only to what the API serves, without a key', async () => {
    const { body } = await request(api.app.getHttpServer()).get('/v1/api');
    const index = body as { docs: string; versions: { openapi: string; yaml: string }[]; health: string };
    const links = [index.docs, index.health, ...index.versions.flatMap((version) => [version.openapi, version.yaml])];
    for (const link of links) expect({ link, status: (await api.get(link)).status }).toEqual({ link, status: 200 });
  });

  it.each(ROOTS)('%s sends a browser to the reference page', async (path) => {
    const res = await request(api.app.getHttpServer())
      .get(path)
      .set('Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/docs');
    expect(res.headers.vary).toMatch(/Accept/);
  });

  it('leaves other unknown paths 404', async () => {
    const res = await request(api.app.getHttpServer()).get('/v1/api/no-such-route');
    expect(res.status).toBe(404);
  });
});
