import { E2eApi } from '../utils/e2e-api.js';
import { ReadSeeds } from '../utils/read-seeds.js';
import { createTenant, type Tenant } from '../utils/tenant-factory.js';
import { testSql } from '../utils/test-context.js';

/**
 * Stored but never returned: the appointment code and cancellation reason, the client's guardian
 * fields, consent and notes, the payment-instrument data, the items' costs and the sale's internal
 * note. Each is stored with a distinctive value; no response of any read route may carry it.
 */
const MARKERS = {
  appointmentCode: 'ZQXW7K9M',
  cancellationReason: 'CANCEL-REASON-MARKER',
  guardianName: 'GUARDIAN-NAME-MARKER',
  guardianEmail: 'guardian.marker@hidden.example',
  notes: 'CLIENT-NOTES-MARKER',
  instrumentBrand: 'INSTRUMENT-MARKER',
  instrumentReference: 'psp_ref_MARKER',
  costCents: 987654321,
  internalNote: 'INTERNAL-NOTE-MARKER',
};
/** Starts of property names that would betray a hidden field even with an unremarkable value. */
const HIDDEN_NAMES = [
  '"code"',
  '"cancellation',
  '"reason',
  '"guardian',
  '"consent',
  '"notes',
  '"instrument',
  '"last4',
  '"brand',
  '"cost',
  '"margin',
  '"internal',
];

let api: E2eApi;
let tenant: Tenant;
const ids: Record<string, string> = {};

beforeAll(async () => {
  api = await E2eApi.start();
  tenant = await createTenant();
  const seeds = new ReadSeeds(testSql(api.app), tenant.businessId);
  const staffId = await seeds.staff();
  ids.client = await seeds.client({
    name: 'Maria Santos',
    phone: '+351912345670',
    guardianName: MARKERS.guardianName,
    guardianEmail: MARKERS.guardianEmail,
    notes: MARKERS.notes,
  });
  ids.appointment = await seeds.appointment({
    staffId,
    clientId: ids.client,
    startsAt: '2030-06-01T09:00:00Z',
    status: 'CANCELLED',
    code: MARKERS.appointmentCode,
    cancellationReason: MARKERS.cancellationReason,
  });
  ids.payment = await seeds.payment({
    appointmentId: ids.appointment,
    instrumentData: { brand: MARKERS.instrumentBrand, last4: '4242', reference: MARKERS.instrumentReference },
  });
  ids.sale = (
    await seeds.sale({
      number: 1,
      clientId: ids.client,
      internalNote: MARKERS.internalNote,
      items: [{ name: 'Shampoo', type: 'PRODUCT', unitPriceCents: 1200, costCents: MARKERS.costCents }],
    })
  ).id;
});
afterAll(() => api.close());

const routes: [string, () => string, Record<string, string>][] = [
  ['GET /appointments', () => '/appointments', { from: '2030-06-01T00:00:00Z', to: '2030-06-02T00:00:00Z' }],
  ['GET /appointments/{id}', () => `/appointments/${ids.appointment}`, {}],
  ['GET /clients', () => '/clients', {}],
  ['GET /clients/{id}', () => `/clients/${ids.client}`, {}],
  ['GET /payments', () => '/payments', {}],
  ['GET /payments/{id}', () => `/payments/${ids.payment}`, {}],
  ['GET /sales', () => '/sales', {}],
  ['GET /sales/{id}', () => `/sales/${ids.sale}`, {}],
];

describe('fields that are stored but never returned', () => {
  it.each(routes)('%s carries none of them', async (_, path, query) => {
    const res = await api.get(path(), { key: tenant.key, query });
    expect(res.status).toBe(200);
    // The row is really in the answer, so the absence below means something.
    expect(res.text).toMatch(/Maria Santos|"id"/);
    for (const value of Object.values(MARKERS)) expect(res.text).not.toContain(String(value));
    for (const name of HIDDEN_NAMES) expect(res.text.toLowerCase()).not.toContain(name);
  });

  it('the lists do contain the marked rows', async () => {
    for (const [, path, query] of routes.filter(([name]) => !name.endsWith('{id}'))) {
      const res = await api.get(path(), { key: tenant.key, query });
      expect(res.body.data).toHaveLength(1);
    }
  });
});
