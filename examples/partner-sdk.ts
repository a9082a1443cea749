/**
 * A partner's server talking to the Business Scheduling API through the partner SDK (libs/sdk,
 * the package `@scheduling/sdk`): every method, parameter, body and answer typed by the contract
 * it was generated from, problems thrown as SchedulingApiError with their code, writes sent with
 * an Idempotency-Key and retried safely. In your own project install the packed SDK (README, "The
 * partner SDK") and import from '@scheduling/sdk' instead of '#sdk/index.js'. Try it against
 * `npm start`:
 *
 *   API_URL=http://localhost:3000 API_KEY=rk_live_... npm run example:partner
 */
import { pathToFileURL } from 'node:url';
import { SchedulingClient, isSchedulingApiError, type Schemas } from '#sdk/index.js';

/** One client per key (live `rk_live_…` or test `rk_test_…`); server-side only. */
export function createSdk(apiUrl: string, apiKey: string): SchedulingClient {
  return new SchedulingClient({ baseUrl: apiUrl, apiKey, userAgent: 'example-partner/1.0' });
}

/** Books the first free start of a service in [from, to) with whoever is free; null when none is. */
export async function bookFirstFreeStart(
  sdk: SchedulingClient,
  serviceId: string,
  clientId: string,
  range: { from: string; to: string },
): Promise<Schemas['Appointment'] | null> {
  const free = await sdk.availability.get({ serviceId, ...range });
  for (const start of free.data) {
    try {
      return await sdk.appointments.create({ serviceId, startAt: start.startAt, client: { id: clientId } });
    } catch (error) {
      // Someone else took it meanwhile: the next start may still be free.
      if (isSchedulingApiError(error, 'SLOT_TAKEN')) continue;
      throw error;
    }
  }
  return null;
}

/** Creates a client, or on 409 CLIENT_EXISTS finds the one with that phone or e-mail. */
export async function findOrCreateClient(sdk: SchedulingClient, client: Schemas['CreateClientRequest']): Promise<Schemas['Client']> {
  try {
    return await sdk.clients.create(client);
  } catch (error) {
    if (!isSchedulingApiError(error, 'CLIENT_EXISTS')) throw error;
    const existing =
      (await sdk.clients.find({ phone: client.phone })) ?? (client.email ? await sdk.clients.find({ email: client.email }) : null);
    if (existing === null) throw error;
    return existing;
  }
}

/** Every appointment starting in [from, to): the SDK follows `nextCursor` page after page. */
export async function appointmentsBetween(sdk: SchedulingClient, from: Date, to: Date): Promise<Schemas['Appointment'][]> {
  const appointments: Schemas['Appointment'][] = [];
  for await (const appointment of sdk.appointments.list({ from: from.toISOString(), to: to.toISOString(), limit: 100 })) {
    appointments.push(appointment);
  }
  return appointments;
}

async function main(): Promise<void> {
  const { API_URL = 'http://localhost:3000', API_KEY } = process.env;
  if (!API_KEY) throw new Error('Set API_KEY to a key (npm start prints a demo key)');
  const sdk = createSdk(API_URL, API_KEY);
  const me = await sdk.me();
  console.log(`${me.business.name} (${me.business.slug}), key ${me.key.prefix}…`);
  for await (const service of sdk.services.list()) {
    console.log(`  ${service.name}: ${service.durationMin} min, ${(service.price.cents / 100).toFixed(2)} ${service.price.currency}`);
  }
  const now = new Date();
  const week = await appointmentsBetween(sdk, now, new Date(now.getTime() + 7 * 24 * 3_600_000));
  console.log(`${week.length} appointment(s) in the next 7 days`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
