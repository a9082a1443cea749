import type { Schemas } from '#contract/contract-types.js';
import type { Assert, Exact } from '#contract/exact.js';
import type { NoticeType, Scope } from '#contract/generated/operations.js';
import type { AppointmentStatus } from '#database/entities/appointment.entity.js';
import type { PaymentChannel, PaymentMethod, PaymentStatus } from '#database/entities/payment.entity.js';
import type { SaleItemType } from '#database/entities/sale-item.entity.js';
import type { SaleStatus } from '#database/entities/sale.entity.js';
import type { PublishedErrorCode } from './errors/error-code.js';

/**
 * The value sets the code keeps and the contract publishes are the same, checked by the compiler:
 * a value added on either side fails the build here, before any code can forget to handle it.
 * (The plan is not part of the contract.)
 */
export type ContractEnumChecks = [
  Assert<Exact<AppointmentStatus, Schemas['AppointmentStatus']>>,
  Assert<Exact<PaymentChannel, Schemas['PaymentChannel']>>,
  Assert<Exact<PaymentMethod, Schemas['PaymentMethod']>>,
  Assert<Exact<PaymentStatus, Schemas['PaymentStatus']>>,
  Assert<Exact<SaleStatus, Schemas['SaleStatus']>>,
  Assert<Exact<SaleItemType, Schemas['SaleItemType']>>,
  Assert<Exact<Scope, Schemas['Scope']>>,
  Assert<Exact<NoticeType, Schemas['NoticeType']>>,
  Assert<Exact<NoticeType, Schemas['Notice']['type']>>,
  Assert<Exact<PublishedErrorCode, Schemas['WebhookProblemCode'] | Schemas['ServiceUnavailableProblem']['code']>>,
];
