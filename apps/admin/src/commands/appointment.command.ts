import { InvalidArgumentError, type Command } from 'commander';
import { AppointmentStatusService } from '#core/appointments/appointment-status.service.js';
import type { DashboardTransition } from '#core/appointments/appointment-transitions.js';
import type { AppointmentEntity } from '#database/entities/appointment.entity.js';
import type { CommandContext } from './command-context.js';

interface TransitionOptions {
  business: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseId(value: string): string {
  if (!UUID.test(value)) throw new InvalidArgumentError('Expected an appointment id (a UUID).');
  return value.toLowerCase();
}

const TRANSITIONS: [DashboardTransition, string][] = [
  ['confirm', 'confirm a PENDING appointment (emits appointment.confirmed); prints it'],
  ['complete', 'mark a CONFIRMED or PENDING appointment as COMPLETED; prints it'],
  ['no-show', 'mark a CONFIRMED or PENDING appointment as NO_SHOW; prints it'],
];

function presentAppointment(appointment: AppointmentEntity, businessSlug: string): object {
  return {
    id: appointment.id,
    business: businessSlug,
    status: appointment.status,
    scheduledAt: appointment.startsAt,
    endsAt: appointment.endsAt,
    staffId: appointment.staffId,
    clientId: appointment.clientId,
    serviceId: appointment.serviceId,
    serviceName: appointment.serviceName,
    updatedAt: appointment.updatedAt,
  };
}

export function registerAppointmentCommands(program: Command, context: CommandContext): void {
  const appointment = program.command('appointment').description("the dashboard's appointment status changes");

  for (const [transition, description] of TRANSITIONS) {
    appointment
      .command(transition)
      .description(description)
      .requiredOption('--business <slug>', 'business slug')
      .requiredOption('--id <id>', 'appointment id', parseId)
      .action((options: TransitionOptions) =>
        context.run(async (app) =>
          presentAppointment(await app.get(AppointmentStatusService).apply(options.business, options.id, transition), options.business),
        ),
      );
  }
}
