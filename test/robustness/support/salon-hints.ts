import fc from 'fast-check';
import type { OperationHints } from './generated-requests.js';
import { anyString, type Hints } from './schema-arbitraries.js';
import { BOOKING_YEAR, SEEDED_YEAR, type RobustSalon } from './robust-salon.js';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * A start inside working hours (08:00–20:00 Lisbon) in one of the ten booking years, on a
 * 15-minute grid, written with one of several offsets: mostly a free slot.
 */
export const futureSlot = (): fc.Arbitrary<string> =>
  fc.oneof({ weight: 12, arbitrary: workingSlot() }, { weight: 1, arbitrary: lastDaySlot() });

/** Midnight UTC of a day of January of a booking year, with a random offset spelling. */
const januaryDay = (first: number, last: number): fc.Arbitrary<string> =>
  fc
    .tuple(fc.integer({ min: first, max: last }), fc.constantFrom('Z', '+00:00', '-03:00'))
    .map(([day, offset]) => `${BOOKING_YEAR + 5}-01-${pad(day)}T00:00:00${offset}`);

/** Working time on the last day of the calendar, in offsets that carry it into the year 10000 (UTC). */
const lastDaySlot = (): fc.Arbitrary<string> =>
  fc
    .tuple(fc.integer({ min: 18, max: 23 }), fc.integer({ min: 8, max: 12 }))
    .map(([hour, offset]) => `9999-12-31T${pad(hour)}:30:00-${pad(offset)}:00`);

const workingSlot = (): fc.Arbitrary<string> =>
  fc
    .record({
      day: fc.integer({ min: 0, max: 3650 }),
      quarter: fc.integer({ min: 0, max: 30 }),
      offset: fc.constantFrom(0, 0, 1, -3),
      fraction: fc.constantFrom('', '.000', '.5'),
    })
    .map(({ day, quarter, offset, fraction }) => {
      // 09:00–16:30 UTC is working time in Lisbon in summer and in winter.
      const utc = new Date(Date.UTC(BOOKING_YEAR, 0, 1 + day, 9, quarter * 15));
      const local = new Date(utc.getTime() + offset * 3_600_000);
      const zone = offset === 0 ? 'Z' : `${offset > 0 ? '+' : '-'}${pad(Math.abs(offset))}:00`;
      return `${local.toISOString().slice(0, 19)}${fraction}${zone}`;
    });

/** Phones that libphonenumber takes for real (Portuguese mobiles), typed in several ways. */
export const realPhone = (): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom('91', '92', '93', '96'), fc.integer({ min: 0, max: 9_999_999 }), fc.constantFrom('plain', 'spaced', 'dotted'))
    .map(([prefix, n, style]) => {
      const rest = pad(n, 7);
      if (style === 'spaced') return `+351 ${prefix}${rest.slice(0, 1)} ${rest.slice(1, 4)} ${rest.slice(4)}`;
      if (style === 'dotted') return `+351.${prefix}.${rest}`;
      return `+351${prefix}${rest}`;
    });

export const uniqueEmail = (): fc.Arbitrary<string> => fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((n) => `c${n}@example.com`);

/** Names people have: accents, right-to-left scripts, emoji, combining marks, CJK. */
export const realName = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      'João Silva',
      'Zoë Åström',
      'محمد علي',
      'דנה לוי',
      '李小龙',
      'Ana 👩‍🔬 Costa',
      'Ame\u0301lie',
      'O\u2019Brien',
      'Nguyễn Văn A',
    ),
    fc.string({ unit: 'grapheme', minLength: 2, maxLength: 40 }),
    anyString({ minLength: 2, maxLength: 40 }),
  );

export const pastDate = (): fc.Arbitrary<string> =>
  fc
    .date({ min: new Date('1901-01-01T00:00:00Z'), max: new Date('2020-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));

/** Dates around the seeded appointments, so lists have something to page through. */
const aroundSeeded = (yearOffset: number): fc.Arbitrary<string> =>
  fc.integer({ min: 0, max: 364 }).map((day) => new Date(Date.UTC(SEEDED_YEAR + yearOffset, 0, 1 + day)).toISOString());

const recent = (): fc.Arbitrary<string> =>
  fc.integer({ min: -400, max: 2 }).map((day) => new Date(Date.now() + day * 86_400_000).toISOString());

/** Cursors the API issued, collected before the run; listed per list operation. */
export type CursorPool = Record<string, string[]>;

/** What makes generated requests meet this salon's data: its ids, free slots, real phones. */
/** Addresses where nothing listens, on this machine (tests allow private addresses): sends fail at once. */
const hookUrl = (): fc.Arbitrary<string> => fc.integer({ min: 0, max: 999 }).map((n) => `http://127.0.0.1:9/generated-${n}`);

export function salonHints(salon: RobustSalon, cursors: CursorPool): Record<string, OperationHints> {
  const staff = fc.constantFrom(salon.staff.ana, salon.staff.ana, salon.staff.rui, salon.staff.bea);
  const services = fc.constantFrom(salon.services.cut, salon.services.cut, salon.services.color, salon.services.retired);
  const appointments = fc.constantFrom(...salon.activeAppointments, ...salon.inactiveAppointments);
  const endpoints = fc.constantFrom(salon.endpoints.hook, salon.endpoints.spare);
  const events = salon.events.length > 0 ? fc.constantFrom(...salon.events) : fc.uuid();
  const cursorOf = (operationId: string): Hints => {
    const pool = cursors[operationId] ?? [];
    return pool.length > 0 ? { cursor: fc.constantFrom(...pool) } : {};
  };
  const emailOrEmpty = fc.oneof({ weight: 4, arbitrary: uniqueEmail() }, { weight: 1, arbitrary: fc.constant('') });
  return {
    listAppointments: {
      query: {
        from: aroundSeeded(-1),
        to: aroundSeeded(1),
        staffId: staff,
        limit: fc.integer({ min: 1, max: 100 }),
        ...cursorOf('listAppointments'),
      },
    },
    createAppointment: {
      body: {
        '/staffId': staff,
        '/serviceId': services,
        '/startAt': futureSlot(),
        '/client/id': fc.constantFrom(...salon.clients),
        '/client/name': realName(),
        '/client/phone': realPhone(),
        '/client/email': emailOrEmpty,
      },
    },
    getAppointment: { ids: appointments },
    updateAppointment: { ids: appointments },
    rescheduleAppointment: { ids: appointments, body: { '/startAt': futureSlot(), '/staffId': staff } },
    cancelAppointment: {
      ids: appointments,
      body: { '/reason': fc.constantFrom('Client asked to cancel by phone.', 'Doente', 'مريض', '🤒 sick') },
    },
    listClients: { query: { updatedSince: recent(), ...cursorOf('listClients') } },
    createClient: {
      body: {
        '/name': realName(),
        '/phone': realPhone(),
        '/email': emailOrEmpty,
        '/birthDate': pastDate(),
        '/guardianEmail': emailOrEmpty,
        '/guardianName': realName(),
      },
    },
    getClient: { ids: fc.constantFrom(...salon.clients) },
    listPayments: { query: { updatedSince: recent(), ...cursorOf('listPayments') } },
    getPayment: { ids: fc.constantFrom(...salon.payments) },
    listSales: { query: { updatedSince: recent(), ...cursorOf('listSales') } },
    getSale: { ids: fc.constantFrom(...salon.sales) },
    listStaff: { query: { serviceId: services, ...cursorOf('listStaff') } },
    getStaffMember: { ids: staff },
    getAvailability: {
      query: {
        serviceId: services,
        staffId: staff,
        // Days of one January, so most ranges are valid (to after from, within 31 days) and some reversed.
        from: januaryDay(1, 10),
        to: januaryDay(4, 31),
      },
    },
    createWebhookEndpoint: { body: { '/url': hookUrl() } },
    getWebhookEndpoint: { ids: endpoints },
    updateWebhookEndpoint: { ids: endpoints, body: { '/url': hookUrl() } },
    // One endpoint of its own: the others are still to be rotated, tested and read.
    deleteWebhookEndpoint: { ids: fc.constant(salon.endpoints.doomed) },
    rotateWebhookEndpointSecret: { ids: endpoints },
    testWebhookEndpoint: { ids: endpoints },
    listWebhookDeliveries: { ids: endpoints, query: cursorOf('listWebhookDeliveries') },
    listEvents: { query: { createdSince: recent(), ...cursorOf('listEvents') } },
    getEvent: { ids: events },
    redeliverEvent: { ids: events, body: { '/endpointId': endpoints } },
  };
}
