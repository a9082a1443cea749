import { E2eApi } from '../utils/e2e-api.js';
import { seed } from '../utils/seed.js';

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
let tenant: { key: string };
const ids: Record<string, string> = {};

beforeAll(async () => {
  api = await E2eApi.start();
  const salon = await seed({
    staff: [{ ref: 'ana', name: 'Ana Costa' }],
    services: [{ ref: 'cut', name: 'Haircut', durationMin: 30, priceCents: 2500 }],
    clients: [
      {
        ref: 'maria',
        name: 'Maria Santos',
        phone: '+351912345670',
        birthDate: '2012-05-01',
        guardianName: MARKERS.guardianName,
        guardianEmail: MARKERS.guardianEmail,
        consent: true,
        notes: MARKERS.notes,
      },
    ],
    appointments: [
      {
        ref: 'a',
        staff: 'ana',
        service: 'cut',
        client: 'maria',
        startAt: '2030-06-01T09:00:00Z',
        status: 'CANCELLED',
        code: MARKERS.appointmentCode,
        cancellationReason: MARKERS.cancellationReason,
      },
    ],
    payments: [
      {
        ref: 'p',
        appointment: 'a',
        channel: 'IN_PERSON',
        method: 'CARD',
        status: 'PAID',
        amountCents: 2500,
        paidAt: '2030-06-01T09:30:00Z',
        instrumentData: { brand: MARKERS.instrumentBrand, last4: '4242', reference: MARKERS.instrumentReference },
      },
    ],
    sales: [
      {
        ref: 's',
        number: 1,
        client: 'maria',
        status: 'COMPLETED',
        internalNote: MARKERS.internalNote,
        items: [{ type: 'PRODUCT', name: 'Shampoo', quantity: 1, unitPriceCents: 1200, costCents: MARKERS.costCents }],
      },
    ],
  });
  tenant = { key: salon.keys.owner.key };
  Object.assign(ids, { client: salon.clients.maria, appointment: salon.appointments.a, payment: salon.payments.p, sale: salon.sales.s });
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
