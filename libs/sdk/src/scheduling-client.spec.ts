import { SchedulingClient, type ClientContact } from './scheduling-client.js';

/**
 * `clients.find` against a recording fetch: a lookup sends only the phone and e-mail given, and a
 * contact with neither is refused before anything is sent, since GET /clients without them is the
 * plain list and its first client is somebody else (docs/design-record.md#d21).
 */
const CLIENT = {
  id: '01944b8f-0000-7000-8000-000000000001',
  name: 'Ana Silva',
  phone: '+351912345678',
  email: 'ana@example.com',
  birthDate: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
};

function recorder() {
  const urls: URL[] = [];
  const client = new SchedulingClient({
    baseUrl: 'http://api.test',
    apiKey: 'rk_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345abcdef',
    maxRetries: 0,
    fetch: (request) => {
      urls.push(new URL(request.url));
      return Promise.resolve(
        new Response(JSON.stringify({ data: [CLIENT], nextCursor: null }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
      );
    },
  });
  return { sdk: client, urls };
}

describe('clients.find', () => {
  it.each([
    ['{}', {}],
    ['{ phone: undefined }', { phone: undefined }],
    ['{ email: undefined }', { email: undefined }],
    ['{ phone: undefined, email: undefined }', { phone: undefined, email: undefined }],
    ["{ phone: '' }", { phone: '' }],
    ["{ email: '' }", { email: '' }],
    ["{ phone: '', email: '' }", { phone: '', email: '' }],
    ["{ phone: '  ', email: null }", { phone: '  ', email: null }],
    ['undefined', undefined],
  ])('refuses %s with a TypeError that says what to pass, and sends nothing', async (_, contact) => {
    const { sdk, urls } = recorder();
    const found = sdk.clients.find(contact as unknown as ClientContact);
    await expect(found).rejects.toThrow(TypeError);
    await expect(found).rejects.toThrow(/needs a phone or an e-mail.*find\(\{ phone: .*find\(\{ email: /);
    expect(urls).toEqual([]);
  });

  it('refuses a phone or an e-mail that is not a string', async () => {
    const { sdk, urls } = recorder();
    await expect(sdk.clients.find({ phone: 351912345678 } as unknown as ClientContact)).rejects.toThrow(
      new TypeError('clients.find: phone must be a string, not number'),
    );
    expect(urls).toEqual([]);
  });

  it('sends the phone, the e-mail or both, leaving out an empty one', async () => {
    const { sdk, urls } = recorder();
    await expect(sdk.clients.find({ phone: '+351 912 345 678' })).resolves.toEqual(CLIENT);
    await sdk.clients.find({ email: 'Ana@Example.com' });
    await sdk.clients.find({ phone: '+351912345678', email: 'ana@example.com' });
    await sdk.clients.find({ phone: '', email: 'ana@example.com' });
    expect(urls.map((url) => [url.pathname, Object.fromEntries(url.searchParams)])).toEqual([
      ['/v1/api/clients', { phone: '+351 912 345 678', limit: '1' }],
      ['/v1/api/clients', { email: 'Ana@Example.com', limit: '1' }],
      ['/v1/api/clients', { phone: '+351912345678', email: 'ana@example.com', limit: '1' }],
      ['/v1/api/clients', { email: 'ana@example.com', limit: '1' }],
    ]);
  });

  it('makes a contact without a phone or an e-mail a type error', () => {
    const { sdk } = recorder();
    // Never called: the lines are here for the compiler (npm run typecheck).
    const typeOnly = (): unknown[] => [
      // @ts-expect-error neither a phone nor an e-mail
      sdk.clients.find({}),
      // @ts-expect-error an absent phone is no phone
      sdk.clients.find({ phone: undefined }),
      sdk.clients.find({ phone: '+351912345678' }),
      sdk.clients.find({ email: 'ana@example.com' }),
    ];
    expect(typeof typeOnly).toBe('function');
  });
});
