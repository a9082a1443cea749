import { NOTICE_TYPES, OPERATIONS, SCOPES } from './generated/operations.js';
import { loadContract, operationsById, resolveRef, type OpenApiParameter } from './openapi-document.js';

const { document } = loadContract();
const documented = operationsById(document);

function parametersOf(path: string, parameters: unknown[] = []): OpenApiParameter[] {
  const shared = (document.paths[path] as { parameters?: unknown[] }).parameters ?? [];
  return [...shared, ...parameters].map((p) => resolveRef<OpenApiParameter>(document, p));
}

/** The operations whose success answer declares `Location`, and the resource it names (docs/design-record.md#d23). */
const LOCATIONS: Record<string, string> = {
  createAppointment: '/appointments/{id}',
  rescheduleAppointment: '/appointments/{id}',
  createClient: '/clients/{id}',
  createWebhookEndpoint: '/webhook-endpoints/{id}',
};

describe('the generated operation facts (generated/operations.ts)', () => {
  it('has one entry per operation of the document, and no other', () => {
    expect(Object.keys(OPERATIONS).sort()).toEqual([...documented.keys()].sort());
  });

  it.each([...documented.entries()])('says of %s what the document says', (operationId, { method, path, operation }) => {
    const parameters = parametersOf(path, operation.parameters);
    const successes = Object.keys(operation.responses).filter((status) => status.startsWith('2'));
    expect(OPERATIONS[operationId as keyof typeof OPERATIONS]).toEqual({
      operationId,
      method,
      path,
      routePath: path.slice(1).replace(/\{(\w+)\}/g, ':$1'),
      successStatus: Number(successes[0]),
      scope: operation['x-required-scope'] ?? null,
      idempotent: parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'),
      idempotencyKeyRequired: parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key' && p.required === true),
      pathParameters: parameters.filter((p) => p.in === 'path').map((p) => p.name),
      queryParameters: parameters.filter((p) => p.in === 'query').map((p) => p.name),
      body: operation.requestBody?.content['application/json'] !== undefined,
      bodyRequired: (operation.requestBody as { required?: boolean } | undefined)?.required === true,
      location: LOCATIONS[operationId] ?? null,
    });
    expect(successes).toHaveLength(1);
  });

  it('lists the Scope schema and every webhook but the test notice as a notice type', () => {
    const schemas = document.components.schemas as Record<string, { enum?: string[] }>;
    expect(SCOPES).toEqual(schemas.Scope.enum);
    expect(NOTICE_TYPES).toEqual(schemas.NoticeType.enum);
    expect([...NOTICE_TYPES, 'webhook.test']).toEqual(Object.keys(document.webhooks as object));
  });

  it('names, for every scoped operation, the scope its security requires on both schemes', () => {
    for (const { operation } of documented.values()) {
      const facts = OPERATIONS[operation.operationId as keyof typeof OPERATIONS];
      const security = (operation as { security?: Record<string, string[]>[] }).security ?? [];
      expect(security.map((requirement) => Object.values(requirement).flat())).toEqual(
        security.map(() => (facts.scope === null ? [] : [facts.scope])),
      );
    }
  });
});
