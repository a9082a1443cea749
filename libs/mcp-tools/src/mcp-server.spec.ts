import { jest } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadContract } from '#contract/openapi-document.js';
import { ApiPromise, SchedulingApiError, type SchedulingClient } from '#sdk/index.js';
import { ContractSchemas } from './contract-schemas.js';
import { createMcpServer, SchedulingToolbox } from './mcp-server.js';
import { StructuredOutputs } from './structured-outputs.js';

const ID = '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10';
const schemas = loadContract().document.components.schemas as Record<string, { examples: Record<string, unknown>[] }>;
/** The contract's own example answers: what the mocked API gives back is what the API could. */
const APPOINTMENT = { ...schemas.Appointment.examples[1], id: ID, status: 'CANCELLED' };
const CLIENT = { ...schemas.Client.examples[0], id: ID, name: 'Rita Nunes', phone: '+351912345678' };

type Call = (...args: unknown[]) => ApiPromise<unknown>;

/** An SDK answer, with the headers withResponse() reads. */
function answer(data: unknown, replayed = false): ApiPromise<unknown> {
  const headers = { location: null, idempotentReplayed: replayed, apiVersion: null, requestId: null, rateLimit: null, all: new Headers() };
  return new ApiPromise(Promise.resolve({ data, status: 200, headers }));
}

function refusal(error: Error): ApiPromise<unknown> {
  return new ApiPromise(Promise.reject(error));
}

const toolbox = new SchedulingToolbox(new ContractSchemas(loadContract().document));

/**
 * The server on an in-memory transport, over an SDK whose every method is a mock: what reached the
 * API is what was called. Every structured output is checked against its tool's outputSchema.
 */
async function connect() {
  const api = {
    me: jest.fn<Call>(() => answer({ business: { timezone: 'Europe/Lisbon' } })),
    appointments: {
      create: jest.fn<Call>(() => answer(APPOINTMENT)),
      cancel: jest.fn<Call>(() => answer(APPOINTMENT)),
      reschedule: jest.fn<Call>(() => answer(APPOINTMENT)),
      get: jest.fn<Call>(() => answer(APPOINTMENT)),
      listPage: jest.fn<Call>(() => answer({ data: [APPOINTMENT], nextCursor: 'next-page-cursor' })),
    },
    availability: { get: jest.fn<Call>() },
    clients: {
      listPage: jest.fn<Call>(),
      create: jest.fn<Call>(() => answer(CLIENT)),
    },
    services: { list: jest.fn() },
    staff: { list: jest.fn() },
  };
  const server = createMcpServer(toolbox, api as unknown as SchedulingClient);
  const client = new Client({ name: 'mcp-server-spec', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  const outputs = new StructuredOutputs((await client.listTools()).tools);
  const call = async (name: string, args: Record<string, unknown>) =>
    outputs.check(name, (await client.callTool({ name, arguments: args })) as CallToolResult);
  return { api, client, call, close: () => client.close() };
}

const text = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

describe('the MCP server', () => {
  it('gives every tool its true hints: reads, the booking, a client’s creation, moves and cancellations, metadata', async () => {
    const { client, close } = await connect();
    const { tools } = await client.listTools();
    const hints = Object.fromEntries(
      tools.map(({ name, annotations: a }) => [name, [a?.readOnlyHint, a?.destructiveHint, a?.idempotentHint, a?.openWorldHint]]),
    );
    const read = [true, false, true, false];
    expect(hints).toEqual({
      list_services: read,
      list_staff: read,
      find_free_times: read,
      find_client: read,
      get_appointment: read,
      list_appointments: read,
      // Without an idempotencyKey, a repeat may book again; the client is e-mailed.
      book_appointment: [false, false, false, true],
      // A repeat meets CLIENT_EXISTS; no one is e-mailed.
      create_client: [false, false, true, false],
      // A repeat meets APPOINTMENT_NOT_ACTIVE; the client is e-mailed.
      reschedule_appointment: [false, true, true, true],
      cancel_appointment: [false, true, true, true],
      update_appointment: [false, true, true, false],
    });
    await close();
  });

  it('declares every tool’s output as its operation’s answer in the contract, a write’s with whether it was a replay', async () => {
    const { client, close } = await connect();
    const { tools } = await client.listTools();
    const contract = new ContractSchemas(loadContract().document);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool.outputSchema]));
    expect(byName.get_appointment).toEqual(contract.output('getAppointment'));
    expect(byName.list_appointments).toEqual(contract.output('listAppointments'));
    expect(byName.find_free_times).toEqual(contract.output('getAvailability'));
    const booking = contract.output('createAppointment');
    expect(byName.book_appointment).toEqual({
      ...booking,
      properties: { ...(booking.properties as object), idempotentReplayed: expect.objectContaining({ type: 'boolean' }) },
      required: [...(booking.required as string[]), 'idempotentReplayed'],
    });
    for (const tool of tools) expect(tool.outputSchema).toMatchObject({ type: 'object' });
    expect(JSON.stringify(tools)).not.toContain('$ref');
    await close();
  });

  it('tells the client what it is for and how the tools go together', async () => {
    const { client, close } = await connect();
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toMatch(/find_free_times[\s\S]*book_appointment/);
    expect(instructions).toContain('CLIENT_EXISTS');
    expect(instructions).toContain('idempotencyKey');
    expect(instructions).toMatch(/confirm before cancel_appointment/);
    await close();
  });

  it('gives times in the business’s time zone beside UTC, and says when a write was a replay', async () => {
    const { api, call, close } = await connect();
    const booking = { serviceId: ID, startAt: '2030-01-08T15:00:00Z', client: { id: ID }, idempotencyKey: 'replay-7f3a-booking' };
    const first = await call('book_appointment', booking);
    // 15:00 UTC in January is 15:00 in Lisbon (+00:00); the same instant is given in UTC too.
    expect(text(first)).toBe(
      `Booked: 2030-01-08 15:00–15:30 +00:00 Europe/Lisbon (UTC 2030-01-08T15:00:00.000Z–2030-01-08T15:30:00.000Z), Haircut with Ana Costa for João Silva (CANCELLED), id ${ID}`,
    );
    expect(first.structuredContent).toEqual({ ...APPOINTMENT, idempotentReplayed: false });
    api.appointments.create.mockReturnValueOnce(
      answer({ ...APPOINTMENT, scheduledAt: '2030-07-08T15:00:00.000Z', endsAt: '2030-07-08T15:30:00.000Z' }, true),
    );
    const replayed = await call('book_appointment', booking);
    expect(text(replayed)).toMatch(
      /^Already booked \(a replay: this idempotencyKey was used before[^)]*\): 2030-07-08 16:00–16:30 \+01:00 Europe\/Lisbon/,
    );
    expect(replayed.structuredContent).toMatchObject({ idempotentReplayed: true });
    // The zone was read once for the server.
    expect(api.me).toHaveBeenCalledTimes(1);
    await close();
  });

  it('answers arguments that break the tool’s schema with a tool error naming each one, and calls nothing', async () => {
    const { api, call, close } = await connect();
    const cancel = await call('cancel_appointment', { id: 'not-an-id', reason: 'no', colour: 'red' });
    expect(cancel.isError).toBe(true);
    expect(text(cancel)).toMatch(
      /^INVALID_INPUT: the arguments of cancel_appointment do not match its input schema; nothing was sent to the API\./,
    );
    expect(text(cancel)).toContain('\n- id: must match format "uuid"');
    expect(text(cancel)).toContain('\n- reason: must NOT have fewer than 3 characters');
    expect(text(cancel)).toContain('\n- colour: is not an allowed property');

    const reschedule = await call('reschedule_appointment', { id: ID });
    expect(text(reschedule)).toContain('\n- startAt: is required');

    const book = await call('book_appointment', { serviceId: ID, startAt: 'tomorrow at ten', client: { id: 42 } });
    expect(text(book)).toContain('\n- startAt: must match format "date-time"');
    expect(text(book)).toContain('\n- client.id: must be string');

    const free = await call('find_free_times', { serviceId: ID, from: '2035-07-02', to: '2035-07-03T00:00:00Z' });
    expect(text(free)).toContain('\n- from: must match format "date-time"');

    for (const mock of [...Object.values(api.appointments), api.availability.get]) expect(mock).not.toHaveBeenCalled();
    await close();
  });

  it('hands arguments that conform to the API, as given', async () => {
    const { api, call, close } = await connect();
    const cancelled = await call('cancel_appointment', { id: ID, reason: 'The client cannot come' });
    expect(cancelled.isError).toBeFalsy();
    expect(api.appointments.cancel).toHaveBeenCalledWith(ID, { reason: 'The client cannot come' }, expect.anything());
    await close();
  });

  it('passes idempotencyKey of every write as its Idempotency-Key, never in the body, and none when not given', async () => {
    const { api, call, close } = await connect();
    const key = 'retry-7f3a-booking';
    const booking = { serviceId: ID, startAt: '2035-07-02T10:00:00Z', client: { id: ID } };
    expect((await call('book_appointment', { ...booking, idempotencyKey: key })).isError).toBeFalsy();
    expect(api.appointments.create).toHaveBeenLastCalledWith(booking, expect.objectContaining({ idempotencyKey: key }));
    await call('reschedule_appointment', { id: ID, startAt: '2035-07-02T11:00:00Z', idempotencyKey: key });
    expect(api.appointments.reschedule).toHaveBeenLastCalledWith(
      ID,
      { startAt: '2035-07-02T11:00:00Z' },
      expect.objectContaining({ idempotencyKey: key }),
    );
    await call('cancel_appointment', { id: ID, reason: 'The client cannot come', idempotencyKey: key });
    expect(api.appointments.cancel).toHaveBeenLastCalledWith(
      ID,
      { reason: 'The client cannot come' },
      expect.objectContaining({ idempotencyKey: key }),
    );
    const newClient = { name: 'Rita Nunes', phone: '912 345 678', consent: true };
    expect(text(await call('create_client', { ...newClient, idempotencyKey: key }))).toBe(`Created: Rita Nunes (+351912345678): ${ID}`);
    expect(api.clients.create).toHaveBeenLastCalledWith(newClient, expect.objectContaining({ idempotencyKey: key }));

    // Without it, the SDK makes a fresh key per call, as before.
    await call('book_appointment', booking);
    expect(api.appointments.create).toHaveBeenLastCalledWith(booking, expect.not.objectContaining({ idempotencyKey: expect.anything() }));
    // The contract's pattern holds for it too.
    const refused = await call('cancel_appointment', { id: ID, reason: 'The client cannot come', idempotencyKey: 'short' });
    expect(text(refused)).toContain('\n- idempotencyKey: must match pattern');
    await close();
  });

  it('lists one page of appointments with the filters given, and says how to ask for the next', async () => {
    const { api, call, close } = await connect();
    const query = { from: '2035-07-01T00:00:00Z', to: '2035-07-08T00:00:00Z', staffId: ID, status: 'CANCELLED', limit: 10 };
    const listed = await call('list_appointments', query);
    expect(listed.isError).toBeFalsy();
    expect(api.appointments.listPage).toHaveBeenCalledWith(query, expect.anything());
    expect(text(listed)).toContain(`(CANCELLED), id ${ID}`);
    expect(text(listed)).toContain('call again with cursor next-page-cursor and the same filters');
    expect(listed.structuredContent).toEqual({ data: [APPOINTMENT], nextCursor: 'next-page-cursor' });
    expect(text(listed)).toContain('2030-01-08 15:00–15:30 +00:00 Europe/Lisbon');

    const bad = await call('list_appointments', { from: 'monday', cursor: '', status: 'DONE' });
    expect(text(bad)).toContain('\n- from: must match format "date-time"');
    expect(text(bad)).toContain('\n- cursor: must NOT have fewer than 1 characters');
    await close();
  });

  it('names the existing client’s id when a booking is refused with CLIENT_EXISTS, so the agent can book that client', async () => {
    const { api, call, close } = await connect();
    const existing = '01944b91-2a3b-7c4d-8e5f-6a7b8c9d0e1f';
    const problem = {
      status: 409,
      code: 'CLIENT_EXISTS',
      title: 'Client exists',
      detail: 'A client with this phone exists.',
      requestId: 'req-1',
    } as const;
    api.appointments.create.mockReturnValueOnce(refusal(new SchedulingApiError({ ...problem, clientId: existing })));
    const booking = { serviceId: ID, startAt: '2035-07-02T10:00:00Z', client: { name: 'João', phone: '+351912345678' } };
    const refused = await call('book_appointment', booking);
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(
      `CLIENT_EXISTS: A client with this phone exists.\nThe existing client's id is ${existing}: book it with client: { id: "${existing}" }.\n(request req-1)`,
    );
    // A key without clients.read gets no id: the text does not invent one.
    api.appointments.create.mockReturnValueOnce(refusal(new SchedulingApiError(problem)));
    expect(text(await call('book_appointment', booking))).toBe('CLIENT_EXISTS: A client with this phone exists.\n(request req-1)');
    await close();
  });
});
