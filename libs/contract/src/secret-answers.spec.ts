import type { OpenApiDocument, OpenApiOperation } from './openapi-document.js';
import { operationsAnsweringSecrets, SecretAnswers } from './secret-answers.js';
import { ServedContract } from './served-contract.js';

const documentOf = (paths: OpenApiDocument['paths'], schemas: Record<string, unknown>): OpenApiDocument => ({
  openapi: '3.1.0',
  info: { version: '1' },
  servers: [],
  paths,
  components: {
    schemas,
    responses: { Created: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Wrapped' } } } } },
  },
});
const answering = (operationId: string, responses: Record<string, unknown>): OpenApiOperation =>
  ({ operationId, responses }) as OpenApiOperation;

describe('operationsAnsweringSecrets (docs/design-record.md#d25)', () => {
  it('finds, in the served document, the two answers that carry an endpoint secret', () => {
    const { document } = new ServedContract();
    expect([...operationsAnsweringSecrets(document)].sort()).toEqual(['createWebhookEndpoint', 'rotateWebhookEndpointSecret']);
    const secretAnswers = new SecretAnswers(document);
    expect(secretAnswers.holdsSecret('createWebhookEndpoint')).toBe(true);
    expect(secretAnswers.holdsSecret('getWebhookEndpoint')).toBe(false);
    expect(secretAnswers.holdsSecret('createAppointment')).toBe(false);
  });

  it('follows references, composition, arrays and shared responses; reads only 2xx answers; ends on cycles', () => {
    const document = documentOf(
      {
        '/a': { post: answering('viaResponse', { '201': { $ref: '#/components/responses/Created' } }) },
        '/b': {
          get: answering('viaCycle', {
            '200': { content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } },
          }),
        },
        '/c': {
          get: answering('onlyRefusal', {
            '404': { content: { 'application/json': { schema: { properties: { secret: { type: 'string' } } } } } },
          }),
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
