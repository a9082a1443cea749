import { ApiKeyEntity } from './entities/api-key.entity.js';
import { AppointmentEntity } from './entities/appointment.entity.js';
import { BusinessChangeClockEntity } from './entities/business-change-clock.entity.js';
import { BusinessEntity } from './entities/business.entity.js';
import { ConsoleAuditEntryEntity } from './entities/console-audit-entry.entity.js';
import { ConsoleFlashEntity } from './entities/console-flash.entity.js';
import { ClientEntity } from './entities/client.entity.js';
import { DeliveryAttemptEntity } from './entities/delivery-attempt.entity.js';
import { IdempotencyClaimEntity } from './entities/idempotency-claim.entity.js';
import { IdempotencyRecordEntity } from './entities/idempotency-record.entity.js';
import { MemberEntity } from './entities/member.entity.js';
import { NoticeDeliveryEntity } from './entities/notice-delivery.entity.js';
import { NoticeEntity } from './entities/notice.entity.js';
import { OutboundEmailEntity } from './entities/outbound-email.entity.js';
import { PaymentEntity } from './entities/payment.entity.js';
import { SaleItemEntity } from './entities/sale-item.entity.js';
import { SaleEntity } from './entities/sale.entity.js';
import { SecretsKeyCheckEntity } from './entities/secrets-key-check.entity.js';
import { ServiceEntity } from './entities/service.entity.js';
import { StaffServiceEntity } from './entities/staff-service.entity.js';
import { StaffTimeBlockEntity } from './entities/staff-time-block.entity.js';
import { StaffWorkingHoursEntity } from './entities/staff-working-hours.entity.js';
import { StaffEntity } from './entities/staff.entity.js';
import { WebhookEndpointEntity } from './entities/webhook-endpoint.entity.js';

export const ENTITIES = [
  BusinessEntity,
  BusinessChangeClockEntity,
  MemberEntity,
  StaffEntity,
  StaffWorkingHoursEntity,
  StaffTimeBlockEntity,
  StaffServiceEntity,
  ServiceEntity,
  ClientEntity,
  AppointmentEntity,
  PaymentEntity,
  SaleEntity,
  SaleItemEntity,
  ApiKeyEntity,
  IdempotencyRecordEntity,
  IdempotencyClaimEntity,
  WebhookEndpointEntity,
  SecretsKeyCheckEntity,
  NoticeEntity,
  NoticeDeliveryEntity,
  DeliveryAttemptEntity,
  OutboundEmailEntity,
  ConsoleAuditEntryEntity,
  ConsoleFlashEntity,
];
