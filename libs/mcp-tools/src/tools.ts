import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { OPERATIONS, type OperationId, type Scope } from '#contract/generated/operations.js';
import type { QueryOf, SchedulingClient, Schemas, WithResponse, WriteOptions } from '#sdk/index.js';
import type { ContractSchemas, JsonSchema } from './contract-schemas.js';
import { instantWithLocal, intervalWithLocal } from './local-time.js';

/** What a tool gives back: a short text for the model, and the API's object as structured content. */
export interface ToolOutput {
  text: string;
  structured: Record<string, unknown>;
}

/** What a tool runs with: the SDK client of the caller, and the business's time zone when it can be read. */
export interface ToolContext {
  sdk: SchedulingClient;
  signal: AbortSignal;
  /** The business's IANA time zone (GET /me), read once per server; null when it could not be read. */
  timeZone(): Promise<string | null>;
}

export interface SchedulingTool {
  name: string;
  title: string;
  description: string;
  /** The contract operation the tool calls: its scope is the scope the tool needs. */
  operationId: OperationId;
  /** Read from the contract (ContractSchemas), never written by hand. */
  inputSchema: JsonSchema;
  /** The operation's success answer (ContractSchemas.output), with `idempotentReplayed` on a write. */
  outputSchema: JsonSchema;
  /** Told to clients as they are: see `HINTS` for why each is what it is. */
  annotations: Required<Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>>;
  run(input: Record<string, unknown>, context: ToolContext): Promise<ToolOutput>;
}

/**
 * The hints, per kind of tool (MCP's meanings: `idempotentHint` is "calling it again with the same
 * arguments has no further effect"; `openWorldHint` is "its effect reaches outside", here outside
 * the business's data).
 *
 * - A read changes nothing: read-only, idempotent, closed.
 * - A booking adds an appointment and e-mails the client (docs/design-record.md#d10): open world.
 *   Not idempotent: a hint holds for every call, and a repeat without `idempotencyKey` (the key is
 *   optional) and without `staffId` books a second appointment with another free staff member.
 * - A client's creation adds a client and e-mails no one. Idempotent even without a key: a repeat
 *   meets the first one's phone and is refused with CLIENT_EXISTS, changing nothing.
 * - A move or a cancellation ends an appointment (destructive) and e-mails the client (open world).
 *   Idempotent: a repeat finds the appointment no longer active and is refused, changing nothing.
 * - A metadata update replaces the appointment's metadata as a whole (destructive: what was there
 *   is gone); the same call again leaves the same metadata, and nothing is e-mailed.
 */
const HINTS = {
  read: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  book: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  createClient: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  endAppointment: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  replaceMetadata: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies Record<string, SchedulingTool['annotations']>;

/** The scope a tool needs: its operation's, from the contract (null: any caller). */
export function scopeOfTool(tool: Pick<SchedulingTool, 'operationId'>): Scope | null {
  return OPERATIONS[tool.operationId].scope;
}

const str = (value: unknown): string => String(value);
/** The arguments the contract calls `name`, typed as the operation takes them (the API checks them). */
const as = <T>(input: Record<string, unknown>): T => input as T;

/** "2030-01-07 10:00–10:30 +01:00 Europe/Lisbon (UTC …), Corte with Ana Costa for João (CONFIRMED), id …". */
function describeAppointment(appointment: Schemas['Appointment'], timeZone: string | null): string {
  return `${intervalWithLocal(appointment.scheduledAt, appointment.endsAt, timeZone)}, ${appointment.service.name} with ${appointment.staff.name} for ${appointment.client.name} (${appointment.status}), id ${appointment.id}`;
}

/** The argument a write tool takes its Idempotency-Key in (docs/design-record.md#d4). */
const IDEMPOTENCY_ARGUMENT = 'idempotencyKey';
const IDEMPOTENCY_DESCRIPTION =
  'Optional. Send the same value when you retry this same call (after a time-out or a lost answer): the API then does the write once and answers the retry as it answered the first call, so a retried booking never books twice. A new value (or none: a fresh one is made per call) is a new write. 8 to 255 characters of A-Z a-z 0-9 _ - : . (a UUID is fine).';

/** The property of a write's structured content that says it was a replay (the answer's Idempotent-Replayed). */
export const REPLAYED_PROPERTY = 'idempotentReplayed';
const REPLAYED_SCHEMA = {
  type: 'boolean',
  description: 'true when this is the stored answer of an earlier call with the same idempotencyKey: nothing new was written by this call.',
};

/** The body of a write tool's call, and its options: the Idempotency-Key when the caller gave one. */
function writeCall(input: Record<string, unknown>, signal: AbortSignal): { body: Record<string, unknown>; options: WriteOptions } {
  const { [IDEMPOTENCY_ARGUMENT]: key, ...body } = input;
  return { body, options: key === undefined ? { signal } : { signal, idempotencyKey: str(key) } };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/**
 * The tools an agent gets: find what is offered and when, look a client up or create one, book,
 * move, cancel, read and list appointments, and keep the partner's own data on them (metadata).
 * They are the same for the stdio server and the remote one (docs/design-record.md#d30): each calls
 * the API through the SDK client it is run with, so the caller's scopes and the API's rules (D6,
 * D15, D16, D21) decide what succeeds.
 */
export function schedulingTools(schemas: ContractSchemas): SchedulingTool[] {
  /** A write's input: the operation's path and body, and its Idempotency-Key as the optional `idempotencyKey`. */
  const writeInput = (operationId: string, path: string[] = []) =>
    schemas.input(operationId, {
      path,
      withBody: true,
      header: { 'Idempotency-Key': IDEMPOTENCY_ARGUMENT },
      description: { [IDEMPOTENCY_ARGUMENT]: IDEMPOTENCY_DESCRIPTION },
    });
  /** A write's output: the operation's answer and whether it was a replay. */
  const writeOutput = (operationId: string): JsonSchema => {
    const answer = schemas.output(operationId);
    const properties = answer.properties as Record<string, unknown>;
    if (REPLAYED_PROPERTY in properties) throw new Error(`${operationId}'s answer has a property ${REPLAYED_PROPERTY} of its own`);
    return {
      ...answer,
      properties: { ...properties, [REPLAYED_PROPERTY]: REPLAYED_SCHEMA },
      required: [...((answer.required as string[] | undefined) ?? []), REPLAYED_PROPERTY],
    };
  };
  /**
   * A write tool: its input is the operation's body (and `id` when `onOne`), plus `idempotencyKey`;
   * `send` makes the call, `describe` says what it gave back.
   */
  const writeTool = <Result extends object>(tool: {
    name: string;
    title: string;
    description: string;
    operationId: OperationId;
    annotations: SchedulingTool['annotations'];
    onOne?: boolean;
    send: (sdk: SchedulingClient, body: Record<string, unknown>, options: WriteOptions, id: string) => Promise<WithResponse<Result>>;
    /** What the text says of a first call ("Booked") and of a replay ("Already booked"). */
    done: string;
    replayed: string;
    describe: (result: Result, timeZone: string | null) => string;
  }): SchedulingTool => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    operationId: tool.operationId,
    inputSchema: writeInput(tool.operationId, tool.onOne ? ['id'] : []),
    outputSchema: writeOutput(tool.operationId),
    annotations: tool.annotations,
    run: async (input, context) => {
      const { id, ...onOne } = input;
      const { body, options } = writeCall(tool.onOne ? onOne : input, context.signal);
      const { data, headers } = await tool.send(context.sdk, body, options, str(id));
      const described = tool.describe(data, await context.timeZone());
      return {
        text: headers.idempotentReplayed
          ? `${tool.replayed} (a replay: this idempotencyKey was used before, so this is the first call's answer and nothing new was done): ${described}`
          : `${tool.done}: ${described}`,
        structured: { ...(data as Record<string, unknown>), [REPLAYED_PROPERTY]: headers.idempotentReplayed },
      };
    },
  });
  const readTool = (tool: Omit<SchedulingTool, 'annotations' | 'outputSchema'>): SchedulingTool => ({
    ...tool,
    outputSchema: schemas.output(tool.operationId),
    annotations: HINTS.read,
  });
  return [
    readTool({
      name: 'list_services',
      title: 'List services',
      description: 'Lists the business’s services: id, name, duration in minutes, price and whether it is active.',
      operationId: 'listServices',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      run: async (_input, { sdk, signal }) => {
        const services = await collect(sdk.services.list({ signal }));
        return {
          text:
            services
              .map(
                (s) =>
                  `${s.name} (${s.durationMin} min, ${s.price.cents / 100} ${s.price.currency}${s.active ? '' : ', inactive'}): ${s.id}`,
              )
              .join('\n') || 'No services.',
          structured: { data: services },
        };
      },
    }),
    readTool({
      name: 'list_staff',
      title: 'List staff',
      description:
        'Lists the staff members (id, name, whether active, the services each performs), optionally only those who perform a service.',
      operationId: 'listStaff',
      inputSchema: schemas.input('listStaff', { query: ['serviceId', 'active'] }),
      run: async (input, { sdk, signal }) => {
        const staff = await collect(sdk.staff.list(as<{ serviceId?: string; active?: boolean }>(input), { signal }));
        return {
          text: staff.map((m) => `${m.name}${m.active ? '' : ' (inactive)'}: ${m.id}`).join('\n') || 'No staff member matches.',
          // Every page, so no page follows.
          structured: { data: staff, nextCursor: null },
        };
      },
    }),
    readTool({
      name: 'find_free_times',
      title: 'Find free times',
      description:
        'The free start times of a service between two instants (at most 31 days apart), each with the staff members who can take it. A start listed here is one a booking would accept at this moment. Times are given in UTC and in the business’s time zone.',
      operationId: 'getAvailability',
      inputSchema: schemas.input('getAvailability', { query: ['serviceId', 'from', 'to', 'staffId'] }),
      run: async (input, { sdk, signal }) => {
        const availability = await sdk.availability.get(as<{ serviceId: string; from: string; to: string; staffId?: string }>(input), {
          signal,
        });
        const shown = availability.data
          .slice(0, 50)
          .map((start) => `${instantWithLocal(start.startAt, availability.timeZone)} (staff: ${start.staffIds.join(', ')})`);
        const more = availability.data.length > shown.length ? `\n… and ${availability.data.length - shown.length} more` : '';
        return {
          text:
            availability.data.length === 0
              ? 'No free start in that range.'
              : `${availability.data.length} free start(s) of ${availability.durationMin} min (UTC, then the business’s time in ${availability.timeZone}):\n${shown.join('\n')}${more}`,
          structured: availability,
        };
      },
    }),
    readTool({
      name: 'find_client',
      title: 'Look up a client',
      description:
        'Finds the client with a phone number (any format: with + and the country code, or in the business’s national form) or an e-mail address (any case). Use it when a booking or a new client was refused with CLIENT_EXISTS.',
      operationId: 'listClients',
      inputSchema: schemas.input('listClients', { query: ['phone', 'email'] }),
      run: async (input, { sdk, signal }) => {
        const contact = as<{ phone?: string; email?: string }>(input);
        if (contact.phone === undefined && contact.email === undefined) throw new ToolInputError('Give a phone or an e-mail to look up.');
        const page = await sdk.clients.listPage({ ...contact, limit: 10 }, { signal });
        return {
          text:
            page.data.map((c) => `${c.name} (${c.phone ?? 'no phone'}, ${c.email ?? 'no e-mail'}): ${c.id}`).join('\n') ||
            'No client has that phone or e-mail.',
          structured: page,
        };
      },
    }),
    writeTool({
      name: 'book_appointment',
      title: 'Book an appointment',
      description:
        'Books a service at a start time for a client: either an existing client (`client: { id }`) or a new one (`client: { name, phone, ... }`, refused with CLIENT_EXISTS when the phone or e-mail is known: the refusal names the existing client’s id). Without staffId, the staff member who can take it with the fewest appointments that day is booked. The client is e-mailed (unless notifyClient is false).',
      operationId: 'createAppointment',
      annotations: HINTS.book,
      send: (sdk, body, options) => sdk.appointments.create(as<Schemas['CreateAppointmentRequest']>(body), options).withResponse(),
      done: 'Booked',
      describe: (appointment, timeZone) => describeAppointment(appointment, timeZone),
      replayed: 'Already booked',
    }),
    writeTool({
      name: 'reschedule_appointment',
      title: 'Reschedule an appointment',
      description:
        'Moves an active appointment to a new start (and optionally another staff member). The old appointment becomes RESCHEDULED; a new one is returned. The client is e-mailed (unless notifyClient is false).',
      operationId: 'rescheduleAppointment',
      annotations: HINTS.endAppointment,
      onOne: true,
      send: (sdk, body, options, id) =>
        sdk.appointments.reschedule(id, as<Schemas['RescheduleAppointmentRequest']>(body), options).withResponse(),
      done: 'Rescheduled',
      describe: (appointment, timeZone) => describeAppointment(appointment, timeZone),
      replayed: 'Already rescheduled',
    }),
    writeTool({
      name: 'cancel_appointment',
      title: 'Cancel an appointment',
      description:
        'Cancels an active appointment, with a reason (at least 3 characters; stored, never shown to partners). The client is e-mailed (unless notifyClient is false).',
      operationId: 'cancelAppointment',
      annotations: HINTS.endAppointment,
      onOne: true,
      send: (sdk, body, options, id) => sdk.appointments.cancel(id, as<Schemas['CancelAppointmentRequest']>(body), options).withResponse(),
      done: 'Cancelled',
      describe: (appointment, timeZone) => describeAppointment(appointment, timeZone),
      replayed: 'Already cancelled',
    }),
    writeTool({
      name: 'update_appointment',
      title: "Replace an appointment's metadata",
      description:
        "Replaces an appointment's metadata (your own key-value pairs, such as an order number; {} clears them) in any status. Nothing else of the appointment changes: to move or cancel it, use the other tools.",
      operationId: 'updateAppointment',
      annotations: HINTS.replaceMetadata,
      onOne: true,
      send: (sdk, body, options, id) => sdk.appointments.update(id, as<Schemas['UpdateAppointmentRequest']>(body), options).withResponse(),
      done: 'Updated',
      describe: (appointment, timeZone) => describeAppointment(appointment, timeZone),
      replayed: 'Already updated',
    }),
    readTool({
      name: 'list_appointments',
      title: 'List appointments',
      description:
        'Lists appointments, one page at a time: those starting in [from, to), in order of start; or, with updatedSince instead, those changed since that instant, in order of change (for catching up). Optionally only one staff member, client or status. When the answer has a nextCursor, call again with it as cursor and the same filters for the next page.',
      operationId: 'listAppointments',
      inputSchema: schemas.input('listAppointments', {
        query: ['from', 'to', 'updatedSince', 'staffId', 'clientId', 'status', 'cursor', 'limit'],
      }),
      run: async (input, context) => {
        const page = await context.sdk.appointments.listPage(as<QueryOf<'listAppointments'>>(input), { signal: context.signal });
        const timeZone = page.data.length > 0 ? await context.timeZone() : null;
        const lines = page.data.map((appointment) => describeAppointment(appointment, timeZone)).join('\n') || 'No appointment matches.';
        const next = page.nextCursor === null ? '' : `\nMore: call again with cursor ${page.nextCursor} and the same filters.`;
        return { text: `${lines}${next}`, structured: page };
      },
    }),
    writeTool({
      name: 'create_client',
      title: 'Create a client',
      description:
        'Creates a new client (name, phone with + and the country code or in the business’s national form, optional e-mail and birth date). consent must be true: only when the client has agreed to be registered. Refused with CLIENT_EXISTS when the phone or e-mail is known (the refusal names the existing client’s id); an existing client is never changed.',
      operationId: 'createClient',
      annotations: HINTS.createClient,
      send: (sdk, body, options) => sdk.clients.create(as<Schemas['CreateClientRequest']>(body), options).withResponse(),
      done: 'Created',
      describe: (client) => `${client.name} (${client.phone}): ${client.id}`,
      replayed: 'Already created',
    }),
    readTool({
      name: 'get_appointment',
      title: 'Get an appointment',
      description: 'Reads one appointment by id: when (in UTC and in the business’s time zone), what, with whom, for whom and its status.',
      operationId: 'getAppointment',
      inputSchema: schemas.input('getAppointment', { path: ['id'] }),
      run: async ({ id }, context) => {
        const appointment = await context.sdk.appointments.get(str(id), { signal: context.signal });
        return { text: describeAppointment(appointment, await context.timeZone()), structured: appointment };
      },
    }),
  ];
}

/** A call the tool itself refuses before asking the API. */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}
