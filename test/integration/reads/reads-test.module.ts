import { AppointmentReadsModule } from '#core/appointments/appointment-reads.module.js';
import { ClientReadsModule } from '#core/clients/client-reads.module.js';
import { PaymentReadsModule } from '#core/payments/payment-reads.module.js';
import { SaleReadsModule } from '#core/sales/sale-reads.module.js';
import { startTestContext, type TestContext } from '../../utils/test-context.js';

/** The read services and repositories on the test database, as the API wires them. */
export function startReads(): Promise<TestContext> {
  return startTestContext({ imports: [AppointmentReadsModule, ClientReadsModule, PaymentReadsModule, SaleReadsModule] });
}
