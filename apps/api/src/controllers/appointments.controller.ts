import { Controller, Get } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { AppointmentReadsService } from '#core/appointments/appointment-reads.service.js';
import type { Schemas } from '#contract/contract-types.js';
import { RequireScope } from '../auth/route-access.decorators.js';
import { CurrentKey, IdParam } from '../http/contract-params.js';
import { PageQuery, type ListQuery } from '../http/page-query.js';
import { toAppointment } from '../mappers/appointment.mapper.js';
import { toList } from '../mappers/page.mapper.js';

/** The appointment reads; the writes are in AppointmentWritesController. */
@Controller('appointments')
export class AppointmentsController {
  constructor(private readonly appointments: AppointmentReadsService) {}

  /** listAppointments */
  @Get()
  @RequireScope('appointments.read')
  async listAppointments(
    @CurrentKey() key: AuthenticatedKey,
    @PageQuery('listAppointments') query: ListQuery<'listAppointments'>,
  ): Promise<Schemas['AppointmentList']> {
    return toList(await this.appointments.list(key.businessId, query), toAppointment);
  }

  /** getAppointment */
  @Get(':id')
  @RequireScope('appointments.read')
  async getAppointment(@CurrentKey() key: AuthenticatedKey, @IdParam() id: string): Promise<Schemas['Appointment']> {
    return toAppointment(await this.appointments.get(key.businessId, id));
  }
}
