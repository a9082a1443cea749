import { SCOPES as CONTRACT_SCOPES, type Scope } from '#contract/generated/operations.js';

export type { Scope };

/** Every scope of the contract, in its order. */
export const SCOPES: Scope[] = [...CONTRACT_SCOPES];

/**
 * What each scope grants, as GET /me returns it. The document does not carry these texts, so
 * they live here; a scope added to the contract fails the build until it is described.
 */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'appointments.read':
    'See appointments: date, time, service, who serves, the name of the client. Never the appointment code and never the cancellation reason.',
  'appointments.write': 'Book into a free slot, reschedule, cancel with a reason.',
  'clients.read': 'See clients: name, phone, e-mail, birth date. Never notes, records or photos.',
  'clients.write': 'Create new clients (name, phone, e-mail, birth date).',
  'services.read': 'See services, duration and price, the staff who perform them and when they are free.',
  'payments.read': 'See payments, amounts and the linked appointment, without payment-instrument data.',
  'sales.read': 'See sales and their items, without costs or internal notes.',
  'webhooks.manage': 'Subscribe, change, test and delete webhook endpoints, see their delivery attempts, and send notices again.',
  'events.read': 'See the change notices of the last 30 days (the event log).',
};

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPE_DESCRIPTIONS, value);
}
