import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ConfigModule } from '#config/config.module.js';
import { AppointmentReadsModule } from '#core/appointments/appointment-reads.module.js';
import { ClientReadsModule } from '#core/clients/client-reads.module.js';
import { PaymentReadsModule } from '#core/payments/payment-reads.module.js';
import { SaleReadsModule } from '#core/sales/sale-reads.module.js';
import { DatabaseModule } from '#database/database.module.js';
import { testConfig } from '../../utils/test-config.js';

/** The read services and repositories on the test database, as the API wires them. */
@Module({
  imports: [
    ConfigModule.forRoot(testConfig()),
    DatabaseModule.forRoot('reads-integration-test'),
    AppointmentReadsModule,
    ClientReadsModule,
    PaymentReadsModule,
    SaleReadsModule,
  ],
})
class ReadsTestModule {}

export function startReads(): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(ReadsTestModule, { logger: ['error'] });
}

/** A bare business row: these tests need no members or keys. */
export async function insertBusiness(db: DataSource): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO businesses (id, slug, name, timezone, country, currency, plan) VALUES ($1, $2, 'Reads', 'Europe/Lisbon', 'PT', 'EUR', 'TEAM')`,
    [id, `reads-${id.slice(0, 12)}`],
  );
  return id;
}
