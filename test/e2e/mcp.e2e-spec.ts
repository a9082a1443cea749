import { jest } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadContract } from '#contract/openapi-document.js';
import { StructuredOutputs } from '#mcp-tools/structured-outputs.js';
import { ALL_WEEK } from '../factories/booking-fixture.js';
import { Child, REPO_ROOT } from '../utils/child-process.js';
import { CompiledApi } from '../utils/compiled-api.js';
import { seed, type SeededBusiness } from '../utils/seed.js';

/**
 * The MCP server (apps/mcp) as an MCP client starts it: the compiled server on stdio, spawned by the
 * official SDK's StdioClientTransport, talking to the compiled API.
 */
jest.setTimeout(180_000);

const SERVER = 'dist/apps/mcp/src/main.js';
let api: CompiledApi;
let business: SeededBusiness;
let client: Client;
let phone: string;
let outputs: StructuredOutputs;

beforeAll(async () => {
  // Builds dist/ (the API and the MCP server) first.
  api = await CompiledApi.start('mcp-e2e');
  phone = `+35196${String(Date.now() % 10_000_000).padStart(7, '0')}`;
  business = await seed({
    name: 'MCP Salon',
    services: [{ ref: 'cut', name: 'Corte', durationMin: 30, priceCents: 2500 }],
    staff: [{ ref: 'ana', name: 'Ana Costa', workingHours: ALL_WEEK }],
    clients: [{ ref: 'joao', name: 'João Silva', phone, email: `joao.${Date.now()}@example.com` }],
  });
  client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [SERVER],
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', SCHEDULING_API_URL: api.origin, SCHEDULING_API_KEY: business.keys.owner.key },
      stderr: 'pipe',
    }),
  );
  outputs = new StructuredOutputs((await client.listTools()).tools);
});

afterAll(async () => {
  await client?.close();
  await api?.stop();
});

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  // Every structured output conforms to its tool's outputSchema (the contract's answer).
  return outputs.check(name, (await client.callTool({ name, arguments: args })) as CallToolResult);
}

const text = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

describe('the MCP server', () => {
  it('lists its tools, with input schemas read from the contract', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'book_appointment',
      'cancel_appointment',
      'create_client',
      'find_client',
      'find_free_times',
      'get_appointment',
      'list_appointments',
      'list_services',
      'list_staff',
      'reschedule_appointment',
      'update_appointment',
    ]);
    const schemas = loadContract().document.components.schemas as Record<
      string,
      { required: string[]; properties: Record<string, unknown> }
    >;
    const book = tools.find((tool) => tool.name === 'book_appointment')!;
    // The body's properties, and the optional Idempotency-Key of every write.
    expect(Object.keys(book.inputSchema.properties!).sort()).toEqual(
      [...Object.keys(schemas.CreateAppointmentRequest.properties), 'idempotencyKey'].sort(),
    );
    expect(book.inputSchema.required).toEqual(schemas.CreateAppointmentRequest.required);
    // The client's two forms, inlined from their $refs.
    const clientForms = (book.inputSchema.properties!.client as { oneOf: { required: string[] }[] }).oneOf;
    expect(clientForms.map((form) => form.required)).toEqual([
      (schemas.ExistingClientReference as { required: string[] }).required,
      (schemas.NewClientForAppointment as { required: string[] }).required,
    ]);
    expect(JSON.stringify(tools)).not.toContain('$ref');
    const free = tools.find((tool) => tool.name === 'find_free_times')!;
    expect(free.inputSchema.required).toEqual(['serviceId', 'from', 'to']);
    expect(free.annotations?.readOnlyHint).toBe(true);
    // A client asks before running what changes or ends an appointment (docs/design-record.md#d25).
    for (const name of ['cancel_appointment', 'reschedule_appointment']) {
      expect(tools.find((tool) => tool.name === name)!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    }
  });

  it('holds a conversation: services, free times, book any staff, read it, cancel it', async () => {
    const services = await call('list_services');
    expect(services.isError).toBeFalsy();
    expect(text(services)).toContain(`Corte (30 min, 25 EUR): ${business.services.cut}`);

    const free = await call('find_free_times', {
      serviceId: business.services.cut,
      from: '2035-07-02T00:00:00Z',
      to: '2035-07-03T00:00:00Z',
    });
    expect(free.isError).toBeFalsy();
    const starts = (free.structuredContent as { data: { startAt: string; staffIds: string[] }[] }).data;
    expect(starts.length).toBeGreaterThan(0);
    expect(text(free)).toContain(starts[0].startAt);

    const booked = await call('book_appointment', {
      serviceId: business.services.cut,
      startAt: starts[0].startAt,
      client: { id: business.clients.joao },
    });
    expect(booked.isError).toBeFalsy();
    const appointment = booked.structuredContent as { id: string; status: string; scheduledAt: string; staff: { id: string } };
    expect(appointment).toMatchObject({ status: 'CONFIRMED', scheduledAt: starts[0].startAt, staff: { id: business.staff.ana } });
    expect(text(booked)).toMatch(/^Booked: .*Corte with Ana Costa/);

    const read = await call('get_appointment', { id: appointment.id });
    expect(read.structuredContent).toEqual({ ...booked.structuredContent, idempotentReplayed: undefined });
    expect(booked.structuredContent).toMatchObject({ idempotentReplayed: false });

    const updated = await call('update_appointment', { id: appointment.id, metadata: { orderId: 'A-17' } });
    expect(updated.isError).toBeFalsy();
    expect(text(updated)).toMatch(/^Updated: .*Corte with Ana Costa/);
    expect((await call('get_appointment', { id: appointment.id })).structuredContent).toMatchObject({ metadata: { orderId: 'A-17' } });

    const cancelled = await call('cancel_appointment', { id: appointment.id, reason: 'The client cannot come' });
    expect(cancelled.isError).toBeFalsy();
    expect(cancelled.structuredContent).toMatchObject({ id: appointment.id, status: 'CANCELLED' });
  });

  it('answers a refused booking as a tool error naming SLOT_TAKEN', async () => {
    const slot = {
      serviceId: business.services.cut,
      staffId: business.staff.ana,
      startAt: '2035-07-09T10:00:00Z',
      client: { id: business.clients.joao },
    };
    const first = await call('book_appointment', slot);
    expect(first.isError).toBeFalsy();
    const second = await call('book_appointment', slot);
    expect(second.isError).toBe(true);
    expect(text(second)).toMatch(/^SLOT_TAKEN: /);
  });

  it('looks a client up by phone after a Form B booking is refused with CLIENT_EXISTS', async () => {
    const typed = `${phone.slice(0, 4)} ${phone.slice(4, 6)} ${phone.slice(6)}`;
    const refused = await call('book_appointment', {
      serviceId: business.services.cut,
      startAt: '2035-07-10T10:00:00Z',
      client: { name: 'João Again', phone: typed },
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^CLIENT_EXISTS: /);
    // The refusal names the existing client, so the agent can book it without a lookup.
    expect(text(refused)).toContain(
      `The existing client's id is ${business.clients.joao}: book it with client: { id: "${business.clients.joao}" }.`,
    );
    const rebooked = await call('book_appointment', {
      serviceId: business.services.cut,
      startAt: '2035-07-10T10:00:00Z',
      client: { id: business.clients.joao },
    });
    expect(rebooked.isError).toBeFalsy();
    expect((rebooked.structuredContent as { client: { id: string } }).client.id).toBe(business.clients.joao);

    const found = await call('find_client', { phone: typed });
    expect((found.structuredContent as { data: { id: string }[] }).data.map((c) => c.id)).toEqual([business.clients.joao]);
    // Not the shape of a phone: refused by the tool's schema, before the API.
    const malformed = await call('find_client', { phone: 'not a phone' });
    expect(malformed.isError).toBe(true);
    expect(text(malformed)).toMatch(/^INVALID_INPUT: [\s\S]*\n- phone: must match pattern/);
    // The shape of one, but no phone number: only the API can tell.
    const invalid = await call('find_client', { phone: '+999 999 9999' });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/^VALIDATION_FAILED: [\s\S]*\/query\/phone/);
  });

  it('refuses a call whose arguments break the tool’s schema, naming them, without calling the API', async () => {
    const booked = await call('book_appointment', {
      serviceId: business.services.cut,
      startAt: '2035-07-11T10:00:00Z',
      client: { id: business.clients.joao },
    });
    const { id } = booked.structuredContent as { id: string };
    const refused = await call('cancel_appointment', { id, reason: 'no', when: 'now' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^INVALID_INPUT: /);
    expect(text(refused)).toContain('\n- reason: must NOT have fewer than 3 characters');
    expect(text(refused)).toContain('\n- when: is not an allowed property');
    // Nothing reached the API: the appointment is still booked.
    expect((await call('get_appointment', { id })).structuredContent).toMatchObject({ id, status: 'CONFIRMED' });
  });

  it('books once when a booking is retried with the same idempotencyKey, and lists the appointments', async () => {
    const booking = {
      serviceId: business.services.cut,
      staffId: business.staff.ana,
      startAt: '2035-07-12T10:00:00Z',
      client: { id: business.clients.joao },
      idempotencyKey: `mcp-retry-${Date.now()}`,
    };
    const first = await call('book_appointment', booking);
    expect(first.isError).toBeFalsy();
    // The retry of a call whose answer was lost: the same appointment, not SLOT_TAKEN nor a second one.
    const retried = await call('book_appointment', booking);
    expect(retried.isError).toBeFalsy();
    expect(retried.structuredContent).toEqual({ ...first.structuredContent, idempotentReplayed: true });
    expect(text(retried)).toMatch(/^Already booked \(a replay: /);
    const { id } = first.structuredContent as { id: string };

    const day = { from: '2035-07-12T00:00:00Z', to: '2035-07-13T00:00:00Z' };
    const listed = await call('list_appointments', { ...day, staffId: business.staff.ana });
    expect(listed.isError).toBeFalsy();
    expect((listed.structuredContent as { data: { id: string }[] }).data.map((a) => a.id)).toEqual([id]);
    expect(text(listed)).toContain(`id ${id}`);
    // The same write under another key is another booking: refused, the slot being taken.
    const another = await call('book_appointment', { ...booking, idempotencyKey: `mcp-other-${Date.now()}` });
    expect(text(another)).toMatch(/^SLOT_TAKEN: /);

    // Paged: one per page, the cursor given back.
    await call('book_appointment', { ...booking, startAt: '2035-07-12T11:00:00Z', idempotencyKey: undefined });
    const page1 = await call('list_appointments', { ...day, limit: 1 });
    const { nextCursor } = page1.structuredContent as { nextCursor: string };
    expect(text(page1)).toContain(`call again with cursor ${nextCursor}`);
    const page2 = await call('list_appointments', { ...day, limit: 1, cursor: nextCursor });
    expect((page2.structuredContent as { data: { scheduledAt: string }[] }).data.map((a) => a.scheduledAt)).toEqual([
      '2035-07-12T11:00:00.000Z',
    ]);
  });

  it('creates a client from a national phone, once per idempotencyKey', async () => {
    const national = `93${String(Date.now() % 10_000_000).padStart(7, '0')}`;
    const args = { name: 'Rita Nunes', phone: national, consent: true, idempotencyKey: `mcp-client-${Date.now()}` };
    const created = await call('create_client', args);
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ name: 'Rita Nunes', phone: `+351${national}` });
    expect((await call('create_client', args)).structuredContent).toEqual({ ...created.structuredContent, idempotentReplayed: true });
  });

  it('does not start without its settings, and says which are missing', async () => {
    const child = Child.spawn(process.execPath, [SERVER], { PATH: process.env.PATH, SCHEDULING_API_URL: 'ftp://example' });
    expect(await child.exited).toBe(1);
    expect(child.output).toContain('SCHEDULING_API_URL must be an http or https address');
    expect(child.output).toContain('SCHEDULING_API_KEY is missing');
  });

  it('does not start with a key that is not one, nor with plain http to another machine', async () => {
    const typo = business.keys.owner.key.slice(0, -1);
    const child = Child.spawn(process.execPath, [SERVER], {
      PATH: process.env.PATH,
      SCHEDULING_API_URL: 'http://api.example:3000',
      SCHEDULING_API_KEY: typo,
    });
    expect(await child.exited).toBe(1);
    expect(child.output).toContain('SCHEDULING_API_URL must be https');
    expect(child.output).toContain('SCHEDULING_API_KEY is not an API key');
    expect(child.output).not.toContain(typo);
  });
});
