import { Injectable } from '@nestjs/common';
import type { ClientEntity } from '#database/entities/client.entity.js';
import { Database } from '#database/database.js';
import type { FieldError } from '../errors/domain-error.js';
import { notFound, validationFailed } from '../errors/domain-error.js';
import { buildNoticeBody } from '../notices/outbox/notice-body.js';
import { NoticesRepository } from '../notices/outbox/notices.repository.js';
import { checkBirthDate } from './birth-date.js';
import { ClientsRepository } from './clients.repository.js';
import { BusinessCountryRepository } from './business-country.repository.js';
import { newClientRow } from './new-client-row.js';
import { isNationalForm, normalisePhone } from './phone.js';

export interface NewClient {
  name: string;
  phone: string;
  email?: string;
  birthDate?: string | null;
  guardianName?: string | null;
  guardianEmail?: string | null;
  consent: boolean;
  /** The partner's own data, checked by the contract (docs/design-record.md#d23). */
  metadata?: Record<string, string>;
}

/** The new client of a booking (Form B of POST /appointments). */
export interface NewBookingClient {
  name: string;
  phone: string;
  email?: string;
  /** The new client's own metadata (not the appointment's; docs/design-record.md#d23). */
  metadata?: Record<string, string>;
}

export interface BusinessRef {
  businessId: string;
  businessSlug: string;
}

/** Characters as the contract's minLength counts them: code points, so an emoji is one. */
const characters = (text: string): number => [...text].length;

const emptyToNull = (value: string | null | undefined): string | null =>
  value === undefined || value === null || value.trim() === '' ? null : value.trim();

@Injectable()
export class ClientsService {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly notices: NoticesRepository,
    private readonly database: Database,
    private readonly countries: BusinessCountryRepository,
  ) {}

  /**
   * The country a phone is read in: the business's when it is written in national form
   * (docs/design-record.md#d23), else null (read no row: `+` carries its country code).
   */
  async phoneCountry(businessId: string, phone: string): Promise<string | null> {
    return isNationalForm(phone) ? this.countries.countryOf(businessId) : null;
  }

  /**
   * Creates a client and its client.created notice. An existing client (same phone, or same
   * e-mail in any case) is never changed: the unique indexes refuse the row as CLIENT_EXISTS.
   */
  async create(business: BusinessRef, input: NewClient): Promise<ClientEntity> {
    const errors: FieldError[] = [];
    // As for a booking's new client: the stored name is trimmed, so spaces do not count.
    if (characters(input.name.trim()) < 2) errors.push({ path: '/name', message: 'must have at least 2 characters besides spaces' });
    const phone = normalisePhone(input.phone, await this.phoneCountry(business.businessId, input.phone));
    if (!phone.ok) errors.push({ path: '/phone', message: phone.reason });
    const birthDate = checkBirthDate(input.birthDate);
    if (!birthDate.ok) errors.push({ path: '/birthDate', message: birthDate.reason });
    if (!input.consent) errors.push({ path: '/consent', message: 'must be true' });
    if (errors.length > 0 || !phone.ok || !birthDate.ok) throw validationFailed(errors);

    const now = new Date();
    const client = newClientRow(
      {
        businessId: business.businessId,
        name: input.name.trim(),
        phone: phone.e164,
        email: emptyToNull(input.email),
        birthDate: birthDate.value,
        guardianName: emptyToNull(input.guardianName),
        guardianEmail: emptyToNull(input.guardianEmail),
        consent: true,
        metadata: input.metadata ?? {},
      },
      now,
    );
    await this.database.transactional(async () => {
      await this.clients.insert(client);
      await this.notices.record(
        business.businessId,
        buildNoticeBody({ type: 'client.created', businessSlug: business.businessSlug, subjectId: client.id, occurredAt: now }),
      );
    });
    return client;
  }

  /**
   * The new client of a booking (Form B), checked and built but not stored, so that a booking
   * refuses bad input before it looks anything up (docs/design-record.md#d2). The phone and e-mail rules are create's;
   * consent and guardian fields are not collected by a booking. Errors point under /client.
   * `country` is phoneCountry's: the business's when the phone is written in national form.
   */
  prepareForBooking(businessId: string, input: NewBookingClient, now: Date = new Date(), country: string | null = null): ClientEntity {
    const errors: FieldError[] = [];
    const name = input.name.trim();
    if (characters(name) < 2) errors.push({ path: '/client/name', message: 'must have at least 2 characters besides spaces' });
    const phone = normalisePhone(input.phone, country);
    if (!phone.ok) errors.push({ path: '/client/phone', message: phone.reason });
    if (errors.length > 0 || !phone.ok) throw validationFailed(errors);
    return newClientRow(
      { businessId, name, phone: phone.e164, email: emptyToNull(input.email), consent: false, metadata: input.metadata ?? {} },
      now,
    );
  }

  /**
   * Stores a client prepared for a booking, with its client.created notice. An existing client
   * (same phone, or same e-mail in any case) is refused as CLIENT_EXISTS and left unchanged.
   */
  async insertPrepared(business: BusinessRef, client: ClientEntity): Promise<void> {
    await this.database.transactional(async () => {
      await this.clients.insert(client);
      await this.notices.record(
        business.businessId,
        buildNoticeBody({
          type: 'client.created',
          businessSlug: business.businessSlug,
          subjectId: client.id,
          occurredAt: client.createdAt,
        }),
      );
    });
  }

  async get(businessId: string, clientId: string): Promise<ClientEntity> {
    const client = await this.clients.findById(businessId, clientId);
    if (!client) throw notFound('The client');
    return client;
  }
}
