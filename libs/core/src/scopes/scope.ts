/** Scopes of the specification, each with the description the API returns in GET /me. */
export const SCOPE_DESCRIPTIONS = {
  'appointments.read':
    'See appointments: date, time, service, who serves, the name of the client. Never the appointment code and never the cancellation reason.',
  'appointments.write': 'Book into a free slot, reschedule, cancel with a reason.',
  'clients.read': 'See clients: name, phone, e-mail, birth date. Never notes, records or photos.',
  'clients.write': 'Create new clients (name, phone, e-mail, birth date).',
  'services.read': 'See services, duration and price.',
  'payments.read': 'See payments, amounts and the linked appointment, without payment-instrument data.',
  'sales.read': 'See sales and their items, without costs or internal notes.',
} as const;

export type Scope = keyof typeof SCOPE_DESCRIPTIONS;
export const SCOPES = Object.keys(SCOPE_DESCRIPTIONS) as Scope[];

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPE_DESCRIPTIONS, value);
}
