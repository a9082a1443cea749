import type { OpenApiDocument } from './openapi-document.js';
import { answerHoldsSecret, operationsAnsweringSecrets } from './secret-answers.js';
import { loadServedContract } from './served-contract.js';

const documentOf = (paths: OpenApiDocument['paths'], schemas: Record<string, unknown>): OpenApiDocument => ({
  openapi: '3.1.0',
  info: { version: '1' },
  servers: [],
  paths,
  components: { schemas, responses: { Created: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Wrapped' } } } } } },
});
const answering = (responses: Record<string, unknown>) => ({ operationId: '', responses }) as never;

describe('operationsAnsweringSecrets (docs/design-record.md#d25)', () => {
  it('finds, in the served document, the two answers that carry an endpoint secret', () => {
    expect([...operationsAnsweringSecrets(loadServedContract().document)].sort()).toEqual([
      'createWebhookEndpoint',
      'rotateWebhookEndpointSecret',
    ]);
    expect(answerHoldsSecret('createWebhookEndpoint')).toBe(true);
    expect(answerHoldsSecret('getWebhookEndpoint')).toBe(false);
    expect(answerHoldsSecret('createAppointment')).toBe(false);
  });

  it('follows references, composition, arrays and shared responses; reads only 2xx answers; ends on cycles', () => {
    const document = documentOf(
      {
        '/a': { post: { ...answering({ '201': { $ref: '#/components/responses/Created' } }), operationId: 'viaResponse' } },
        '/b': {
          get: {
            ...answering({ '200': { content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } } }),
            operationId: 'viaCycle',
          },
        },
        '/c': {
          get: {
            ...answering({ '404': { content: { 'application/json': { schema: { properties: { secret: { type: 'string' } } } } } } }),
            operationId: 'onlyRefusal',
          },
        },
      },
      {
        Wrapped: { allOf: [{ type: 'object' }, { properties: { endpoint: { $ref: '#/components/schemas/WithSecret' } } }] },
        WithSecret: { properties: { secret: { type: 'string' } } },
        Node: { properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } },
      },
    );
    expect([...operationsAnsweringSecrets(document)]).toEqual(['viaResponse']);
  });
});
