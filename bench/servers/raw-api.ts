// Baselines of S2 and S4: node:http with pg and ioredis, no framework. GET /appointments/{id}
// does what ours must do for it, with the same SQL and Lua: the key lookup (well-formedness,
// HMAC, the SELECT join), the rate-limit script, the appointment query. POST /appointments is a
// bare INSERT into the same table (same columns, same constraints), one statement. Named (prepared)
// statements, as the API's hot statements are: PostgreSQL plans each once per connection.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Redis } from 'ioredis';
import pg from 'pg';
import { hashApiKey, isWellFormedApiKey } from '#core/api-keys/api-key-format.js';
import { generateAppointmentCode } from '#core/appointments/appointment-code.js';
import { rateLimitHeaders } from '#core/rate-limit/rate-limit-headers.js';
import { API_RATE_LIMIT_POLICY } from '#core/rate-limit/rate-limit.types.js';
import { FIND_ACTIVE_BY_HASH } from '#core/api-keys/api-keys.repository.js';
import { FIND_BY_ID } from '#core/appointments/appointment-reads.repository.js';
import { SLIDING_WINDOW_LUA } from '#core/rate-limit/sliding-window.lua.js';
import { newId } from '#database/new-id.js';

const { API_KEY_PEPPER, DATABASE_URL, REDIS_URL, RATE_LIMIT_PREFIX, PORT } = process.env as Record<string, string>;

// The API's pool size (data-source-options: max 10).
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
const redis = new Redis(REDIS_URL);
const scriptSha = (await redis.script('LOAD', SLIDING_WINDOW_LUA)) as string;
const memberPrefix = randomUUID();
let sequence = 0;

// GET /appointments/{id} runs the API's own statements, FIND_ACTIVE_BY_HASH (the key's last use
// included) and FIND_BY_ID, imported rather than copied: a copy had fallen behind them by 1.4.0's
// columns and the last use (docs/performance.md, "S2's floor runs the API's statements").
const INSERT = `
INSERT INTO appointments (id, business_id, staff_id, service_id, service_name, client_id, status, starts_at, ends_at,
                          duration_min, price_cents, currency, source, code, created_at, updated_at)
SELECT $1, v.business_id, $2, v.id, v.name, $3, 'CONFIRMED', $4::timestamptz,
       $4::timestamptz + v.duration_min * interval '1 minute', v.duration_min, v.price_cents, b.currency, 'api', $5, now(), now()
  FROM services v JOIN businesses b ON b.id = v.business_id
 WHERE v.id = $6
RETURNING id, status, starts_at, ends_at, duration_min, service_id, service_name, price_cents, currency, staff_id, client_id,
          source, created_at, updated_at`;

type Row = Record<string, unknown>;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function appointmentJson(row: Row): Row {
  const iso = (value: unknown) => (value as Date).toISOString();
  return {
    id: row.id,
    status: row.status,
    scheduledAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    durationMin: row.duration_min,
    service: { id: row.service_id, name: row.service_name },
    price: { cents: row.price_cents, currency: row.currency },
    staff: { id: row.staff_id, name: row.staff_name ?? null },
    client: { id: row.client_id, name: row.client_name ?? null },
    source: row.source,
    locationId: row.location_id ?? null,
    rescheduledFromId: row.rescheduled_from_id ?? null,
    rescheduledToId: row.rescheduled_to_id ?? null,
    metadata: row.metadata,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

async function getAppointment(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
  const key = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (!key || !isWellFormedApiKey(key)) return send(res, 401, { code: 'API_KEY_INVALID' });
  const { rows: keys } = await pool.query<Row>({
    name: FIND_ACTIVE_BY_HASH.name,
    text: FIND_ACTIVE_BY_HASH.text,
    values: [hashApiKey(API_KEY_PEPPER, key)],
  });
  const found = keys[0];
  if (!found) return send(res, 401, { code: 'API_KEY_INVALID' });
  const member = `${memberPrefix}:${++sequence}`;
  const [allowed, remaining, resetMs] = (await redis.evalsha(
    scriptSha,
    1,
    `${RATE_LIMIT_PREFIX}${String(found.key_id)}`,
    API_RATE_LIMIT_POLICY.limit,
    API_RATE_LIMIT_POLICY.windowSeconds * 1000,
    member,
  )) as [number, number, number];
  const decision = {
    allowed: allowed === 1,
    limit: API_RATE_LIMIT_POLICY.limit,
    remaining,
    resetSeconds: resetMs / 1000,
    retryAfterSeconds: allowed === 1 ? null : resetMs / 1000,
  };
  const headers = rateLimitHeaders(decision, API_RATE_LIMIT_POLICY);
  if (!decision.allowed) return send(res, 429, { code: 'API_RATE_LIMIT' }, headers);
  const { rows } = await pool.query<Row>({ name: FIND_BY_ID.name, text: FIND_BY_ID.text, values: [found.business_id, id] });
  if (rows.length === 0) return send(res, 404, { code: 'NOT_FOUND' }, headers);
  send(res, 200, appointmentJson(rows[0]), headers);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function insertAppointment(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = JSON.parse(await readBody(req)) as { staffId: string; serviceId: string; startAt: string; client: { id: string } };
  try {
    const values = [newId(), body.staffId, body.client.id, body.startAt, generateAppointmentCode(), body.serviceId];
    const { rows } = await pool.query<Row>({ name: 'insert', text: INSERT, values });
    send(res, 201, appointmentJson(rows[0]));
  } catch (error) {
    if ((error as { constraint?: string }).constraint === 'appointments_no_overlap') return send(res, 409, { code: 'SLOT_TAKEN' });
    throw error;
  }
}

const APPOINTMENT_PATH = /^\/v1\/api\/appointments\/([0-9a-f-]{36})$/;

createServer((req, res) => {
  const byId = APPOINTMENT_PATH.exec(req.url ?? '');
  const handled =
    req.method === 'GET' && byId
      ? getAppointment(req, res, byId[1])
      : req.method === 'POST' && req.url === '/v1/api/appointments'
        ? insertAppointment(req, res)
        : Promise.resolve(send(res, 404, { code: 'NOT_FOUND' }));
  handled.catch((error: unknown) => {
    console.error(error);
    send(res, 500, { code: 'INTERNAL' });
  });
}).listen(Number(PORT), '127.0.0.1');
