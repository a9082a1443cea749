import { jest } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadContract } from '#contract/openapi-document.js';
import { SchedulingApiError, type SchedulingClient } from '#sdk/index.js';
import { ContractSchemas } from './contract-schemas.js';
import { createMcpServer } from './mcp-server.js';

const ID = '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10';
const APPOINTMENT = {
  id: ID,
  status: 'CANCELLED',
  scheduledAt: '2035-07-02T10:00:00Z',
  endsAt: '2035-07-02T10:30:00Z',
  service: { name: 'Corte' },
  staff: { name: 'Ana' },
  client: { name: 'João' },
};

type Call = (...args: unknown[]) => Promise<unknown>;

/** The server on an in-memory transport, over an SDK whose every method is a mock: what reached the API is what was called. */
async function connect() {
  const api = {
    appointments: {
      create: jest.fn<Call>().mockResolvedValue(APPOINTMENT),
      cancel: jest.fn<Call>().mockResolvedValue(APPOINTMENT),
      reschedule: jest.fn<Call>().mockResolvedValue(APPOINTMENT),
      get: jest.fn<Call>(),
      listPage: jest.fn<Call>().mockResolvedValue({ data: [APPOINTMENT], nextCursor: 'next-page-cursor' }),
    },
    availability: { get: jest.fn<Call>() },
    clients: {
      listPage: jest.fn<Call>(),
      create: jest.fn<Call>().mockResolvedValue({ id: ID, name: 'Rita Nunes', phone: '+351912345678' }),
    },
    services: { list: jest.fn() },
    staff: { list: jest.fn() },
  };
  const server = createMcpServer(api as unknown as SchedulingClient, new ContractSchemas(loadContract().document));
  const client = new Client({ name: 'mcp-server-spec', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { api, client, call, close: () => client.close() };
}

const text = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

describe('the MCP server', () => {
  it('marks cancel and reschedule as destructive, booking as additive and the reads as read-only', async () => {
    const { client, close } = await connect();
    const { tools } = await client.listTools();
    const hints = Object.fromEntries(tools.map((tool) => [tool.name, [tool.annotations?.readOnlyHint, tool.annotations?.destructiveHint]]));
    expect(hints).toEqual({
      list_services: [true, undefined],
      list_staff: [true, undefined],
      find_free_times: [true, undefined],
      find_client: [true, undefined],
      get_appointment: [true, undefined],
      list_appointments: [true, undefined],
      book_appointment: [false, false],
      create_client: [false, false],
      reschedule_appointment: [false, true],
      cancel_appointment: [false, true],
      update_appointment: [false, true],
    });
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
    api.appointments.create.mockRejectedValueOnce(new SchedulingApiError({ ...problem, clientId: existing }));
    const booking = { serviceId: ID, startAt: '2035-07-02T10:00:00Z', client: { name: 'João', phone: '+351912345678' } };
    const refused = await call('book_appointment', booking);
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(
      `CLIENT_EXISTS: A client with this phone exists.\nThe existing client's id is ${existing}: book it with client: { id: "${existing}" }.\n(request req-1)`,
    );
    // A key without clients.read gets no id: the text does not invent one.
    api.appointments.create.mockRejectedValueOnce(new SchedulingApiError(problem));
    expect(text(await call('book_appointment', booking))).toBe('CLIENT_EXISTS: A client with this phone exists.\n(request req-1)');
    await close();
  });
});
