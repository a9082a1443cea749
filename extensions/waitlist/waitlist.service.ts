import { BadRequestException, ConflictException, ForbiddenException, Injectable } from '@nestjs/common';
import { BusinessesService } from '#core/businesses/businesses.service.js';
import { notFound } from '#core/errors/domain-error.js';
import { buildNoticeBody } from '#core/notices/outbox/notice-body.js';
import { NoticesRepository } from '#core/notices/outbox/notices.repository.js';
import { Database } from '#database/database.js';
import { newId } from '#database/new-id.js';
import { violatedConstraint } from '#database/violated-constraint.js';
import { NOTICE_TYPES } from './generated/operations.js';
import type { NewWaitlistEntry, WaitlistEntryRecord } from './waitlist-entry.js';
import { ONE_ENTRY_PER_CLIENT_AND_SERVICE, WaitlistRepository } from './waitlist.repository.js';
import { waitlistWindowProblem } from './waitlist-window.js';

/** The business an entry belongs to, as an API key or the admin command names it. */
export interface WaitlistBusiness {
  businessId: string;
  businessSlug: string;
}

const [WAITLIST_JOINED] = NOTICE_TYPES;
const MAX_LISTED = 1000;

/**
 * The waitlist's rules. It throws Nest's HttpExceptions (the API answers each by its status, as
 * problem+json) where the core would use a DomainError with a published code: an extension's
 * answers carry the core's code for each status (a 403 is OPERATION_REFUSED, never the scope
 * guard's API_SCOPE_MISSING), as its openapi.yaml documents.
 */
@Injectable()
export class WaitlistService {
  constructor(
    private readonly entries: WaitlistRepository,
    private readonly notices: NoticesRepository,
    private readonly businesses: BusinessesService,
    private readonly database: Database,
  ) {}

  /**
   * Puts the client on the service's waitlist and records waitlist.joined in the same
   * transaction. Checked in this order: the days (400), the client (404), its consent to be
   * contacted (403 OPERATION_REFUSED), the service (404), an entry it already has (409).
   */
  async join(business: WaitlistBusiness, input: NewWaitlistEntry): Promise<WaitlistEntryRecord> {
    const windowProblem = waitlistWindowProblem(input.from, input.to);
    if (windowProblem) throw new BadRequestException(`The waitlist entry's days are invalid: ${windowProblem}.`);
    const consent = await this.entries.clientConsent(business.businessId, input.clientId);
    if (consent === null) throw notFound('The client');
    // The waitlist exists to contact the client; a client created by a booking never agreed to it.
    if (!consent) throw new ForbiddenException('The client has not consented to be contacted, so cannot wait for a slot.');
    if (!(await this.entries.activeServiceExists(business.businessId, input.serviceId))) throw notFound('The service');

    try {
      return await this.database.transactional(async () => {
        const entry = await this.entries.insert(business.businessId, {
          id: newId(),
          clientId: input.clientId,
          serviceId: input.serviceId,
          from: input.from,
          to: input.to,
          note: input.note?.trim() || null,
        });
        await this.notices.record(
          business.businessId,
          buildNoticeBody({ type: WAITLIST_JOINED, businessSlug: business.businessSlug, subjectId: entry.id, occurredAt: entry.createdAt }),
        );
        return entry;
      });
    } catch (error) {
      if (violatedConstraint(error) === ONE_ENTRY_PER_CLIENT_AND_SERVICE) {
        throw new ConflictException('The client already waits for a slot of this service.');
      }
      throw error;
    }
  }

  async get(businessId: string, id: string): Promise<WaitlistEntryRecord> {
    const entry = await this.entries.findById(businessId, id);
    if (!entry) throw notFound('The waitlist entry');
    return entry;
  }

  /** The business's entries, oldest first, for the admin command line. */
  async listForBusiness(slug: string, serviceId: string | null): Promise<WaitlistEntryRecord[]> {
    const business = await this.businesses.getBySlug(slug);
    return this.entries.list(business.id, serviceId, MAX_LISTED);
  }
}
