import { randomUUID } from 'node:crypto';
import type { TestSql } from './test-context.js';

/** A timestamp as PostgreSQL reads it exactly: ISO 8601 text, microseconds allowed. */
export type TimestampText = string;

export interface SeedAppointment {
  staffId: string;
  clientId: string;
  serviceId?: string | null;
  serviceName?: string;
  startsAt: TimestampText;
  durationMin?: number;
  status?: string;
  priceCents?: number;
  code?: string;
  cancellationReason?: string | null;
  locationId?: string | null;
  rescheduledFromId?: string | null;
}

export interface SeedClient {
  name?: string;
  phone?: string | null;
  email?: string | null;
  birthDate?: string | null;
  guardianName?: string | null;
  guardianEmail?: string | null;
  notes?: string | null;
  updatedAt?: TimestampText;
}

export interface SeedPayment {
  appointmentId: string;
  status?: string;
  method?: string;
  amountCents?: number;
  paidAt?: TimestampText | null;
  instrumentData?: Record<string, unknown> | null;
  updatedAt?: TimestampText;
}

export interface SeedSaleItem {
  type?: string;
  name: string;
  serviceId?: string | null;
  quantity?: number;
  unitPriceCents: number;
  discountCents?: number;
  costCents?: number | null;
}

export interface SeedSale {
  number: number;
  clientId?: string | null;
  appointmentId?: string | null;
  status?: string;
  paymentPending?: boolean;
  discountCents?: number;
  internalNote?: string | null;
  updatedAt?: TimestampText;
  /** Written in this order of position; inserted in reverse, so that only `position` gives the order. */
  items: SeedSaleItem[];
}

/**
 * Rows of one business written straight into the tables, as the dashboard would have written
 * them: exact (microsecond) timestamps, and the stored-but-never-returned columns filled in.
 */
export class ReadSeeds {
  constructor(
    private readonly db: TestSql,
    readonly businessId: string,
  ) {}

  async staff(name = 'Ana Costa'): Promise<string> {
    const id = randomUUID();
    await this.db.query('INSERT INTO staff (id, business_id, name) VALUES ($1, $2, $3)', [id, this.businessId, name]);
    return id;
  }

  async service(name = 'Haircut', durationMin = 30, priceCents = 2500): Promise<string> {
    const id = randomUUID();
    await this.db.query('INSERT INTO services (id, business_id, name, duration_min, price_cents) VALUES ($1, $2, $3, $4, $5)', [
      id,
      this.businessId,
      name,
      durationMin,
      priceCents,
    ]);
    return id;
  }

  async client(seed: SeedClient = {}): Promise<string> {
    const id = randomUUID();
    await this.db.query(
      `INSERT INTO clients (id, business_id, name, phone, email, birth_date, guardian_name, guardian_email, consent, consent_at, notes, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, true, now(), $9, COALESCE($10::timestamptz, now()), COALESCE($10::timestamptz, now()))`,
      [
        id,
        this.businessId,
        seed.name ?? 'João Silva',
        seed.phone ?? null,
        seed.email ?? null,
        seed.birthDate ?? null,
        seed.guardianName ?? null,
        seed.guardianEmail ?? null,
        seed.notes ?? null,
        seed.updatedAt ?? null,
      ],
    );
    return id;
  }

  async appointment(seed: SeedAppointment): Promise<string> {
    const id = randomUUID();
    const durationMin = seed.durationMin ?? 30;
    await this.db.query(
      `INSERT INTO appointments (id, business_id, staff_id, service_id, service_name, client_id, status, starts_at, ends_at,
                                 duration_min, price_cents, currency, source, location_id, rescheduled_from_id, code, cancellation_reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz, $8::timestamptz + make_interval(mins => $9), $9, $10, 'EUR', 'dashboard',
               $11, $12, $13, $14)`,
      [
        id,
        this.businessId,
        seed.staffId,
        seed.serviceId ?? null,
        seed.serviceName ?? 'Haircut',
        seed.clientId,
        seed.status ?? 'CONFIRMED',
        seed.startsAt,
        durationMin,
        seed.priceCents ?? 2500,
        seed.locationId ?? null,
        seed.rescheduledFromId ?? null,
        seed.code ?? `C${randomUUID().slice(0, 7)}`,
        seed.cancellationReason ?? null,
      ],
    );
    return id;
  }

  async payment(seed: SeedPayment): Promise<string> {
    const id = randomUUID();
    await this.db.query(
      `INSERT INTO payments (id, business_id, appointment_id, channel, method, status, is_deposit, amount_cents, currency,
                             paid_at, refund_cents, instrument_data, created_at, updated_at)
       VALUES ($1, $2, $3, 'IN_PERSON', $4, $5, false, $6, 'EUR', $7::timestamptz, 0, $8::jsonb,
               COALESCE($9::timestamptz, now()), COALESCE($9::timestamptz, now()))`,
      [
        id,
        this.businessId,
        seed.appointmentId,
        seed.method ?? 'CARD',
        seed.status ?? 'PAID',
        seed.amountCents ?? 2500,
        seed.paidAt ?? null,
        seed.instrumentData === undefined || seed.instrumentData === null ? null : JSON.stringify(seed.instrumentData),
        seed.updatedAt ?? null,
      ],
    );
    return id;
  }

  async sale(seed: SeedSale): Promise<{ id: string; itemIds: string[] }> {
    const id = randomUUID();
    const items = seed.items.map((item) => {
      const quantity = item.quantity ?? 1;
      const discount = item.discountCents ?? 0;
      return { ...item, id: randomUUID(), quantity, discount, total: quantity * item.unitPriceCents - discount };
    });
    const subtotal = items.reduce((sum, item) => sum + item.total, 0);
    const discount = seed.discountCents ?? 0;
    await this.db.query(
      `INSERT INTO sales (id, business_id, number, status, client_id, appointment_id, payment_pending, subtotal_cents,
                          discount_cents, total_cents, currency, internal_note, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'EUR', $11, COALESCE($12::timestamptz, now()), COALESCE($12::timestamptz, now()))`,
      [
        id,
        this.businessId,
        seed.number,
        seed.status ?? 'COMPLETED',
        seed.clientId ?? null,
        seed.appointmentId ?? null,
        seed.paymentPending ?? false,
        subtotal,
        discount,
        subtotal - discount,
        seed.internalNote ?? null,
        seed.updatedAt ?? null,
      ],
    );
    for (const [position, item] of [...items.entries()].reverse()) {
      await this.db.query(
        `INSERT INTO sale_items (id, business_id, sale_id, position, type, name, service_id, quantity, unit_price_cents,
                                 discount_cents, total_cents, cost_cents)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          item.id,
          this.businessId,
          id,
          position + 1,
          item.type ?? 'SERVICE',
          item.name,
          item.serviceId ?? null,
          item.quantity,
          item.unitPriceCents,
          item.discount,
          item.total,
          item.costCents ?? null,
        ],
      );
    }
    return { id, itemIds: items.map((item) => item.id) };
  }
}
