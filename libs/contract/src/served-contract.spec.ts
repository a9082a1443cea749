import { NOTICE_TYPES, OPERATIONS } from './generated/operations.js';
import { loadContract, type OpenApiDocument } from './openapi-document.js';
import { mergeDocuments, mergeNoticeTypes, mergeOperations, ServedContract, type ServedExtension } from './served-contract.js';

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

function extensionWith(operationIds: string[], noticeTypes: string[] = [], name = 'things'): ServedExtension {
  return {
    name,
    contract: {
      document: `extensions/${name}/openapi.yaml`,
      operations: Object.fromEntries(operationIds.map((id) => [id, { ...OPERATIONS.getMe, operationId: id }])),
      noticeTypes,
    },
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

  it("makes an extension's notices notice types of the served contract, which an endpoint may subscribe to", () => {
    const schemas = mergeDocuments(core, [{ name: 'things', document: extensionDocument() }]).components.schemas as Record<
      string,
      { enum?: string[]; maxItems?: number }
    >;
    expect(schemas.NoticeType.enum).toEqual([...NOTICE_TYPES, 'thing.made']);
    expect(schemas.WebhookEventTypes.maxItems).toBe(NOTICE_TYPES.length + 1);
    expect((core.components.schemas as Record<string, { enum?: string[] }>).NoticeType.enum).toEqual([...NOTICE_TYPES]);
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

describe('mergeNoticeTypes', () => {
  it("sends the core's notice types, then the extensions'", () => {
    expect(mergeNoticeTypes([extensionWith([], ['thing.made'])])).toEqual([...NOTICE_TYPES, 'thing.made']);
  });

  it('refuses a notice type the core or an earlier extension already has', () => {
    expect(() => mergeNoticeTypes([extensionWith([], ['client.created'])])).toThrow(
      'Extension things: notice type client.created already exists',
    );
    expect(() => mergeNoticeTypes([extensionWith([], ['thing.made']), extensionWith([], ['thing.made'], 'others')])).toThrow(
      'Extension others: notice type thing.made already exists',
    );
  });
});

describe('ServedContract', () => {
  it("serves the extensions it is made with beside the core's, and no other", () => {
    expect(new ServedContract().operation('getMe')).toBe(OPERATIONS.getMe);
    const things = new ServedContract([extensionWith(['listThings'], ['thing.made'])]);
    expect(things.operation('getMe')).toBe(OPERATIONS.getMe);
    expect(things.operation('listThings')?.operationId).toBe('listThings');
    expect(things.operation('listOthers')).toBeUndefined();
    expect(things.noticeTypes).toEqual([...NOTICE_TYPES, 'thing.made']);
    // Two applications of one process, each with its own: neither sees the other's, whichever was made first.
    const others = new ServedContract([extensionWith(['listOthers'], [], 'others')]);
    expect(others.operation('listOthers')?.operationId).toBe('listOthers');
    expect(others.operation('listThings')).toBeUndefined();
    expect(things.operation('listOthers')).toBeUndefined();
  });

  it('refuses an extension whose operation the core already serves', () => {
    expect(() => new ServedContract([extensionWith(['getMe'], [])])).toThrow('Extension things: operationId getMe is already served');
  });
});
