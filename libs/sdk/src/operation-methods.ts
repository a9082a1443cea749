import type { OperationId } from './generated/contract.js';

/**
 * The SDK method of every operation of the contract, as a path on a SchedulingClient. Typed by the
 * generated OperationId, so an operation added to the contract does not compile until it has a
 * method here; operation-methods.spec.ts checks that each named method exists.
 */
export const OPERATION_METHODS: Readonly<Record<OperationId, string>> = {
  getMe: 'me',
  listAppointments: 'appointments.listPage',
  createAppointment: 'appointments.create',
  getAppointment: 'appointments.get',
  updateAppointment: 'appointments.update',
  rescheduleAppointment: 'appointments.reschedule',
  cancelAppointment: 'appointments.cancel',
  listClients: 'clients.listPage',
  createClient: 'clients.create',
  getClient: 'clients.get',
  listServices: 'services.listPage',
  listStaff: 'staff.listPage',
  getStaffMember: 'staff.get',
  getAvailability: 'availability.get',
  listPayments: 'payments.listPage',
  getPayment: 'payments.get',
  listSales: 'sales.listPage',
  getSale: 'sales.get',
  listWebhookEndpoints: 'webhookEndpoints.listPage',
  createWebhookEndpoint: 'webhookEndpoints.create',
  getWebhookEndpoint: 'webhookEndpoints.get',
  updateWebhookEndpoint: 'webhookEndpoints.update',
  deleteWebhookEndpoint: 'webhookEndpoints.delete',
  rotateWebhookEndpointSecret: 'webhookEndpoints.rotateSecret',
  testWebhookEndpoint: 'webhookEndpoints.test',
  listWebhookDeliveries: 'webhookEndpoints.deliveriesPage',
  listEvents: 'events.listPage',
  getEvent: 'events.get',
  redeliverEvent: 'events.redeliver',
};
