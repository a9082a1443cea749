import { Controller, HttpCode, Post } from '@nestjs/common';
import type { AuthenticatedKey } from '#core/api-keys/authenticated-key.js';
import { AppointmentWritesService } from '#core/appointments/appointment-writes.service.js';
import type { RequestBody, Schemas } from '#contract/contract-types.js';
import { RequireScope } from '../auth/route-access.decorators.js';
import { ContractBody, CurrentKey, IdParam } from '../http/contract-params.js';
import { Idempotent } from '../http/idempotency.interceptor.js';
import { toAppointment } from '../mappers/appointment.mapper.js';

/** The appointment writes (D6); the reads are in AppointmentsController. */
@Controller('appointments')
export class AppointmentWritesController {
  constructor(private readonly appointments: AppointmentWritesService) {}

  /** createAppointment */
  @Post()
  @HttpCode(201)
  @RequireScope('appointments.write')
  @Idempotent()
  async createAppointment(
    @CurrentKey() key: AuthenticatedKey,
    @ContractBody('createAppointment') body: RequestBody<'createAppointment'>,
  ): Promise<Schemas['Appointment']> {
    return toAppointment(await this.appointments.book(key, body));
  }

  /** rescheduleAppointment */
  @Post(':id/reschedule')
  @HttpCode(200)
  @RequireScope('appointments.write')
  @Idempotent()
  async rescheduleAppointment(
    @CurrentKey() key: AuthenticatedKey,
    @IdParam() id: string,
    @ContractBody('rescheduleAppointment') body: RequestBody<'rescheduleAppointment'>,
  ): Promise<Schemas['Appointment']> {
    return toAppointment(await this.appointments.reschedule(key, id, body));
  }

  /** cancelAppointment */
  @Post(':id/cancel')
  @HttpCode(200)
  @RequireScope('appointments.write')
  @Idempotent()
  async cancelAppointment(
    @CurrentKey() key: AuthenticatedKey,
    @IdParam() id: string,
    @ContractBody('cancelAppointment') body: RequestBody<'cancelAppointment'>,
  ): Promise<Schemas['Appointment']> {
    return toAppointment(await this.appointments.cancel(key, id, body));
  }
}
