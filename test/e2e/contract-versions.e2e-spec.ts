import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadFrozenContract } from '#contract/served-contract.js';
import { ContractResponseValidator } from '../utils/contract-response-validator.js';
import { E2eApi } from '../utils/e2e-api.js';
import { testConfig } from '../utils/test-config.js';

/** The published documents and the address they name (docs/design-record.md#d13, #d22). */
const file = (name: string) => parse(readFileSync(join(process.cwd(), 'openapi', name), 'utf8')) as Record<string, unknown>;
const withoutServers = ({ servers: _servers, ...rest }: Record<string, unknown>) => rest;

let api: E2eApi;
let behindProxy: E2eApi;
let published: E2eApi;
beforeAll(async () => {
  api = await E2eApi.start();
  behindProxy = await E2eApi.start(testConfig({ TRUSTED_PROXIES: '1' }));
  published = await E2eApi.start(testConfig({ TRUSTED_PROXIES: '1', PUBLIC_BASE_URL: 'https://api.salon.example/' }));
});
afterAll(async () => {
  await api.close();
  await behindProxy.close();
  await published.close();
});

const DOCUMENTS = [
  '/openapi.json',
  '/openapi.yaml',
  ...['1.2.0', '1.3.0', '1.4.0', '1.5.0'].flatMap((version) => [`/v1/api/openapi/${version}.json`, `/v1/api/openapi/${version}.yaml`]),
];
const serverOf = (res: { headers: Record<string, string>; text: string }) =>
  (parse(res.text) as { servers: { url: string }[] }).servers[0].url;
/** The request headers an answer says it varies with, in lower case. */
const varyOf = (res: { headers: Record<string, string> }) =>
  (res.headers.vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean)
    .sort();

describe('the published documents', () => {
  it('serves 1.5.0 at openapi.json and .yaml, and every published version as published at openapi/<version>', async () => {
    const current = await api.get('/openapi.json');
    expect(current.body.info.version).toBe('1.5.0');
    for (const version of ['1.2.0', '1.3.0', '1.4.0', '1.5.0']) {
      const json = await api.get(`/v1/api/openapi/${version}.json`);
      expect({ version, status: json.status }).toEqual({ version, status: 200 });
      expect(withoutServers(json.body)).toEqual(withoutServers(file(`v${version}.yaml`)));
      const yaml = await api.get(`/v1/api/openapi/${version}.yaml`);
      expect(yaml.headers['content-type']).toMatch(/^application\/yaml/);
      expect(withoutServers(parse(yaml.text))).toEqual(withoutServers(file(`v${version}.yaml`)));
    }
    const unknown = await api.get('/v1/api/openapi/1.1.0.json');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/1\.2\.0, 1\.3\.0, 1\.4\.0, 1\.5\.0/);
  });

  // No extension is enabled unless EXTENSIONS names it (docs/extending.md): the document is the file.
  it('serves openapi/v1.5.0.yaml as published when no extension is enabled', async () => {
    expect(withoutServers((await api.get('/openapi.json')).body)).toEqual(withoutServers(file('v1.5.0.yaml')));
    expect(withoutServers(parse((await api.get('/openapi.yaml')).text))).toEqual(withoutServers(file('v1.5.0.yaml')));
  });

  // A YAML 1.1 loader (PyYAML, SnakeYAML) reads a bare timestamp as a date: the served YAML keeps the file's quotes.
  it('keeps the example timestamps strings for a YAML 1.1 loader, in every served YAML', async () => {
    for (const path of DOCUMENTS.filter((address) => address.endsWith('.yaml'))) {
      const yaml11 = parse((await api.get(path)).text, { version: '1.1' }) as {
        paths: Record<
          string,
          { post?: { requestBody: { content: Record<string, { examples: Record<string, { value: Record<string, unknown> }> }> } } }
        >;
      };
      const examples = yaml11.paths['/appointments'].post!.requestBody.content['application/json'].examples;
      const starts = Object.values(examples).map((example) => example.value.startAt);
      expect({ path, starts }).toEqual({ path, starts: expect.arrayContaining([expect.any(String)]) });
      for (const start of starts) expect({ path, start: typeof start }).toEqual({ path, start: 'string' });
      expect(withoutServers(yaml11 as unknown as Record<string, unknown>)).toEqual(
        withoutServers(file(`v${/\d+\.\d+\.\d+/.exec(path)?.[0] ?? '1.5.0'}.yaml`)),
      );
    }
  });

  it('names as server the address it was requested at', async () => {
    for (const path of ['/openapi.json', '/v1/api/openapi/1.2.0.json', '/v1/api/openapi/1.3.0.json']) {
      const local = await api.get(path);
      expect(local.body.servers).toEqual([
        { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1\/api$/), description: expect.any(String) },
      ]);
      const named = await api.get(path, { headers: { Host: 'api.salon.example:8443' } });
      expect(named.body.servers[0].url).toBe('http://api.salon.example:8443/v1/api');
    }
    const yaml = parse((await api.get('/openapi.yaml', { headers: { Host: 'api.salon.example' } })).text);
    expect(yaml.servers[0].url).toBe('http://api.salon.example/v1/api');
  });

  it('believes X-Forwarded-Proto and -Host only from a trusted proxy', async () => {
    const headers = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'partners.salon.example' };
    const direct = await api.get('/openapi.json', { headers: { ...headers, Host: 'internal:3000' } });
    expect(direct.body.servers[0].url).toBe('http://internal:3000/v1/api');
    const proxied = await behindProxy.get('/openapi.json', { headers: { ...headers, Host: 'internal:3000' } });
    expect(proxied.body.servers[0].url).toBe('https://partners.salon.example/v1/api');
  });

  it('says it varies with the headers whose address it names (the forwarded ones only from a trusted proxy)', async () => {
    for (const path of DOCUMENTS) {
      expect({ path, vary: varyOf(await api.get(path)) }).toEqual({ path, vary: ['host'] });
      expect({ path, vary: varyOf(await behindProxy.get(path)) }).toEqual({
        path,
        vary: ['host', 'x-forwarded-host', 'x-forwarded-proto'],
      });
    }
  });

  it('names PUBLIC_BASE_URL when it is set, whatever the request says, and then varies with none of it', async () => {
    const headers = { Host: 'internal:3000', 'X-Forwarded-Proto': 'http', 'X-Forwarded-Host': 'evil.example' };
    for (const path of DOCUMENTS) {
      const res = await published.get(path, { headers });
      expect({ path, server: serverOf(res), vary: varyOf(res) }).toEqual({ path, server: 'https://api.salon.example/v1/api', vary: [] });
    }
  });

  it('puts nothing unchecked from the Host header into the document', async () => {
    for (const host of ['evil.example/<script>', 'a b', 'x:99999999']) {
      const res = await api.get('/openapi.json', { headers: { Host: host } });
      expect({ host, status: res.status, server: res.body.servers?.[0]?.url }).toEqual({ host, status: 200, server: '/v1/api' });
    }
  });
});

describe('answers of 1.2.0 operations, checked against 1.2.0 too', () => {
  it('would catch a field that 1.2.0 does not describe', async () => {
    const me = await api.get('/openapi.json');
    expect(me.status).toBe(200);
    const frozen = new ContractResponseValidator(loadFrozenContract().document, false);
    const observed = {
      method: 'GET',
      path: '/services',
      status: 200,
      headers: { 'x-request-id': 'r1', 'content-type': 'application/json' },
    };
    expect(frozen.check({ ...observed, text: JSON.stringify({ data: [] }) })).toEqual([]);
    expect(frozen.check({ ...observed, text: JSON.stringify({ data: [], staff: [] }) }).join('\n')).toMatch(/additional/);
    expect(frozen.describes({ method: 'GET', path: '/staff' })).toBe(false);
  });
});
