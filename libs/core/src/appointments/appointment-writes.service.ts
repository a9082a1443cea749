import { Injectable } from '@nestjs/common';
import type { AppointmentEntity, AppointmentStatus } from '#database/entities/appointment.entity.js';
import type { BusinessEntity } from '#database/entities/business.entity.js';
import type { ClientEntity } from '#database/entities/client.entity.js';
import type { StaffEntity } from '#database/entities/staff.entity.js';
import { Database } from '#database/database.js';
import { SlotAvailabilityService, type SlotRequest } from '../availability/slot-availability.service.js';
import { NO_MEMBER_FREE } from '../availability/slot-check.js';
import { BusinessesService } from '../businesses/businesses.service.js';
import { ClientsRepository } from '../clients/clients.repository.js';
import { ClientsService, type BusinessRef, type NewBookingClient } from '../clients/clients.service.js';
import { DomainError, notFound, validationFailed } from '../errors/domain-error.js';
import { buildNoticeBody } from '../notices/outbox/notice-body.js';
import { NoticesRepository } from '../notices/outbox/notices.repository.js';
import { noticeEmails } from '../notices/outbox/notice-emails.js';
import { ServicesRepository } from '../services/services.repository.js';
import { StaffRepository } from '../staff/staff.repository.js';
import { isActive } from './appointment-transitions.js';
import type { AppointmentView } from './appointment-view.js';
import { appointmentViewOf } from './appointment-view-of.js';
import { AppointmentReadsRepository } from './appointment-reads.repository.js';
import { AppointmentsRepository, slotTaken } from './appointments.repository.js';
import { newAppointmentRow, termsOf } from './new-appointment-row.js';
import { anyStaffOrder } from './any-staff-order.js';
import type { BookingCandidate } from './booking-candidates.js';
import { BookingPartiesRepository, type BookingService, type BookingStaff } from './booking-parties.repository.js';
import { parseStartInstant } from './start-instant.js';

export interface NewAppointment {
  /** Optional since 1.3.0: without it, "any staff" (docs/design-record.md#d16). */
  staffId?: string;
  serviceId: string;
  /** RFC 3339 date-time with an offset. */
  startAt: string;
  /** Form A: an existing client; Form B: a new one, created with the appointment. */
  client: { id: string } | NewBookingClient;
  /** The appointment's own data (docs/design-record.md#d23); Form B's client has its own. */
  metadata?: Record<string, string>;
  /** Default true; false: no e-mail to the client for this write (docs/design-record.md#d23). */
  notifyClient?: boolean;
}

/** PATCH /appointments/{id} (docs/design-record.md#d23): the metadata that replaces the appointment's. */
export interface AppointmentUpdate {
  metadata: Record<string, string>;
}

export interface RescheduleRequest {
  startAt: string;
  /** Another staff member; default the same one. */
  staffId?: string;
  /** Default true; false: no e-mail to the client for this write (docs/design-record.md#d23). */
  notifyClient?: boolean;
}

export interface CancelRequest {
  reason: string;
  /** Default true; false: no e-mail to the client for this write (docs/design-record.md#d23). */
  notifyClient?: boolean;
}

/** The source of every appointment booked or rescheduled through the API (docs/design-record.md#d6). */
const API_SOURCE = 'api';
const CANCEL_REASON_MIN = 3;

const notActive = (status: AppointmentStatus): DomainError =>
  new DomainError(
    'APPOINTMENT_NOT_ACTIVE',
    `Only a PENDING or CONFIRMED appointment can be rescheduled or cancelled; this one is ${status}.`,
  );

/**
 * The appointment writes of the API (docs/design-record.md#d6): book, reschedule, cancel. Each runs in one transaction
 * (the idempotent request's, when there is one) that also holds its change notice (docs/design-record.md#d9), from
 * which the worker also writes its e-mails (docs/design-record.md#d10, docs/design-record.md#write-path). Input is refused (400) before anything is looked up, then what is missing
 * (404), then what conflicts (409), in the order of docs/design-record.md#d2.
 */
@Injectable()
export class AppointmentWritesService {
  constructor(
    private readonly database: Database,
    private readonly appointments: AppointmentsRepository,
    private readonly parties: BookingPartiesRepository,
    private readonly businesses: BusinessesService,
    private readonly staff: StaffRepository,
    private readonly services: ServicesRepository,
    private readonly clients: ClientsRepository,
    private readonly clientsService: ClientsService,
    private readonly availability: SlotAvailabilityService,
    private readonly notices: NoticesRepository,
    private readonly reads: AppointmentReadsRepository,
  ) {}

  /**
   * Books a free slot. Form B creates the client too; its CLIENT_EXISTS, like every refusal,
   * leaves nothing behind. The exclusion constraint has the last word on a concurrent booking
   * of the same slot: SLOT_TAKEN. Without a staff member ("any staff", docs/design-record.md#d16)
   * the members who can take the slot are tried in anyStaffOrder, so a race lost to another
   * booking moves on to the next member instead of refusing. Round trips (docs/design-record.md#write-path): the
   * facts in one, the whole write in one (AppointmentsRepository.insertWith), and the transaction's BEGIN
   * and COMMIT; the worker writes the e-mails from the notice.
   */
  async book(ref: BusinessRef, input: NewAppointment): Promise<AppointmentView> {
    const startsAt = parseStartInstant(input.startAt, '/startAt');
    const clientForm: { existingId: string } | { created: ClientEntity } =
      'id' in input.client
        ? { existingId: input.client.id }
        : {
            created: this.clientsService.prepareForBooking(
              ref.businessId,
              input.client,
              new Date(),
              await this.clientsService.phoneCountry(ref.businessId, input.client.phone),
            ),
          };
    return this.database.transactional(async () => {
      const parties = await this.parties.load(
        ref.businessId,
        {
          staffId: input.staffId ?? null,
          serviceId: input.serviceId,
          clientId: 'existingId' in clientForm ? clientForm.existingId : null,
        },
        startsAt,
      );
      const { business, staff, service } = parties;
      if (!business) throw notFound('The business');
      if (input.staffId !== undefined && !staff) throw notFound('The staff member');
      if (!service) throw notFound('The service');
      const client = 'created' in clientForm ? clientForm.created : parties.client;
      if (!client) throw notFound('The client');
      const slot = { businessId: ref.businessId, timezone: business.timezone, service, startsAt, durationMin: service.durationMin };
      if (staff) this.availability.assertFreeGiven({ ...slot, staff }, parties.slotFacts);
      const members = staff ? [staff] : this.membersFreeFor(slot, parties.candidates);

      const now = new Date();
      const status = business.autoConfirm ? 'CONFIRMED' : 'PENDING';
      let newClient =
        'created' in clientForm
          ? {
              client: clientForm.created,
              notice: this.notices.row(
                ref.businessId,
                buildNoticeBody({
                  type: 'client.created',
                  businessSlug: ref.businessSlug,
                  subjectId: clientForm.created.id,
                  occurredAt: clientForm.created.createdAt,
                }),
              ),
            }
          : null;
      for (const member of members) {
        const appointment = newAppointmentRow(
          {
            businessId: ref.businessId,
            staffId: member.id,
            clientId: client.id,
            terms: termsOf(service, business.currency),
            status,
            startsAt,
            source: API_SOURCE,
            metadata: input.metadata ?? {},
          },
          now,
        );
        const notice = this.notices.row(
          ref.businessId,
          buildNoticeBody({ type: 'appointment.created', businessSlug: ref.businessSlug, subjectId: appointment.id, occurredAt: now }),
          noticeEmails('APPOINTMENT_BOOKED', status, input.notifyClient),
        );
        if (await this.appointments.insertWith({ appointment, appointmentNotices: [notice], newClient })) {
          return appointmentViewOf(appointment, member, client);
        }
        // The client was written with the first attempt; a later one books for it.
        newClient = null;
      }
      throw staff
        ? slotTaken()
        : new DomainError(
            'SLOT_TAKEN',
            'No staff member who performs the service is free at this start: those who were have been booked meanwhile.',
          );
    });
  }

  /**
   * The members who can take the slot (the rule a named booking applies, checkSlot), in the order
   * "any staff" tries them. Nobody: SLOT_UNAVAILABLE, with the one reason they share when they do.
   */
  private membersFreeFor(slot: Omit<SlotRequest, 'staff'> & { service: BookingService }, candidates: BookingCandidate[]): BookingStaff[] {
    const now = new Date();
    const refusals = candidates.map((candidate) => this.availability.refusalGiven({ ...slot, staff: candidate }, candidate.slotFacts, now));
    const free = candidates.filter((_, i) => refusals[i] === null);
    if (free.length > 0) return anyStaffOrder(free);
    // Said of no one member (docs/design-record.md#d16): the reason every member shares, else NO_MEMBER_FREE.
    const reasons = new Set(refusals.map((refusal) => refusal?.anyStaffDetail));
    throw new DomainError(
      'SLOT_UNAVAILABLE',
      candidates.length === 0 ? 'No active staff member performs this service.' : reasons.size === 1 ? [...reasons][0]! : NO_MEMBER_FREE,
    );
  }

  /**
   * Moves an active appointment: the old one becomes RESCHEDULED and a new one takes the new
   * start, with the old one's client, service, status and booked terms (duration, price). The
   * old row leaves the active statuses before the new one is inserted, so its own interval never
   * blocks the move.
   */
  async reschedule(ref: BusinessRef, appointmentId: string, input: RescheduleRequest): Promise<AppointmentView> {
    const startsAt = parseStartInstant(input.startAt, '/startAt');
    return this.database.transactional(async () => {
      const previous = await this.appointments.findByIdForUpdate(ref.businessId, appointmentId);
      if (!previous) throw notFound('The appointment');
      const staff = await this.staffMember(ref.businessId, input.staffId ?? previous.staffId);
      if (!isActive(previous.status)) throw notActive(previous.status);
      const business = await this.business(ref);
      const service = previous.serviceId ? await this.services.findById(ref.businessId, previous.serviceId) : null;
      await this.availability.assertFree({
        businessId: ref.businessId,
        timezone: business.timezone,
        staff,
        service,
        startsAt,
        durationMin: previous.durationMin,
        replacingId: previous.id,
      });

      const now = new Date();
      await this.appointments.changeStatus(ref.businessId, previous.id, 'RESCHEDULED');
      // The booked terms (service, duration, price) move with the appointment.
      const appointment = newAppointmentRow(
        {
          businessId: ref.businessId,
          staffId: staff.id,
          clientId: previous.clientId,
          terms: previous,
          status: previous.status,
          startsAt,
          source: API_SOURCE,
          locationId: previous.locationId,
          rescheduledFromId: previous.id,
          // The partner's data stays with the appointment it describes (docs/design-record.md#d23).
          metadata: previous.metadata,
        },
        now,
      );
      const notice = this.notices.row(
        ref.businessId,
        buildNoticeBody({
          type: 'appointment.rescheduled',
          businessSlug: ref.businessSlug,
          subjectId: appointment.id,
          previousId: previous.id,
          occurredAt: now,
        }),
        noticeEmails('APPOINTMENT_RESCHEDULED', appointment.status, input.notifyClient),
      );
      if (!(await this.appointments.insertWith({ appointment, appointmentNotices: [notice], newClient: null }))) throw slotTaken();
      const client = await this.clientOf(appointment);
      return appointmentViewOf(appointment, staff, client);
    });
  }

  /**
   * Replaces an appointment's metadata, in any status (docs/design-record.md#d23). No notice and no
   * e-mail: the metadata is the partner's own, and nothing of the schedule changes.
   */
  async update(ref: BusinessRef, appointmentId: string, input: AppointmentUpdate): Promise<AppointmentView> {
    return this.database.transactional(async () => {
      if (!(await this.appointments.setMetadata(ref.businessId, appointmentId, input.metadata))) {
        throw notFound('The appointment');
      }
      const appointment = await this.reads.findById(ref.businessId, appointmentId);
      if (!appointment) throw new Error(`Appointment ${appointmentId} vanished inside its own transaction.`);
      return appointment;
    });
  }

  /** Cancels an active appointment; the reason is stored and never returned. */
  async cancel(ref: BusinessRef, appointmentId: string, input: CancelRequest): Promise<AppointmentView> {
    const reason = input.reason.trim();
    if (reason.length < CANCEL_REASON_MIN) {
      throw validationFailed([{ path: '/reason', message: `must have at least ${CANCEL_REASON_MIN} characters besides spaces` }]);
    }
    return this.database.transactional(async () => {
      const appointment = await this.appointments.findByIdForUpdate(ref.businessId, appointmentId);
      if (!appointment) throw notFound('The appointment');
      if (!isActive(appointment.status)) throw notActive(appointment.status);

      const now = new Date();
      const updatedAt = await this.appointments.cancel(ref.businessId, appointment.id, reason, now);
      Object.assign(appointment, { status: 'CANCELLED', cancellationReason: reason, cancelledAt: now, updatedAt } as const);
      await this.notices.record(
        ref.businessId,
        buildNoticeBody({ type: 'appointment.cancelled', businessSlug: ref.businessSlug, subjectId: appointment.id, occurredAt: now }),
        noticeEmails('APPOINTMENT_CANCELLED', 'CANCELLED', input.notifyClient),
      );
      const staff = await this.staff.findById(ref.businessId, appointment.staffId);
      const client = await this.clientOf(appointment);
      if (!staff) throw new Error(`Staff member ${appointment.staffId} of appointment ${appointment.id} is missing.`);
      return appointmentViewOf(appointment, staff, client);
    });
  }

  // By id, the tenancy key: a test key's slug is the live business's (docs/design-record.md#d19).
  private business(ref: BusinessRef): Promise<BusinessEntity> {
    return this.businesses.getById(ref.businessId);
  }

  private async staffMember(businessId: string, staffId: string): Promise<StaffEntity> {
    const staff = await this.staff.findById(businessId, staffId);
    if (!staff) throw notFound('The staff member');
    return staff;
  }

  private async existingClient(businessId: string, clientId: string): Promise<ClientEntity> {
    const client = await this.clients.findById(businessId, clientId);
    if (!client) throw notFound('The client');
    return client;
  }

  /** An appointment's client always exists: the foreign key forbids deleting it. */
  private async clientOf(appointment: AppointmentEntity): Promise<ClientEntity> {
    const client = await this.clients.findById(appointment.businessId, appointment.clientId);
    if (!client) throw new Error(`Client ${appointment.clientId} of appointment ${appointment.id} is missing.`);
    return client;
  }
}
