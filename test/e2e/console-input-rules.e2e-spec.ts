import { randomUUID } from 'node:crypto';
import type { RequestBody } from '#contract/contract-types.js';
import { ApiKeysService } from '#core/api-keys/api-keys.service.js';
import { DomainError } from '#core/errors/domain-error.js';
import { ConsoleClient } from '../utils/console-client.js';
import { E2eApi } from '../utils/e2e-api.js';
import { seed, type SeededBusiness } from '../utils/seed.js';
import { testConfig } from '../utils/test-config.js';

/**
 * The console refuses what the API refuses, with the API's own words (docs/design-record.md#d29:
 * one set of input rules, never a copy). Each input is sent to the API with a key and typed into the
 * console's form; both refuse it, and the message the console shows beside the field is the one
 * the API's problem gives for that field (`errors[].message` at its path, or the `detail` of a
 * refusal about the address, which names no path). Keys have no API operation: their rules are the
 * service's, the one `admin key create` and the console both call.
 */
let api: E2eApi;
// Production's address rules (https only, public addresses): the console must not be laxer than them.
const config = testConfig({ WEBHOOKS_ALLOW_PRIVATE: 'false' });

beforeAll(async () => {
  api = await E2eApi.start(config);
});
afterAll(async () => {
  await api.close();
});

interface Salon extends SeededBusiness {
  owner: string;
  /** Every scope, webhooks.manage included. */
  key: string;
}

async function salon(): Promise<Salon> {
  const business = await seed({ plan: 'SOLO' });
  return { ...business, owner: business.ownerEmail!, key: business.keys.owner.key };
}

/** The text of the message beside the field `id` of a console page (`<p class="field-error" id="<id>-error">`). */
function fieldMessage(page: string, id: string): string | undefined {
  const found = new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(page)?.[1];
  return found === undefined ? undefined : decodeEntities(found);
}

const decodeEntities = (text: string): string =>
  text.replace(/&(#x?[0-9a-f]+|quot|amp|lt|gt|#39);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return ({ quot: '"', amp: '&', lt: '<', gt: '>' } as Record<string, string>)[name.toLowerCase()] ?? whole;
  });

type NewEndpoint = RequestBody<'createWebhookEndpoint'>;

/** What the API says about a refused endpoint input at `path`: its `errors[]` there, or a path-less refusal's detail. */
function apiMessage(body: { code: string; detail: string; errors?: { path: string; message: string }[] }, path: string): string {
  const atPath = (body.errors ?? []).filter((error) => error.path === path || error.path.startsWith(`${path}/`)).map((e) => e.message);
  return atPath.length > 0 ? atPath.join(' ') : body.detail;
}

/** A write's Idempotency-Key, new each time. */
const once = () => ({ 'Idempotency-Key': randomUUID() });

const VALID: NewEndpoint = { url: 'https://hooks.example.com/notices', events: ['appointment.created'], description: 'Zapier' };

/** An input of the register form the API refuses, and the field it is about. */
const ENDPOINT_CASES: { name: string; body: NewEndpoint; field: 'url' | 'description' | 'events' | 'apiVersion'; code: string }[] = [
  {
    name: 'a description with a control character',
    body: { ...VALID, description: 'Zapier\u0007bell' },
    field: 'description',
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'a description with a tab pasted in',
    body: { ...VALID, description: 'Zapier\tsales' },
    field: 'description',
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'a description of 201 characters',
    body: { ...VALID, description: 'd'.repeat(201) },
    field: 'description',
    code: 'VALIDATION_FAILED',
  },
  { name: 'an http address', body: { ...VALID, url: 'http://hooks.example.com/notices' }, field: 'url', code: 'WEBHOOK_URL_REFUSED' },
  {
    name: 'an address with credentials',
    body: { ...VALID, url: 'https://user:secret@hooks.example.com/notices' },
    field: 'url',
    code: 'WEBHOOK_URL_REFUSED',
  },
  { name: 'an address that is not a URI', body: { ...VALID, url: 'hooks example com' }, field: 'url', code: 'VALIDATION_FAILED' },
  { name: 'no events', body: { ...VALID, events: [] }, field: 'events', code: 'VALIDATION_FAILED' },
  {
    name: 'an unknown event',
    body: { ...VALID, events: ['appointment.exploded'] as unknown as NewEndpoint['events'] },
    field: 'events',
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'an unknown API version',
    body: { ...VALID, apiVersion: '9.9.9' as NewEndpoint['apiVersion'] },
    field: 'apiVersion',
    code: 'VALIDATION_FAILED',
  },
];

/** The register form's fields for the same input, as a browser posts them. */
const formOf = (body: NewEndpoint): Record<string, string | string[]> => ({
  url: body.url,
  description: body.description ?? '',
  events: [...body.events],
  apiVersion: body.apiVersion ?? '1.4.0',
});

const FIELD_IDS = {
  url: 'endpoint-url',
  description: 'endpoint-description',
  events: 'endpoint-events',
  apiVersion: 'endpoint-version',
} as const;

describe('the console refuses an endpoint input the API refuses, with the same message', () => {
  let s: Salon;
  let member: ConsoleClient;
  beforeAll(async () => {
    s = await salon();
    member = await ConsoleClient.signIn(api.app, s.slug, s.owner);
  });

  it.each(ENDPOINT_CASES)('$name: refused by both, the message beside the field being the API’s', async ({ body, field, code }) => {
    const answer = await api.post('/webhook-endpoints', { key: s.key, body, headers: once() });
    expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 400, code });
    const expected = apiMessage(answer.body, `/${field}`);

    const page = `/console/b/${s.slug}/webhooks`;
    const posted = await member.post(page, page, formOf(body));
    expect({ status: posted.status, location: posted.location }).toEqual({ status: 303, location: `${page}#register-endpoint` });
    expect(fieldMessage(posted.text, FIELD_IDS[field])).toBe(expected);
    // What was typed is shown again.
    if (field === 'url' || field === 'description') expect(posted.text).toContain(`value="${escapeAttribute(String(body[field]))}"`);

    // Neither made an endpoint.
    expect((await api.get('/webhook-endpoints', { key: s.key })).body.data).toEqual([]);
  });

  it.each(ENDPOINT_CASES.filter((c) => c.field !== 'apiVersion'))(
    '$name: the edit form refuses it as PATCH does',
    async ({ body, field, code }) => {
      const made = await api.post('/webhook-endpoints', {
        key: s.key,
        body: { ...VALID, url: `https://hooks.example.com/${randomUUID()}` },
        headers: once(),
      });
      expect(made.status).toBe(201);
      const { id } = made.body as { id: string };
      const patch = { url: body.url, events: body.events, description: body.description } satisfies RequestBody<'updateWebhookEndpoint'>;
      const answer = await api.patch(`/webhook-endpoints/${id}`, { key: s.key, body: patch, headers: once() });
      expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 400, code });

      const page = `/console/b/${s.slug}/webhooks/${id}/edit`;
      const posted = await member.post(page, page, { url: body.url, description: body.description ?? '', events: [...body.events] });
      expect({ status: posted.status, location: posted.location }).toEqual({ status: 303, location: `${page}#edit-endpoint` });
      expect(fieldMessage(posted.text, FIELD_IDS[field])).toBe(apiMessage(answer.body, `/${field}`));

      // Unchanged.
      const after = await api.get(`/webhook-endpoints/${id}`, { key: s.key });
      expect({ url: after.body.url, description: after.body.description }).toEqual({ url: made.body.url, description: 'Zapier' });
      expect((await api.delete(`/webhook-endpoints/${id}`, { key: s.key })).status).toBe(204);
    },
  );
});

const escapeAttribute = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;');

describe('the console refuses a key input the key rules refuse, with the same message', () => {
  const KEY_CASES: {
    name: string;
    input: { name: string; scopes: string[]; apiVersion: string };
    field: 'name' | 'scopes' | 'apiVersion';
  }[] = [
    { name: 'a key without scopes', input: { name: 'Website', scopes: [], apiVersion: '1.4.0' }, field: 'scopes' },
    {
      name: 'a key name with a control character',
      input: { name: 'Web\u0007site', scopes: ['services.read'], apiVersion: '1.4.0' },
      field: 'name',
    },
    { name: 'a key name with a tab', input: { name: 'Web\tsite', scopes: ['services.read'], apiVersion: '1.4.0' }, field: 'name' },
    { name: 'a key name of spaces only', input: { name: '   ', scopes: ['services.read'], apiVersion: '1.4.0' }, field: 'name' },
    { name: 'an unknown API version', input: { name: 'Website', scopes: ['services.read'], apiVersion: '9.9.9' }, field: 'apiVersion' },
    { name: 'an unknown scope', input: { name: 'Website', scopes: ['services.burn'], apiVersion: '1.4.0' }, field: 'scopes' },
  ];
  const KEY_FIELD_IDS = { name: 'key-name', scopes: 'key-scopes', apiVersion: 'key-version' } as const;

  let s: Salon;
  let member: ConsoleClient;
  beforeAll(async () => {
    s = await salon();
    member = await ConsoleClient.signIn(api.app, s.slug, s.owner);
  });

  it.each(KEY_CASES)('$name: refused by both, the message beside the field being the rule’s', async ({ input, field }) => {
    const refusal = await api.app
      .get(ApiKeysService)
      .create({ businessSlug: s.slug, memberEmail: s.owner, ...input })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refusal).toBeInstanceOf(DomainError);
    const expected = (refusal as DomainError).fieldErrors
      .filter((e) => e.path === `/${field}`)
      .map((e) => e.message)
      .join(' ');
    expect(expected).not.toBe('');

    const page = `/console/b/${s.slug}/keys`;
    const before = (await api.app.get(ApiKeysService).list(s.slug)).keys.length;
    const posted = await member.post(page, page, { ...input, mode: 'live' });
    expect({ status: posted.status, location: posted.location }).toEqual({ status: 303, location: `${page}#create-key` });
    expect(fieldMessage(posted.text, KEY_FIELD_IDS[field])).toBe(expected);
    if (field === 'name') expect(posted.text).toContain(`value="${escapeAttribute(input.name)}"`);
    expect((await api.app.get(ApiKeysService).list(s.slug)).keys).toHaveLength(before);
  });
});
