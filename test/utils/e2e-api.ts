import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type { AppConfig } from '#config/app-config.js';
import type { InjectionToken } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ApiModule } from '#api/api.module.js';
import { API_APP_OPTIONS, configureApiApp, createApiApp } from '#api/configure-app.js';
import { MetricsServer } from '#api/metrics/metrics-server.js';
import { NOTICE_TYPES } from '#contract/generated/operations.js';
import { loadFrozenContract, ServedContract } from '#contract/served-contract.js';
import { AnswerShaper } from '#contract/versions/answer-shaper.js';
import { API_VERSIONS, compareApiVersions, CURRENT_API_VERSION, isApiVersion, type ApiVersion } from '#contract/versions/api-versions.js';
import { ContractResponseValidator, type ObservedResponse } from './contract-response-validator.js';
import { testConfig } from './test-config.js';

export const BASE = '/v1/api';
/**
 * One validator per application's served contract and published version, made at the first call:
 * an answer is checked against the document of the version its Api-Version header names
 * (docs/design-record.md#d22), the current one with the application's enabled extensions'.
 */
const validators = new WeakMap<ServedContract, Map<ApiVersion, ContractResponseValidator>>();
function validatorOf(contract: ServedContract, version: ApiVersion): ContractResponseValidator {
  let byVersion = validators.get(contract);
  if (!byVersion) validators.set(contract, (byVersion = new Map()));
  let validator = byVersion.get(version);
  if (!validator) byVersion.set(version, (validator = new ContractResponseValidator(contract.published(version).document)));
  return validator;
}

const frozen = loadFrozenContract().document;
const FROZEN_SCOPES = new Set((frozen.components.schemas as { Scope: { enum: string[] } }).Scope.enum);

/**
 * GET /me shows the key as it is: a key granted a scope added after 1.2.0 shows it, and a test key
 * (1.3.0, docs/design-record.md#d19) its rk_test_ prefix, the answers D13 lets differ from 1.2.0.
 * Such answers are not checked against the 1.2.0 document.
 */
function showsLaterScopes(path: string, status: number, text: string): boolean {
  if (path !== '/me' || status !== 200) return false;
  const key = (JSON.parse(text) as { key?: { prefix?: string; scopes?: { scope: string }[] } }).key;
  return (key?.scopes ?? []).some(({ scope }) => !FROZEN_SCOPES.has(scope)) || key?.prefix?.startsWith('rk_test_') === true;
}

/**
 * What an answer breaks: of the document of its version, and, shaped down for every earlier
 * version that has its operation, of theirs (so every answer a test sees also proves the
 * down-conversions of docs/design-record.md#d22 on real data).
 */
function contractProblems(app: NestExpressApplication, observed: ObservedResponse, askedVersion: string | string[] | undefined): string[] {
  const contract = app.get(ServedContract);
  const shaper = app.get(AnswerShaper);
  const header = observed.headers['api-version'];
  if (!isApiVersion(header)) return [`Api-Version header is missing or unknown (${String(header)})`];
  const answered = validatorOf(contract, header);
  const own = answered.describes(observed) ? answered : validatorOf(contract, CURRENT_API_VERSION);
  const problems = own.check(observed);
  const operationId = own.operationIdOf(observed);
  const json = /json/.test(String(observed.headers['content-type'] ?? ''));
  // An enabled extension's operations and notice types belong to no published document (D25):
  // where one is served, only the served document is checked.
  const extended = contract.noticeTypes.length > NOTICE_TYPES.length;
  // A request naming no published version in Api-Version (a header earlier versions do not have)
  // is answered under the current document only.
  const askedUnpublished = askedVersion !== undefined && !isApiVersion(askedVersion);
  if (problems.length > 0 || operationId === undefined || !json || observed.status === 503 || extended || askedUnpublished) return problems;
  for (const earlier of API_VERSIONS.filter((version) => compareApiVersions(version, header) < 0)) {
    if (compareApiVersions(shaper.versionIntroducing(operationId), earlier) > 0 || !validatorOf(contract, earlier).describes(observed))
      continue;
    if (earlier === '1.2.0' && showsLaterScopes(observed.path, observed.status, observed.text)) continue;
    const text = JSON.stringify(shaper.shapeAnswer(earlier, operationId, observed.status, JSON.parse(observed.text)));
    // Shaped for `earlier`, the answer would also say so in its Api-Version header.
    const headers = { ...observed.headers, 'api-version': earlier };
    problems.push(
      ...validatorOf(contract, earlier)
        .check({ ...observed, headers, text })
        .map((problem) => `(shaped for ${earlier}) ${problem}`),
    );
  }
  return problems;
}

export type CallMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface CallOptions {
  key?: string;
  /** Send the key in X-API-Key instead of Authorization: Bearer. */
  keyHeader?: 'bearer' | 'x-api-key';
  /** A list sends the header once per value, as a client that repeats it would. */
  headers?: Record<string, string | string[]>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** A raw body string, sent as is (for malformed JSON, wrong media types). */
  rawBody?: string;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  // Tests read response bodies freely; the contract validator has already checked their shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * The real API bootstrap on an ephemeral port. Every call goes through the contract validators:
 * a response that does not conform to the document of its version (and, shaped down, to every
 * earlier one's) fails the test that made it.
 */
export class E2eApi {
  private metricsPort: number | undefined;

  private constructor(readonly app: NestExpressApplication) {}

  /** `providers`: tokens whose value is replaced (a fake host lookup, a clock), as startTestContext does. */
  static async start(config: AppConfig = testConfig(), providers: [InjectionToken, unknown][] = []): Promise<E2eApi> {
    let app: NestExpressApplication;
    if (providers.length === 0) {
      app = await createApiApp(config);
    } else {
      let builder = Test.createTestingModule({ imports: [ApiModule.forRoot(config)] });
      for (const [token, value] of providers) builder = builder.overrideProvider(token).useValue(value);
      app = configureApiApp((await builder.compile()).createNestApplication<NestExpressApplication>(API_APP_OPTIONS));
    }
    await app.init();
    return new E2eApi(app);
  }

  async call(method: CallMethod, path: string, options: CallOptions = {}): Promise<ApiResponse> {
    const url =
      path.startsWith('/v1/') || path.startsWith('/docs') || path.startsWith('/health') || path === '/metrics' ? path : `${BASE}${path}`;
    let req = request(this.app.getHttpServer())[method.toLowerCase() as 'get'](url);
    if (options.key) {
      req = options.keyHeader === 'x-api-key' ? req.set('X-API-Key', options.key) : req.set('Authorization', `Bearer ${options.key}`);
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) req = req.set(name, value as string);
    if (options.query) req = req.query(options.query);
    if (options.rawBody !== undefined) req = req.send(options.rawBody);
    else if (options.body !== undefined) req = req.send(options.body as object);
    const res = await req;
    const response: ApiResponse = {
      status: res.status,
      headers: res.headers,
      text: res.text,
      body: res.body,
    };
    // Operations endpoints (/health, /metrics) are outside the contract; only the request id applies.
    const outsideApi = !url.startsWith(BASE);
    const observed = { method, path: url.replace(BASE, '').split('?')[0], status: res.status, headers: res.headers, text: res.text };
    const problems = outsideApi
      ? res.headers['x-request-id']
        ? []
        : ['X-Request-Id header is missing']
      : contractProblems(this.app, observed, options.headers?.['Api-Version']);
    if (problems.length > 0) {
      throw new Error(`Response to ${method} ${url} breaks the contract:\n  ${problems.join('\n  ')}`);
    }
    return response;
  }

  get(path: string, options?: CallOptions): Promise<ApiResponse> {
    return this.call('GET', path, options);
  }

  post(path: string, options?: CallOptions): Promise<ApiResponse> {
    return this.call('POST', path, options);
  }

  patch(path: string, options?: CallOptions): Promise<ApiResponse> {
    return this.call('PATCH', path, options);
  }

  delete(path: string, options?: CallOptions): Promise<ApiResponse> {
    return this.call('DELETE', path, options);
  }

  /** GET /metrics of this app's metrics server (started on a free port at the first call), as Prometheus scrapes it. */
  async metrics(): Promise<{ status: number; contentType: string | null; text: string }> {
    this.metricsPort ??= (await this.app.get(MetricsServer).listen(0)).port;
    const res = await fetch(`http://127.0.0.1:${this.metricsPort}/metrics`);
    return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
  }

  async close(): Promise<void> {
    await this.app.close();
  }
}
