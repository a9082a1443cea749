import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import type { ServiceEntity } from '#database/entities/service.entity.js';
import { defineStatement } from '#database/statement.js';

const SERVICE_COLUMNS = `id, business_id AS "businessId", name, duration_min AS "durationMin", price_cents AS "priceCents", category,
       active, created_at AS "createdAt", updated_at AS "updatedAt"`;

const SERVICES_OF_BUSINESS = defineStatement<[businessId: string], ServiceEntity>({
  name: 'services_of_business',
  text: `SELECT ${SERVICE_COLUMNS} FROM services WHERE business_id = $1 ORDER BY name, id`,
});

const SERVICE_BY_ID = defineStatement<[businessId: string, id: string], ServiceEntity>({
  name: 'service_by_id',
  text: `SELECT ${SERVICE_COLUMNS} FROM services WHERE business_id = $1 AND id = $2`,
});

const INSERT_SERVICE = defineStatement<
  [
    id: string,
    businessId: string,
    name: string,
    durationMin: number,
    priceCents: number,
    category: string | null,
    active: boolean,
    createdAt: Date,
    updatedAt: Date,
  ]
>({
  name: 'insert_service',
  text: `INSERT INTO services (id, business_id, name, duration_min, price_cents, category, active, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
});

@Injectable()
export class ServicesRepository {
  constructor(private readonly database: Database) {}

  /** Every service of the business, by name: a catalogue is small, so it is not paginated. */
  listByBusiness(businessId: string): Promise<ServiceEntity[]> {
    return this.database.rows(SERVICES_OF_BUSINESS, [businessId]);
  }

  findById(businessId: string, serviceId: string): Promise<ServiceEntity | null> {
    return this.database.maybeOne(SERVICE_BY_ID, [businessId, serviceId]);
  }

  async insert(service: ServiceEntity): Promise<void> {
    await this.database.execute(INSERT_SERVICE, [
      service.id,
      service.businessId,
      service.name,
      service.durationMin,
      service.priceCents,
      service.category,
      service.active,
      service.createdAt,
      service.updatedAt,
    ]);
  }
}
