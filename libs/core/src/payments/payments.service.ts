import { Injectable } from '@nestjs/common';
import {
  PAYMENT_CHANNELS,
  PAYMENT_METHODS,
  PaymentEntity,
  type PaymentChannel,
  type PaymentMethod,
  type PaymentStatus,
} from '#database/entities/payment.entity.js';
import { Database } from '#database/database.js';
import { newId } from '#database/new-id.js';
import { BusinessesService } from '../businesses/businesses.service.js';
import { DomainError, validationFailed, type FieldError } from '../errors/domain-error.js';
import { buildNoticeBody } from '../notices/outbox/notice-body.js';
import { NoticesRepository } from '../notices/outbox/notices.repository.js';
import { PaymentsRepository } from './payments.repository.js';
import { isUuid } from '../ids/uuid.js';

/**
 * The statuses a payment can be recorded with. The later ones (PARTIALLY_REFUNDED, REFUNDED) are
 * moves of a payment that exists, not how one starts.
 */
export const RECORDABLE_PAYMENT_STATUSES = ['PENDING', 'PAID', 'FAILED', 'CANCELLED'] as const satisfies readonly PaymentStatus[];
const MAX_CENTS = 2_147_483_647;

export interface NewPayment {
  businessSlug: string;
  appointmentId: string;
  amountCents: number;
  method: string;
  /** Default PAID: recording a payment at the desk usually means the money is in. */
  status?: string;
  /** Default IN_PERSON: the dashboard records what the desk took. */
  channel?: string;
}

export interface RecordedPayment {
  id: string;
  business: string;
  appointmentId: string;
  channel: PaymentChannel;
  method: PaymentMethod;
  status: PaymentStatus;
  amountCents: number;
  currency: string;
  paidAt: string | null;
  createdAt: string;
  /** The payment.received notice, when the payment is PAID. */
  noticeId: string | null;
}

function oneOf<T extends string>(values: readonly T[], value: string): T | undefined {
  return values.find((known) => known === value);
}

/** Payments the business records (the dashboard side; the API only reads them). */
@Injectable()
export class PaymentsService {
  constructor(
    private readonly database: Database,
    private readonly businesses: BusinessesService,
    private readonly payments: PaymentsRepository,
    private readonly notices: NoticesRepository,
  ) {}

  /**
   * Records a payment for an appointment, in the business currency. A payment that is PAID is a
   * payment received: its payment.received notice commits with it (docs/design-record.md#d9).
   */
  async record(input: NewPayment): Promise<RecordedPayment> {
    const errors: FieldError[] = [];
    const method = oneOf(PAYMENT_METHODS, input.method);
    const status = oneOf(RECORDABLE_PAYMENT_STATUSES, input.status ?? 'PAID');
    const channel = oneOf(PAYMENT_CHANNELS, input.channel ?? 'IN_PERSON');
    if (!method) errors.push({ path: '/method', message: `must be one of ${PAYMENT_METHODS.join(', ')}` });
    if (!status) errors.push({ path: '/status', message: `must be one of ${RECORDABLE_PAYMENT_STATUSES.join(', ')}` });
    if (!channel) errors.push({ path: '/channel', message: `must be one of ${PAYMENT_CHANNELS.join(', ')}` });
    if (!Number.isInteger(input.amountCents) || input.amountCents < 0 || input.amountCents > MAX_CENTS) {
      errors.push({ path: '/amount', message: `must be a whole number of cents from 0 to ${MAX_CENTS}` });
    }
    if (errors.length > 0 || !method || !status || !channel) throw validationFailed(errors);

    const business = await this.businesses.getBySlug(input.businessSlug);
    const now = new Date();
    const payment = Object.assign(new PaymentEntity(), {
      id: newId(),
      businessId: business.id,
      appointmentId: input.appointmentId,
      channel,
      method,
      status,
      isDeposit: false,
      amountCents: input.amountCents,
      currency: business.currency,
      paidAt: status === 'PAID' ? now : null,
      refundCents: 0,
      instrumentData: null,
      createdAt: now,
      updatedAt: now,
    });
    const noticeId = await this.database.transactional(async () => {
      const known = isUuid(input.appointmentId) && (await this.payments.appointmentExists(business.id, input.appointmentId));
      if (!known) throw new DomainError('NOT_FOUND', `${business.slug} has no appointment ${input.appointmentId}.`);
      await this.payments.insert(payment);
      if (status !== 'PAID') return null;
      const notice = buildNoticeBody({ type: 'payment.received', businessSlug: business.slug, subjectId: payment.id, occurredAt: now });
      await this.notices.record(business.id, notice);
      return notice.id;
    });
    return {
      id: payment.id,
      business: business.slug,
      appointmentId: payment.appointmentId,
      channel,
      method,
      status,
      amountCents: payment.amountCents,
      currency: payment.currency,
      paidAt: payment.paidAt?.toISOString() ?? null,
      createdAt: now.toISOString(),
      noticeId,
    };
  }
}
