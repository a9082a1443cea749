import { Controller } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { AppointmentReadsService } from '#core/appointments/appointment-reads.service.js';
import type { Schemas } from '#contract/contract-types.js';
import { Operation } from '#http/operation.decorator.js';
import { CurrentKey, PathId, ValidQuery, type ListQuery } from '#http/operation-params.js';
import { toAppointment } from '../mappers/appointment.mapper.js';
import { toList } from '../mappers/page.mapper.js';

/** The appointment reads; the writes are in AppointmentWritesController. */
@Controller()
export class AppointmentsController {
  constructor(private readonly appointments: AppointmentReadsService) {}

  @Operation('listAppointments')
  async listAppointments(
    @CurrentKey() key: AuthenticatedKey,
    @ValidQuery() query: ListQuery<'listAppointments'>,
  ): Promise<Schemas['AppointmentList']> {
    return toList(await this.appointments.list(key.businessId, query), toAppointment);
  }

  @Operation('getAppointment')
  async getAppointment(@CurrentKey() key: AuthenticatedKey, @PathId() id: string): Promise<Schemas['Appointment']> {
    return toAppointment(await this.appointments.get(key.businessId, id));
  }
}
