import { Injectable } from '@nestjs/common';
import type { Schemas } from '#contract/contract-types.js';
import { SaleItemEntity } from '#database/entities/sale-item.entity.js';
import { SaleEntity } from '#database/entities/sale.entity.js';
import { Database } from '#database/database.js';
import { newId } from '#database/new-id.js';
import { BusinessesService } from '../businesses/businesses.service.js';
import { ClientsRepository } from '../clients/clients.repository.js';
import { validationFailed, type FieldError } from '../errors/domain-error.js';
import { buildNoticeBody } from '../notices/outbox/notice-body.js';
import { NoticesRepository } from '../notices/outbox/notices.repository.js';
import { ServicesRepository } from '../services/services.repository.js';
import { readNewSale, type NewSale } from './new-sale.js';
import { toSale } from './sale.mapper.js';
import { lineTotalCents, saleTotals } from './sale-totals.js';
import { SalesRepository } from './sales.repository.js';

/** A recorded sale as the API shows it (docs/design-record.md#d8: never costs or the internal note), with its business and notice. */
export type RecordedSale = Schemas['Sale'] & {
  business: string;
  /** The sale.created notice. */
  noticeId: string;
};

/** Sales the business records (the dashboard side; the API only reads them). */
@Injectable()
export class SalesService {
  constructor(
    private readonly database: Database,
    private readonly businesses: BusinessesService,
    private readonly sales: SalesRepository,
    private readonly clients: ClientsRepository,
    private readonly services: ServicesRepository,
    private readonly notices: NoticesRepository,
  ) {}

  /**
   * Records a sale from a sale file (see readNewSale), numbered after the business's last one, in
   * the business currency, with its sale.created notice in the same transaction (docs/design-record.md#d9).
   */
  async record(businessSlug: string, json: unknown): Promise<RecordedSale> {
    const input = readNewSale(json);
    const business = await this.businesses.getBySlug(businessSlug);
    const now = new Date();
    const saleId = newId();
    const items = input.items.map((item, position) =>
      Object.assign(new SaleItemEntity(), {
        id: newId(),
        businessId: business.id,
        saleId,
        position,
        type: item.type,
        name: item.name,
        serviceId: item.serviceId,
        quantity: item.quantity,
        unitPriceCents: item.unitPriceCents,
        discountCents: item.discountCents,
        totalCents: lineTotalCents(item),
        costCents: item.costCents,
      }),
    );
    const { subtotalCents, discountCents, totalCents } = saleTotals(items, input.discountCents);

    return this.database.transactional(async () => {
      await this.checkReferences(business.id, input);
      const sale = Object.assign(new SaleEntity(), {
        id: saleId,
        businessId: business.id,
        number: await this.sales.nextNumber(business.id),
        status: input.status,
        clientId: input.clientId,
        appointmentId: input.appointmentId,
        paymentPending: input.paymentPending,
        subtotalCents,
        discountCents,
        totalCents,
        currency: business.currency,
        internalNote: input.internalNote,
        createdAt: now,
        updatedAt: now,
      });
      await this.sales.insert(sale, items);
      const notice = buildNoticeBody({ type: 'sale.created', businessSlug: business.slug, subjectId: sale.id, occurredAt: now });
      await this.notices.record(business.id, notice);
      const { id, ...shown } = toSale({ ...sale, items });
      return { id, business: business.slug, ...shown, noticeId: notice.id };
    });
  }

  /** Every id the sale names must be one of this business's; all misses are reported at once. */
  private async checkReferences(businessId: string, sale: NewSale): Promise<void> {
    const errors: FieldError[] = [];
    if (sale.clientId !== null && !(await this.clients.findById(businessId, sale.clientId))) {
      errors.push({ path: '/clientId', message: 'is not a client of this business' });
    }
    if (sale.appointmentId !== null && !(await this.sales.appointmentExists(businessId, sale.appointmentId))) {
      errors.push({ path: '/appointmentId', message: 'is not an appointment of this business' });
    }
    for (const [index, item] of sale.items.entries()) {
      if (item.serviceId !== null && !(await this.services.findById(businessId, item.serviceId))) {
        errors.push({ path: `/items/${index}/serviceId`, message: 'is not a service of this business' });
      }
    }
    if (errors.length > 0) throw validationFailed(errors);
  }
}
