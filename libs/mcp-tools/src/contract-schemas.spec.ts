import { loadContract } from '#contract/openapi-document.js';
import { ContractSchemas } from './contract-schemas.js';

describe('ContractSchemas', () => {
  const schemas = new ContractSchemas(loadContract().document);

  it('builds a tool input from query parameters, with their descriptions and required flags', () => {
    const input = schemas.input('getAvailability', { query: ['serviceId', 'from', 'to', 'staffId'] });
    expect(input).toMatchObject({ type: 'object', additionalProperties: false, required: ['serviceId', 'from', 'to'] });
    expect((input.properties as Record<string, { format?: string }>).from.format).toBe('date-time');
  });

  it('merges a path id with a body and inlines every $ref', () => {
    const input = schemas.input('rescheduleAppointment', { path: ['id'], withBody: true });
    expect(input.required).toEqual(['id', 'startAt']);
    expect(Object.keys(input.properties as object).sort()).toEqual(['id', 'notifyClient', 'staffId', 'startAt']);
    expect(JSON.stringify(schemas.input('createAppointment', { withBody: true }))).not.toContain('$ref');
  });

  it('takes a header parameter under the argument name it is given, never required', () => {
    const input = schemas.input('cancelAppointment', { path: ['id'], withBody: true, header: { 'Idempotency-Key': 'idempotencyKey' } });
    expect(input.required).toEqual(['id', 'reason']);
    expect((input.properties as Record<string, { pattern?: string }>).idempotencyKey.pattern).toBe('^[A-Za-z0-9_\\-:.]{8,255}$');
    expect(() => schemas.input('listClients', { header: { 'Idempotency-Key': 'key' } })).toThrow(/no header parameter Idempotency-Key/);
  });

  it('refuses a parameter the operation does not have', () => {
    expect(() => schemas.input('listClients', { query: ['nope'] })).toThrow(/no query parameter nope/);
    expect(() => schemas.input('noSuchOperation', {})).toThrow(/no operation/);
  });
});
