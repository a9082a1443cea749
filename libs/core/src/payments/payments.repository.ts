import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type QueryDeepPartialEntity } from 'typeorm';
import { PaymentEntity } from '#database/entities/payment.entity.js';

@Injectable()
export class PaymentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(payment: PaymentEntity, manager?: EntityManager): Promise<void> {
    // TypeORM's insert type cannot describe a jsonb column typed Record<string, unknown>
    // (instrumentData); the entity is complete, so the cast loses nothing.
    await (manager ?? this.dataSource.manager)
      .getRepository(PaymentEntity)
      .insert(payment as QueryDeepPartialEntity<PaymentEntity>);
  }

  /** Whether the appointment is one of this business's (a payment is always for one). */
  async appointmentExists(businessId: string, appointmentId: string, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.dataSource.manager).query(
      'SELECT 1 FROM appointments WHERE business_id = $1 AND id = $2',
      [businessId, appointmentId],
    );
    return rows.length > 0;
  }
}
