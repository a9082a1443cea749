import pg from 'pg';
import { CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '#core/api-keys/api-key-format.js';
import { SCOPES } from '#core/scopes/scope.js';
import { newId } from '#database/new-id.js';
import { BENCH_SECRETS } from '../settings.js';

/** Keys of the big business (S3 reads only its list, so it needs enough keys of its own). */
const BIG_BUSINESS_KEYS = 2000;
/** Keys of the other 99 businesses together. */
const OTHER_KEYS = 3000;
/** Keys of the availability business (S7): each arm round sends a few thousand requests, 120 per key a minute. */
const AVAILABILITY_KEYS = 1000;
/** Appointments per business that the point reads (S2) pick from. */
const APPOINTMENTS_PER_BUSINESS = 60;

export interface BenchKey {
  key: string;
  businessId: string;
}

export interface BusinessData {
  id: string;
  slug: string;
  /** Active staff, all working 00:00–24:00 every day. */
  staffIds: string[];
  /** The 30-minute service every staff member performs. */
  serviceId: string;
  /** A client of the business, for bookings. */
  clientId: string;
  appointmentIds: string[];
}

/** What the scenarios need to build requests: real keys, and ids that exist. */
export interface Catalogue {
  /** The business with 200,000 appointments. */
  big: BusinessData;
  businesses: BusinessData[];
  /** Every throughput key (5,000), in an order that alternates businesses. */
  keys: BenchKey[];
  /** The big business's keys, for its list (S3). */
  bigKeys: BenchKey[];
  /** Keys used by nothing else: the rate-limit flood (S5) and the booking race (S4). */
  floodKey: BenchKey;
  raceKey: BenchKey;
  /** The availability business (S7): 200,000 appointments on 20 staff with a salon's hours. */
  availability: { id: string; serviceId: string; keys: BenchKey[] };
}

/**
 * Creates real API keys with the project's own key code (generateApiKey, hashed with the bench
 * API's pepper) in bench_run, and reads the ids the requests will name.
 */
export async function prepareCatalogue(runUrl: string): Promise<Catalogue> {
  const client = new pg.Client({ connectionString: runUrl });
  await client.connect();
  try {
    const businesses = await readBusinesses(client);
    const [big, ...others] = businesses;
    const availabilityBusiness = await readAvailabilityBusiness(client);
    const owners = new Map(
      (await client.query<{ business_id: string; id: string }>(`SELECT business_id, id FROM members WHERE role = 'OWNER'`)).rows.map(
        (row) => [row.business_id, row.id],
      ),
    );
    const made: BenchKey[] = [];
    const add = (business: { id: string }): BenchKey => {
      const key = { key: generateApiKey(), businessId: business.id };
      made.push(key);
      return key;
    };
    const bigKeys = Array.from({ length: BIG_BUSINESS_KEYS }, () => add(big));
    const otherKeys = Array.from({ length: OTHER_KEYS }, (_, i) => add(others[i % others.length]));
    const floodKey = add(others[0]);
    const raceKey = add(others[1]);
    const availabilityKeys = Array.from({ length: AVAILABILITY_KEYS }, () => add(availabilityBusiness));
    await client.query(
      // Pinned to the current version, as a key made by `admin key create` is (docs/design-record.md#d22).
      `INSERT INTO api_keys (id, business_id, member_id, name, prefix, key_hash, scopes, api_version)
       SELECT id, business_id, member_id, 'Bench key', prefix, key_hash, $6::text[], $7
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[]) AS k(id, business_id, member_id, prefix, key_hash)`,
      [
        made.map(() => newId()),
        made.map((k) => k.businessId),
        made.map((k) => owners.get(k.businessId)),
        made.map((k) => apiKeyDisplayPrefix(k.key)),
        made.map((k) => hashApiKey(BENCH_SECRETS.API_KEY_PEPPER, k.key)),
        SCOPES,
        CURRENT_API_VERSION,
      ],
    );
    // Interleaved, so consecutive requests come from different keys and businesses.
    const keys = interleave(bigKeys, otherKeys);
    return {
      big,
      businesses,
      keys,
      bigKeys,
      floodKey,
      raceKey,
      availability: { id: availabilityBusiness.id, serviceId: availabilityBusiness.serviceId, keys: availabilityKeys },
    };
  } finally {
    await client.end();
  }
}

async function readBusinesses(client: pg.Client): Promise<BusinessData[]> {
  const { rows } = await client.query<{
    id: string;
    slug: string;
    staff_ids: string[];
    service_id: string;
    client_id: string;
    appointment_ids: string[];
  }>(
    `SELECT b.id, b.slug,
            (SELECT array_agg(s.id ORDER BY s.name) FROM staff s WHERE s.business_id = b.id) AS staff_ids,
            (SELECT v.id FROM services v WHERE v.business_id = b.id AND v.duration_min = 30 ORDER BY v.name LIMIT 1) AS service_id,
            (SELECT c.id FROM clients c WHERE c.business_id = b.id ORDER BY c.id LIMIT 1) AS client_id,
            (SELECT array_agg(a.id) FROM (SELECT id FROM appointments a WHERE a.business_id = b.id ORDER BY a.id LIMIT $1) a)
              AS appointment_ids
       FROM businesses b WHERE b.slug <> $2 ORDER BY b.slug`,
    [APPOINTMENTS_PER_BUSINESS, AVAILABILITY_SLUG],
  );
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    staffIds: row.staff_ids,
    serviceId: row.service_id,
    clientId: row.client_id,
    appointmentIds: row.appointment_ids,
  }));
}

/** The business of S7 (bench/data/generate.sql), kept out of the others: its staff work a salon's hours, not all day. */
const AVAILABILITY_SLUG = 'bench-availability';

async function readAvailabilityBusiness(client: pg.Client): Promise<{ id: string; serviceId: string }> {
  const { rows } = await client.query<{ id: string; service_id: string }>(
    `SELECT b.id, (SELECT v.id FROM services v WHERE v.business_id = b.id AND v.duration_min = 30) AS service_id
       FROM businesses b WHERE b.slug = $1`,
    [AVAILABILITY_SLUG],
  );
  if (!rows[0]?.service_id) throw new Error(`The bench data has no ${AVAILABILITY_SLUG} business with a 30-minute service: rebuild it.`);
  return { id: rows[0].id, serviceId: rows[0].service_id };
}

function interleave<T>(a: T[], b: T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length) out.push(a[i]);
    if (i < b.length) out.push(b[i]);
  }
  return out;
}

/** An endless rotation over a list: each call gives the next element. */
export function rotation<T>(items: readonly T[]): () => T {
  let next = 0;
  return () => {
    const item = items[next];
    next = (next + 1) % items.length;
    return item;
  };
}
