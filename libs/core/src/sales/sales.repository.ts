import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SaleItemEntity } from '#database/entities/sale-item.entity.js';
import { SaleEntity } from '#database/entities/sale.entity.js';

@Injectable()
export class SalesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The number the business's next sale gets. Takes a transaction-scoped lock per business, so
   * two sales recorded at once are numbered one after the other instead of clashing on
   * sales_business_number_key; hence the caller's transaction is required, and the sale must be
   * inserted in it.
   */
  async nextNumber(businessId: string, manager: EntityManager): Promise<number> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('sales.number:' || $1, 0))`, [businessId]);
    const rows: { next: number }[] = await manager.query(
      `SELECT COALESCE(MAX(number), 0) + 1 AS next FROM sales WHERE business_id = $1`,
      [businessId],
    );
    return Number(rows[0].next);
  }

  /** Inserts a sale and its items, in item order. */
  async insert(sale: SaleEntity, items: SaleItemEntity[], manager?: EntityManager): Promise<void> {
    const m = manager ?? this.dataSource.manager;
    await m.getRepository(SaleEntity).insert(sale);
    if (items.length > 0) await m.getRepository(SaleItemEntity).insert(items);
  }

  /** Whether the appointment is one of this business's. */
  async appointmentExists(businessId: string, appointmentId: string, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.dataSource.manager).query(
      'SELECT 1 FROM appointments WHERE business_id = $1 AND id = $2',
      [businessId, appointmentId],
    );
    return rows.length > 0;
  }
}
