import { OPERATIONS } from './generated/operations.js';
import { loadContract, type OpenApiDocument } from './openapi-document.js';
import { mergeDocuments, mergeOperations } from './served-contract.js';
import type { SchedulingExtension } from '#extensions-api/scheduling-extension.js';

const core = loadContract().document;

function extensionDocument(overrides: Partial<OpenApiDocument> = {}): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { version: '1.0.0' },
    servers: [],
    paths: { '/things': { get: { operationId: 'listThings', responses: {} } } },
    components: { schemas: { Thing: { type: 'object' } } },
    webhooks: { 'thing.made': {} },
    ...overrides,
  };
}

function extensionWith(operationIds: string[]): SchedulingExtension {
  return {
    name: 'things',
    contract: {
      document: 'extensions/things/openapi.yaml',
      operations: Object.fromEntries(operationIds.map((id) => [id, { ...OPERATIONS.getMe, operationId: id }])),
      noticeTypes: [],
    },
    migrations: [],
    api: () => Promise.reject(new Error('not loaded in this test')),
    admin: () => Promise.reject(new Error('not loaded in this test')),
  };
}

describe('mergeDocuments', () => {
  it("adds an extension's paths, schemas and webhooks and leaves the core's as they are", () => {
    const merged = mergeDocuments(core, [{ name: 'things', document: extensionDocument() }]);
    expect(merged.paths['/things']).toEqual({ get: { operationId: 'listThings', responses: {} } });
    expect(merged.components.schemas.Thing).toEqual({ type: 'object' });
    expect((merged.webhooks as Record<string, unknown>)['thing.made']).toEqual({});
    expect(merged.paths['/me']).toEqual(core.paths['/me']);
    expect(core.paths['/things']).toBeUndefined();
  });

  it.each([
    ['a path', extensionDocument({ paths: { '/me': {} } }), 'path /me'],
    ['a schema', extensionDocument({ components: { schemas: { Client: {} } } }), 'components.schemas.Client'],
    ['a webhook', extensionDocument({ webhooks: { 'client.created': {} } }), 'webhook client.created'],
  ])('refuses %s the core already defines', (_what, document, named) => {
    expect(() => mergeDocuments(core, [{ name: 'things', document }])).toThrow(`Extension things: its document defines ${named}`);
  });
});

describe('mergeOperations', () => {
  it("serves the core's operations and the extension's", () => {
    const table = mergeOperations([extensionWith(['listThings'])]);
    expect(table.get('getMe')).toBe(OPERATIONS.getMe);
    expect(table.get('listThings')?.operationId).toBe('listThings');
  });

  it('refuses an operationId the core already serves', () => {
    expect(() => mergeOperations([extensionWith(['getMe'])])).toThrow('Extension things: operationId getMe is already served');
  });
});
