import type { QueryOf, SchedulingClient, Schemas, WriteOptions } from '#sdk/index.js';
import type { ContractSchemas, JsonSchema } from './contract-schemas.js';

/** What a tool gives back: a short text for the model, and the API's object as structured content. */
export interface ToolOutput {
  text: string;
  structured: Record<string, unknown>;
}

export type ToolEffect = 'read' | 'additive' | 'destructive';

export interface SchedulingTool {
  name: string;
  title: string;
  description: string;
  /** Read from the contract (ContractSchemas), never written by hand. */
  inputSchema: JsonSchema;
  /**
   * What it does to the business's data, told to clients as annotations: `read` changes nothing (a
   * client may run it without asking); `additive` only adds (a booking); `destructive` changes or
   * ends what exists (a cancellation, a move), so a client should ask before running it.
   */
  effect: ToolEffect;
  run(input: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutput>;
}

const str = (value: unknown): string => String(value);
/** The arguments the contract calls `name`, typed as the operation takes them (the API checks them). */
const as = <T>(input: Record<string, unknown>): T => input as T;

/** "2030-01-07T09:00:00.000Z, 30 min, Corte with Ana Costa (CONFIRMED), id …". */
function describeAppointment(appointment: Schemas['Appointment']): string {
  return `${appointment.scheduledAt}–${appointment.endsAt}, ${appointment.service.name} with ${appointment.staff.name} for ${appointment.client.name} (${appointment.status}), id ${appointment.id}`;
}

/** The argument a write tool takes its Idempotency-Key in (docs/design-record.md#d4). */
const IDEMPOTENCY_ARGUMENT = 'idempotencyKey';
const IDEMPOTENCY_DESCRIPTION =
  'Optional. Send the same value when you retry this same call (after a time-out or a lost answer): the API then does the write once and answers the retry as it answered the first call, so a retried booking never books twice. A new value (or none: a fresh one is made per call) is a new write. 8 to 255 characters of A-Z a-z 0-9 _ - : . (a UUID is fine).';

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
 * move, cancel, read and list appointments, and keep the partner's own data on them (metadata). Each calls the API through the SDK with the configured key, so the key's
 * scopes and the API's rules (D6, D15, D16, D21) decide what succeeds.
 */
export function schedulingTools(sdk: SchedulingClient, schemas: ContractSchemas): SchedulingTool[] {
  /** A write's input: the operation's path and body, and its Idempotency-Key as the optional `idempotencyKey`. */
  const writeInput = (operationId: string, path: string[] = []) =>
    schemas.input(operationId, {
      path,
      withBody: true,
      header: { 'Idempotency-Key': IDEMPOTENCY_ARGUMENT },
      description: { [IDEMPOTENCY_ARGUMENT]: IDEMPOTENCY_DESCRIPTION },
    });
  /**
   * A write tool: its input is the operation's body (and `id` when `onOne`), plus `idempotencyKey`;
   * `send` makes the call, `describe` says what it gave back.
   */
  const writeTool = <Result extends object>(tool: {
    name: string;
    title: string;
    description: string;
    operationId: string;
    effect: ToolEffect;
    onOne?: boolean;
    send: (body: Record<string, unknown>, options: WriteOptions, id: string) => Promise<Result>;
    describe: (result: Result) => string;
  }): SchedulingTool => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: writeInput(tool.operationId, tool.onOne ? ['id'] : []),
    effect: tool.effect,
    run: async (input, signal) => {
      const { id, ...onOne } = input;
      const { body, options } = writeCall(tool.onOne ? onOne : input, signal);
      const result = await tool.send(body, options, str(id));
      return { text: tool.describe(result), structured: result as Record<string, unknown> };
    },
  });
  return [
    {
      name: 'list_services',
      title: 'List services',
      description: 'Lists the business’s services: id, name, duration in minutes, price and whether it is active.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      effect: 'read',
      run: async (_input, signal) => {
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
    },
    {
      name: 'list_staff',
      title: 'List staff',
      description:
        'Lists the staff members (id, name, whether active, the services each performs), optionally only those who perform a service.',
      inputSchema: schemas.input('listStaff', { query: ['serviceId', 'active'] }),
      effect: 'read',
      run: async (input, signal) => {
        const staff = await collect(sdk.staff.list(as<{ serviceId?: string; active?: boolean }>(input), { signal }));
        return {
          text: staff.map((m) => `${m.name}${m.active ? '' : ' (inactive)'}: ${m.id}`).join('\n') || 'No staff member matches.',
          structured: { data: staff },
        };
      },
    },
    {
      name: 'find_free_times',
      title: 'Find free times',
      description:
        'The free start times of a service between two instants (at most 31 days apart), each with the staff members who can take it. A start listed here is one a booking would accept at this moment.',
      inputSchema: schemas.input('getAvailability', { query: ['serviceId', 'from', 'to', 'staffId'] }),
      effect: 'read',
      run: async (input, signal) => {
        const availability = await sdk.availability.get(as<{ serviceId: string; from: string; to: string; staffId?: string }>(input), {
          signal,
        });
        const shown = availability.data.slice(0, 50).map((start) => `${start.startAt} (staff: ${start.staffIds.join(', ')})`);
        const more = availability.data.length > shown.length ? `\n… and ${availability.data.length - shown.length} more` : '';
        return {
          text:
            availability.data.length === 0
              ? 'No free start in that range.'
              : `${availability.data.length} free start(s) of ${availability.durationMin} min (times in UTC; the business is in ${availability.timeZone}):\n${shown.join('\n')}${more}`,
          structured: availability,
        };
      },
    },
    {
      name: 'find_client',
      title: 'Look up a client',
      description:
        'Finds the client with a phone number (any format: with + and the country code, or in the business’s national form) or an e-mail address (any case). Use it when a booking or a new client was refused with CLIENT_EXISTS.',
      inputSchema: schemas.input('listClients', { query: ['phone', 'email'] }),
      effect: 'read',
      run: async (input, signal) => {
        const contact = as<{ phone?: string; email?: string }>(input);
        if (contact.phone === undefined && contact.email === undefined) throw new ToolInputError('Give a phone or an e-mail to look up.');
        const page = await sdk.clients.listPage({ ...contact, limit: 10 }, { signal });
        return {
          text:
            page.data.map((c) => `${c.name} (${c.phone ?? 'no phone'}, ${c.email ?? 'no e-mail'}): ${c.id}`).join('\n') ||
            'No client has that phone or e-mail.',
          structured: { data: page.data },
        };
      },
    },
    writeTool({
      name: 'book_appointment',
      title: 'Book an appointment',
      description:
        'Books a service at a start time for a client: either an existing client (`client: { id }`) or a new one (`client: { name, phone, ... }`, refused with CLIENT_EXISTS when the phone or e-mail is known: look the client up). Without staffId, the staff member who can take it with the fewest appointments that day is booked.',
      operationId: 'createAppointment',
      effect: 'additive',
      send: (body, options) => sdk.appointments.create(as<Schemas['CreateAppointmentRequest']>(body), options),
      describe: (appointment) => `Booked: ${describeAppointment(appointment)}`,
    }),
    writeTool({
      name: 'reschedule_appointment',
      title: 'Reschedule an appointment',
      description:
        'Moves an active appointment to a new start (and optionally another staff member). The old appointment becomes RESCHEDULED; a new one is returned.',
      operationId: 'rescheduleAppointment',
      effect: 'destructive',
      onOne: true,
      send: (body, options, id) => sdk.appointments.reschedule(id, as<Schemas['RescheduleAppointmentRequest']>(body), options),
      describe: (appointment) => `Rescheduled: ${describeAppointment(appointment)}`,
    }),
    writeTool({
      name: 'cancel_appointment',
      title: 'Cancel an appointment',
      description: 'Cancels an active appointment, with a reason (at least 3 characters; stored, never shown to partners).',
      operationId: 'cancelAppointment',
      effect: 'destructive',
      onOne: true,
      send: (body, options, id) => sdk.appointments.cancel(id, as<Schemas['CancelAppointmentRequest']>(body), options),
      describe: (appointment) => `Cancelled: ${describeAppointment(appointment)}`,
    }),
    writeTool({
      name: 'update_appointment',
      title: "Replace an appointment's metadata",
      description:
        "Replaces an appointment's metadata (your own key-value pairs, such as an order number; {} clears them) in any status. Nothing else of the appointment changes: to move or cancel it, use the other tools.",
      operationId: 'updateAppointment',
      effect: 'destructive',
      onOne: true,
      send: (body, options, id) => sdk.appointments.update(id, as<Schemas['UpdateAppointmentRequest']>(body), options),
      describe: (appointment) => `Updated: ${describeAppointment(appointment)}`,
    }),
    {
      name: 'list_appointments',
      title: 'List appointments',
      description:
        'Lists appointments, one page at a time: those starting in [from, to), in order of start; or, with updatedSince instead, those changed since that instant, in order of change (for catching up). Optionally only one staff member, client or status. When the answer has a nextCursor, call again with it as cursor and the same filters for the next page.',
      inputSchema: schemas.input('listAppointments', {
        query: ['from', 'to', 'updatedSince', 'staffId', 'clientId', 'status', 'cursor', 'limit'],
      }),
      effect: 'read',
      run: async (input, signal) => {
        const page = await sdk.appointments.listPage(as<QueryOf<'listAppointments'>>(input), { signal });
        const lines = page.data.map(describeAppointment).join('\n') || 'No appointment matches.';
        const next = page.nextCursor === null ? '' : `\nMore: call again with cursor ${page.nextCursor} and the same filters.`;
        return { text: `${lines}${next}`, structured: page };
      },
    },
    writeTool({
      name: 'create_client',
      title: 'Create a client',
      description:
        'Creates a new client (name, phone with + and the country code or in the business’s national form, optional e-mail and birth date). consent must be true: only when the client has agreed to be registered. Refused with CLIENT_EXISTS when the phone or e-mail is known (look the client up); an existing client is never changed.',
      operationId: 'createClient',
      effect: 'additive',
      send: (body, options) => sdk.clients.create(as<Schemas['CreateClientRequest']>(body), options),
      describe: (client) => `Created: ${client.name} (${client.phone}): ${client.id}`,
    }),
    {
      name: 'get_appointment',
      title: 'Get an appointment',
      description: 'Reads one appointment by id: when, what, with whom, for whom and its status.',
      inputSchema: schemas.input('getAppointment', { path: ['id'] }),
      effect: 'read',
      run: async ({ id }, signal) => {
        const appointment = await sdk.appointments.get(str(id), { signal });
        return { text: describeAppointment(appointment), structured: appointment };
      },
    },
  ];
}

/** A call the tool itself refuses before asking the API. */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}
