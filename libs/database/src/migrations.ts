import type { MigrationInterface } from 'typeorm';
import { Initial1795298437629 } from './migrations/1795298437629-initial.js';
import { OutboundEmails1795299768037 } from './migrations/1795299768037-outbound-emails.js';
import { NoticeDeliveryIndexes1795300071726 } from './migrations/1795300071726-notice-delivery-indexes.js';
import { OutboundEmailCalendarEvent1795309809351 } from './migrations/1795309809351-outbound-email-calendar-event.js';
import { Discovery1795400000000 } from './migrations/1795400000000-discovery.js';
import { WebhookEndpoints1795493665431 } from './migrations/1795493665431-webhook-endpoints.js';
import { TestMode1795628984329 } from './migrations/1795628984329-test-mode.js';
import { NoticeEmails1795700000000 } from './migrations/1795700000000-notice-emails.js';
import { IdempotencyClaims1795710614779 } from './migrations/1795710614779-idempotency-claims.js';
import { SecretsKeyChecks1795720000000 } from './migrations/1795720000000-secrets-key-checks.js';
import { ApiVersions1795730000000 } from './migrations/1795730000000-api-versions.js';
import { Metadata1795741000000 } from './migrations/1795741000000-metadata.js';
import { AppointmentListOrders1795742000000 } from './migrations/1795742000000-appointment-list-orders.js';
import { Console1795750000000 } from './migrations/1795750000000-console.js';
import { ApiKeyLastUsed1795760000000 } from './migrations/1795760000000-api-key-last-used.js';
import { ApiKeyOrigin1795770000000 } from './migrations/1795770000000-api-key-origin.js';
import { ChangeClocks1795780000000 } from './migrations/1795780000000-change-clocks.js';
import { DeliveryAttemptExchanges1795790000000 } from './migrations/1795790000000-delivery-attempt-exchanges.js';
import { ApiKeyExpiry1795800000000 } from './migrations/1795800000000-api-key-expiry.js';
import { ConsoleAuditSignIns1795810000000 } from './migrations/1795810000000-console-audit-sign-ins.js';
import { ConsoleFlashes1795820000000 } from './migrations/1795820000000-console-flashes.js';
import { Oauth1795830000000 } from './migrations/1795830000000-oauth.js';
import { PublishedApiVersions1795835000000 } from './migrations/1795835000000-published-api-versions.js';

/** A TypeORM migration class, as listed here and in an extension's descriptor. */
export type MigrationClass = new () => MigrationInterface;

// The core's migrations, in order; the data source runs the extensions' after them (see
// buildDataSourceOptions). Listed by class (not by glob) so the same list works from the
// TypeScript sources under Jest and from the compiled tree.
export const MIGRATIONS: readonly MigrationClass[] = [
  Initial1795298437629,
  OutboundEmails1795299768037,
  NoticeDeliveryIndexes1795300071726,
  OutboundEmailCalendarEvent1795309809351,
  Discovery1795400000000,
  WebhookEndpoints1795493665431,
  TestMode1795628984329,
  NoticeEmails1795700000000,
  IdempotencyClaims1795710614779,
  SecretsKeyChecks1795720000000,
  ApiVersions1795730000000,
  Metadata1795741000000,
  AppointmentListOrders1795742000000,
  Console1795750000000,
  ApiKeyLastUsed1795760000000,
  ApiKeyOrigin1795770000000,
  ChangeClocks1795780000000,
  DeliveryAttemptExchanges1795790000000,
  ApiKeyExpiry1795800000000,
  ConsoleAuditSignIns1795810000000,
  ConsoleFlashes1795820000000,
  Oauth1795830000000,
  PublishedApiVersions1795835000000,
];
