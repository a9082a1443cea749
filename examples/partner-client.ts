/**
 * A partner's server talking to the Business Scheduling API with openapi-fetch, every path,
 * parameter, body and answer typed by the types generated from the contract. In your own project:
 *
 *   npm install openapi-fetch && npm install -D openapi-typescript
 *   npx openapi-typescript https://<the API's host>/v1/api/openapi.json -o scheduling-api.ts
 *
 * and import `paths` from './scheduling-api.js'. Try it against `npm start`:
 *
 *   API_URL=http://localhost:3000 API_KEY=rk_live_... node examples/partner-client.ts
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '#contract/generated/openapi.js';

export type SchedulingClient = Client<paths>;
type Schemas = components['schemas'];

/** A client for one business's key; keys are sent as `Authorization: Bearer`. Server-side only. */
export function createSchedulingClient(apiUrl: string, key: string): SchedulingClient {
  return createClient<paths>({ baseUrl: new URL('/v1/api', apiUrl).href, headers: { Authorization: `Bearer ${key}` } });
}

/** An answer that is not 2xx: the API's problem details (RFC 9457), with a stable `code`. */
export class SchedulingApiError extends Error {
  readonly problem: Schemas['Problem'];

  constructor(problem: Schemas['Problem']) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = 'SchedulingApiError';
    this.problem = problem;
  }
}

/** Returns the data of a 2xx, or throws the problem; openapi-fetch types both from the contract. */
function unwrap<T>(result: { data?: T; error?: Schemas['Problem'] }): T {
  if (result.error !== undefined) throw new SchedulingApiError(result.error);
  if (result.data === undefined) throw new Error('The API answered without a body');
  return result.data;
}

/** Every appointment starting in [from, to), following `nextCursor` with the same filters. */
export async function listAppointments(client: SchedulingClient, from: Date, to: Date): Promise<Schemas['Appointment'][]> {
  const appointments: Schemas['Appointment'][] = [];
  let cursor: string | undefined;
  do {
    const page = unwrap(
      await client.GET('/appointments', { params: { query: { from: from.toISOString(), to: to.toISOString(), limit: 100, cursor } } }),
    );
    appointments.push(...page.data);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return appointments;
}

/**
 * Creates a client. The Idempotency-Key makes a retry after a timeout safe: the same key answers
 * the first result again instead of creating a second client. Keep it with the operation you retry.
 */
export async function createClientRecord(
  client: SchedulingClient,
  body: Schemas['CreateClientRequest'],
  idempotencyKey: string = randomUUID(),
): Promise<Schemas['Client']> {
  return unwrap(await client.POST('/clients', { params: { header: { 'Idempotency-Key': idempotencyKey } }, body }));
}

/** Books an appointment; a slot taken meanwhile is a SchedulingApiError with code SLOT_TAKEN. */
export async function bookAppointment(
  client: SchedulingClient,
  body: Schemas['CreateAppointmentRequest'],
  idempotencyKey: string = randomUUID(),
): Promise<Schemas['Appointment']> {
  return unwrap(await client.POST('/appointments', { params: { header: { 'Idempotency-Key': idempotencyKey } }, body }));
}

async function main(): Promise<void> {
  const { API_URL = 'http://localhost:3000', API_KEY } = process.env;
  if (!API_KEY) throw new Error('Set API_KEY to a key (npm start prints a demo key)');
  const client = createSchedulingClient(API_URL, API_KEY);
  const me = unwrap(await client.GET('/me'));
  console.log(`${me.business.name} (${me.business.slug}), key ${me.key.prefix}…`);
  const services = unwrap(await client.GET('/services'));
  for (const service of services.data) {
    console.log(`  ${service.name}: ${service.durationMin} min, ${(service.price.cents / 100).toFixed(2)} ${service.price.currency}`);
  }
  const now = new Date();
  const week = await listAppointments(client, now, new Date(now.getTime() + 7 * 24 * 3_600_000));
  console.log(`${week.length} appointment(s) in the next 7 days`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
