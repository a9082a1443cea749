import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jest } from '@jest/globals';
import { API_VERSIONS } from '#contract/versions/api-versions.js';
import { REPO_ROOT } from '../utils/child-process.js';

/**
 * libs/sdk is a package of its own: built, packed with `npm pack`, installed into an empty folder
 * with its two dependencies from the registry, and used there by a TypeScript file that sees no
 * file of this repository.
 */
jest.setTimeout(300_000);

const run = promisify(execFile);
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
let consumer: string;

const CONSUMER = `import {
  SchedulingClient,
  SchedulingApiError,
  isSchedulingApiError,
  verifyNotice,
  type Schemas,
  type SchedulingNotice,
  type ResponseHeaders,
  OAuthTokenSource,
  OAuthGrantEndedError,
  type OAuthTokens,
} from '@scheduling/sdk';

const sdk = new SchedulingClient({ baseUrl: 'https://api.example', apiKey: 'rk_test_x', maxRetries: 2, userAgent: 'consumer/1' });

export async function nextWeek(serviceId: string, clientId: string): Promise<Schemas['Appointment'] | null> {
  const free = await sdk.availability.get({ serviceId, from: '2030-01-07T00:00:00Z', to: '2030-01-14T00:00:00Z' });
  const first = free.data[0];
  if (first === undefined) return null;
  try {
    return await sdk.appointments.create({ serviceId, startAt: first.startAt, client: { id: clientId } });
  } catch (error) {
    if (isSchedulingApiError(error, 'SLOT_TAKEN', 'SLOT_UNAVAILABLE')) {
      const code: 'SLOT_TAKEN' | 'SLOT_UNAVAILABLE' = error.code;
      console.log(code, error.requestId, error.status);
      return null;
    }
    throw error;
  }
}

export async function everyId(): Promise<string[]> {
  const ids: string[] = [];
  for await (const appointment of sdk.appointments.list({ from: '2030-01-01T00:00:00Z', to: '2030-02-01T00:00:00Z', limit: 100 })) {
    ids.push(appointment.id);
  }
  const existing = await sdk.clients.find({ phone: '+351 912 345 678' });
  if (existing !== null) ids.push(existing.id);
  return ids;
}

export function onNotice(body: string, headers: Record<string, string>): SchedulingNotice['type'] {
  return verifyNotice(body, headers, ['whsec_new', 'whsec_old']).type;
}

export const isApiError = (error: unknown): boolean => error instanceof SchedulingApiError;

export function connected(saved: OAuthTokens, save: (tokens: OAuthTokens) => Promise<void>): SchedulingClient {
  const auth = new OAuthTokenSource({
    baseUrl: 'https://api.example',
    clientId: 'app_1',
    clientSecret: 'secret',
    clientAuthentication: 'client_secret_post',
    refreshToken: saved.refreshToken,
    accessToken: saved.accessToken,
    expiresAt: saved.expiresAt,
    onTokens: save,
  });
  return new SchedulingClient({ baseUrl: 'https://api.example', auth });
}

export const mustReconnect = (error: unknown): boolean => error instanceof OAuthGrantEndedError && error.error === 'invalid_grant';

export async function bookOrReuse(serviceId: string, startAt: string, phone: string): Promise<string | null> {
  try {
    const { data, headers }: { data: Schemas['Appointment']; headers: ResponseHeaders } = await sdk.appointments
      .create({ serviceId, startAt, client: { name: 'Ana', phone } })
      .withResponse();
    const replayed: boolean = headers.idempotentReplayed;
    console.log(data.id, replayed, headers.apiVersion, headers.rateLimit?.remaining);
    return headers.location;
  } catch (error) {
    if (isSchedulingApiError(error, 'CLIENT_EXISTS') && error.clientId !== null) {
      return (await sdk.appointments.create({ serviceId, startAt, client: { id: error.clientId } })).id;
    }
    throw error;
  }
}
`;

// Wrong on purpose: the SDK's types must refuse it (a startAt that is a number, a missing reason).
const WRONG = `import { SchedulingClient, OAuthTokenSource } from '@scheduling/sdk';
const sdk = new SchedulingClient({ baseUrl: 'https://api.example', apiKey: 'k' });
await sdk.appointments.create({ serviceId: 's', startAt: 1, client: { id: 'c' } });
await sdk.appointments.cancel('a', {});
new SchedulingClient({ baseUrl: 'https://api.example', apiKey: 'k', auth: new OAuthTokenSource({ baseUrl: 'https://api.example', clientId: 'c', refreshToken: 'r' }) });
`;

beforeAll(async () => {
  await run(process.execPath, [TSC, '-p', 'libs/sdk/tsconfig.json'], { cwd: REPO_ROOT });
  consumer = mkdtempSync(join(tmpdir(), 'sdk-consumer-'));
  await run('npm', ['pack', './libs/sdk', '--ignore-scripts', '--pack-destination', consumer], { cwd: REPO_ROOT });
  const tarball = readdirSync(consumer).find((file) => file.endsWith('.tgz'))!;
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        types: [],
      },
      files: ['consumer.ts'],
    }),
  );
  writeFileSync(join(consumer, 'consumer.ts'), CONSUMER);
  await run('npm', ['install', `./${tarball}`, '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: consumer });
});

afterAll(() => {
  if (consumer) rmSync(consumer, { recursive: true, force: true });
});

describe('the packed SDK (@scheduling/sdk)', () => {
  it('installs with only openapi-fetch and standardwebhooks', async () => {
    const { stdout } = await run('npm', ['ls', '--all', '--json'], { cwd: consumer });
    const tree = JSON.parse(stdout) as { dependencies: Record<string, { version: string; dependencies?: Record<string, unknown> }> };
    expect(tree.dependencies['@scheduling/sdk'].version).toBe('1.5.0');
    expect(Object.keys(tree.dependencies['@scheduling/sdk'].dependencies ?? {}).sort()).toEqual(['openapi-fetch', 'standardwebhooks']);
  });

  it('type-checks a consumer with no file of this repository (and no Node types)', async () => {
    const checked = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: consumer }).catch(
      (error: unknown) => error as { stdout: string },
    );
    expect(checked.stdout).toBe('');
  });

  it('refuses a consumer that breaks the contract’s types', async () => {
    writeFileSync(join(consumer, 'wrong.ts'), WRONG);
    writeFileSync(join(consumer, 'tsconfig.wrong.json'), JSON.stringify({ extends: './tsconfig.json', files: ['wrong.ts'] }));
    const failed = await run(process.execPath, [TSC, '-p', 'tsconfig.wrong.json'], {
      cwd: consumer,
    }).catch((error: unknown) => error as { stdout: string });
    expect(failed).toHaveProperty('stdout');
    const { stdout } = failed;
    expect(stdout).toMatch(/wrong\.ts\(3,49\): error TS2322: Type 'number' is not assignable to type 'string'/);
    expect(stdout).toMatch(/wrong\.ts\(4,\d+\).*reason/s);
    // An API key and an OAuth grant at once.
    expect(stdout).toMatch(/wrong\.ts\(5,\d+\): error/);
  });

  it('loads as an ES module at run time', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('@scheduling/sdk'); console.log(m.apiBaseUrl('https://api.example'), m.OPERATION_IDS.length, m.CONTRACT_VERSION);",
      ],
      { cwd: consumer },
    );
    expect(stdout.trim()).toMatch(/^https:\/\/api\.example\/v1\/api \d+ 1\.5\.0$/);
  });

  it('ships the answers’ JSON Schemas of every published version, importable by a strict client', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `for (const version of ${JSON.stringify(API_VERSIONS)}) {
           const { default: answers } = await import('@scheduling/sdk/schemas/v' + version + '.json', { with: { type: 'json' } });
           console.log(version, answers.title, typeof answers.$defs['getMe.200']);
         }`,
      ],
      { cwd: consumer },
    );
    expect(stdout.trim().split('\n')).toEqual(
      API_VERSIONS.map((version) => `${version} Answers of the Business Scheduling API ${version} object`),
    );
  });
});
