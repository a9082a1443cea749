import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { AppointmentWritesModule } from '#core/appointments/appointment-writes.module.js';
import { AppointmentWritesService } from '#core/appointments/appointment-writes.service.js';
import { buildNoticeBody } from '#core/notices/outbox/notice-body.js';
import { createEndpoint, emptyNoticesQueue } from '../../utils/notice-setup.js';
import { NoticeReceiver, eventually } from '../../utils/notice-receiver.js';
import { seed, type SeededBusiness } from '../../utils/seed.js';
import { testConfig } from '../../utils/test-config.js';
import { startTestContext, type TestContext, type TestSql } from '../../utils/test-context.js';
import { TestSmtpServer, type ReceivedMail } from '../../utils/test-smtp-server.js';

/**
 * One outbox for a change's side effects (docs/design-record.md#write-path): a booking commits one notice row, and the
 * worker derives from that row both the signed notice and the e-mails (texts and invitation
 * written in the worker). Rows queued in the old form (a notice without e-mails, beside the
 * e-mails the API used to write) still go out, each once.
 */
const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '08:00', end: '20:00' }));

let smtp: TestSmtpServer;
let receiver: NoticeReceiver;
let worker: INestApplicationContext;
let writer: TestContext;
let db: TestSql;
let salon: SeededBusiness;
const clientEmail = `joao-${randomUUID().slice(0, 8)}@one-outbox.example`;

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  receiver = await NoticeReceiver.start();
  const settings = { SMTP_URL: smtp.url };
  await emptyNoticesQueue(testConfig(settings));
  ({ app: worker, sql: db } = await startTestContext({ app: 'worker', config: settings }));
  writer = await startTestContext({ imports: [AppointmentWritesModule] });
  salon = await seed({
    timezone: 'UTC',
    locale: 'en',
    notificationEmail: `desk-${randomUUID().slice(0, 8)}@one-outbox.example`,
    services: [{ ref: 'cut', name: 'Cut', durationMin: 30, priceCents: 2000 }],
    staff: [{ ref: 'ana', name: 'Ana', workingHours: EVERY_DAY }],
    clients: [{ ref: 'joao', name: 'João', phone: '+351912000101', email: clientEmail, consent: true }],
  });
  await createEndpoint(worker, { id: salon.id, slug: salon.slug }, receiver.url('/hook'), ['appointment.created', 'appointment.cancelled']);
});
afterAll(async () => {
  await writer?.close();
  await worker?.close();
  await receiver?.close();
  await smtp?.close();
});

const mailsAbout = (subjectPart: string) => (mail: ReceivedMail) => (mail.message.headers.subject ?? '').includes(subjectPart);

describe('one outbox row per change', () => {
  it('gives both the notice and the e-mails of a booking, written by the worker from that row', async () => {
    const view = await writer.app
      .get(AppointmentWritesService)
      .book(
        { businessId: salon.id, businessSlug: salon.slug },
        { staffId: salon.staff.ana, serviceId: salon.services.cut, startAt: '2035-06-04T09:00:00Z', client: { id: salon.clients.joao } },
      );

    const rows = await db.query<{ id: string; emails: unknown }[]>(`SELECT id, emails FROM notices WHERE payload->'data'->>'id' = $1`, [
      view.id,
    ]);
    expect(rows).toEqual([{ id: expect.any(String), emails: { kind: 'APPOINTMENT_BOOKED', status: 'CONFIRMED' } }]);
    const [notice] = rows;

    await receiver.waitFor(() => receiver.withId(notice.id).length === 1);
    const toClient = await smtp.waitFor((mail) => mailsAbout('Appointment')(mail) && mail.to.includes(clientEmail));
    expect(toClient.message.headers.subject).toContain('Cut');
    const emails = await eventually(async () => {
      const sent = await db.query<{ audience: string; kind: string; sent_at: Date | null }[]>(
        'SELECT audience, kind, sent_at FROM outbound_emails WHERE appointment_id = $1 ORDER BY audience',
        [view.id],
      );
      return sent.length === 2 && sent.every((email) => email.sent_at !== null) ? sent : null;
    });
    expect(emails.map((email) => [email.audience, email.kind])).toEqual([
      ['BUSINESS', 'APPOINTMENT_BOOKED'],
      ['CLIENT', 'APPOINTMENT_BOOKED'],
    ]);
    expect(await db.query('SELECT count(*)::int AS n FROM notice_deliveries WHERE notice_id = $1', [notice.id])).toEqual([{ n: 1 }]);
  });

  it('still delivers rows queued in the old form: the notice, and the e-mail written beside it, each once', async () => {
    // A pipeline state no fixture can express: what the API wrote before the one outbox, not yet relayed.
    const [appointment] = await db.query<{ id: string; starts_at: Date; ends_at: Date }[]>(
      `INSERT INTO appointments (id, business_id, staff_id, service_id, service_name, client_id, status, starts_at, ends_at,
                                 duration_min, price_cents, currency, source, code, cancellation_reason, cancelled_at)
       VALUES ($1, $2, $3, $4, 'Cut', $5, 'CANCELLED', '2035-06-05T09:00:00Z', '2035-06-05T09:30:00Z', 30, 2000, 'EUR', 'api',
               $6, 'Old form', now())
       RETURNING id, starts_at, ends_at`,
      [randomUUID(), salon.id, salon.staff.ana, salon.services.cut, salon.clients.joao, `OLD${randomUUID().slice(0, 5).toUpperCase()}`],
    );
    const body = buildNoticeBody({
      type: 'appointment.cancelled',
      businessSlug: salon.slug,
      subjectId: appointment.id,
      occurredAt: new Date(),
    });
    const subject = `Old form e-mail ${randomUUID().slice(0, 8)}`;
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO notices (id, business_id, type, payload) VALUES ($1, $2, $3, $4)', [body.id, salon.id, body.type, body]);
      await tx.query(
        `INSERT INTO outbound_emails (id, business_id, appointment_id, kind, audience, recipient, sender_name, reply_to, subject,
                                      body_text, calendar_event, calendar_method)
         VALUES ($1, $2, $3, 'APPOINTMENT_CANCELLED', 'CLIENT', $4, 'One Outbox Salon', NULL, $5, 'Written by the API of old.', $6, 'CANCEL')`,
        [
          randomUUID(),
          salon.id,
          appointment.id,
          clientEmail,
          subject,
          {
            method: 'CANCEL',
            uid: `${appointment.id}@business-scheduling-api`,
            sequence: 1,
            start: appointment.starts_at.toISOString(),
            end: appointment.ends_at.toISOString(),
            status: 'CANCELLED',
            title: 'Cut · One Outbox Salon',
            description: 'Old form',
            organizer: { name: 'One Outbox Salon', email: 'desk@one-outbox.example' },
            attendee: { name: 'João', email: clientEmail },
          },
        ],
      );
    });

    await receiver.waitFor(() => receiver.withId(body.id).length === 1);
    const mail = await smtp.waitFor(mailsAbout(subject));
    expect(mail.to).toContain(clientEmail);
    // The relay took the notice (its delivery exists) and wrote no e-mail of its own for it.
    expect(await db.query('SELECT count(*)::int AS n FROM notice_deliveries WHERE notice_id = $1', [body.id])).toEqual([{ n: 1 }]);
    expect(await db.query('SELECT count(*)::int AS n FROM outbound_emails WHERE appointment_id = $1', [appointment.id])).toEqual([
      { n: 1 },
    ]);
  });
});
