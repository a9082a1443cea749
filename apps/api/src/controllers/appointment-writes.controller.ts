import { Controller } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { AppointmentWritesService } from '#core/appointments/appointment-writes.service.js';
import type { RequestBody, Schemas } from '#contract/contract-types.js';
import { Operation } from '#http/operation.decorator.js';
import { CurrentKey, PathId, ValidBody } from '#http/operation-params.js';
import { toAppointment } from '../mappers/appointment.mapper.js';

/** The appointment writes (docs/design-record.md#d6); the reads are in AppointmentsController. */
@Controller()
export class AppointmentWritesController {
  constructor(private readonly appointments: AppointmentWritesService) {}

  @Operation('createAppointment')
  async createAppointment(
    @CurrentKey() key: AuthenticatedKey,
    @ValidBody() body: RequestBody<'createAppointment'>,
  ): Promise<Schemas['Appointment']> {
    return toAppointment(await this.appointments.book(key, body));
  }

  @Operation('rescheduleAppointment')
  async rescheduleAppointment(
    @CurrentKey() key: AuthenticatedKey,
    @PathId() id: string,
    @ValidBody() body: RequestBody<'rescheduleAppointment'>,
  ): Promise<Schemas['Appointment']> {
    return toAppointment(await this.appointments.reschedule(key, id, body));
  }

  @Operation('updateAppointment')
  async updateAppointment(
    @CurrentKey() key: AuthenticatedKey,
    @PathId() id: string,
    @ValidBody() body: RequestBody<'updateAppointment'>,
  ): Promise<Schemas['Appointment']> {
    return toAppointment(await this.appointments.update(key, id, body));
  }

  @Operation('cancelAppointment')
  async cancelAppointment(
    @CurrentKey() key: AuthenticatedKey,
    @PathId() id: string,
    @ValidBody() body: RequestBody<'cancelAppointment'>,
  ): Promise<Schemas['Appointment']> {
    return toAppointment(await this.appointments.cancel(key, id, body));
  }
}
