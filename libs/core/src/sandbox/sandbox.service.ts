import { Injectable } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { Database } from '#database/database.js';
import type { BusinessEntity } from '#database/entities/business.entity.js';
import { newId } from '#database/new-id.js';
import { join } from 'node:path';
import { BusinessesService } from '../businesses/businesses.service.js';
import { DomainError, validationFailed } from '../errors/domain-error.js';
import { SandboxCatalogue, type CatalogueCopy } from './sandbox-catalogue.js';
import { sandboxPlanRefusal } from './sandbox-plan.js';
import { SandboxRepository } from './sandbox.repository.js';

/** What `sandbox create` and `sandbox reset` print. */
export interface SandboxSummary {
  /** The live business's slug, which test keys present as theirs (GET /me, notices). */
  business: string;
  sandbox: { id: string; slug: string; createdAt: string };
  /** The catalogue as copied: each live id → its sandbox copy's id, and the row counts. */
  copied: CatalogueCopy;
  /** Test keys kept through a reset (a reset never revokes or removes them). */
  testKeys: number;
}

/** An e-mail a sandbox write composed and kept as a file instead of sending it. */
export interface KeptEmail {
  id: string;
  kind: string;
  audience: string;
  recipient: string;
  subject: string;
  appointmentId: string | null;
  createdAt: string;
  /** When the worker wrote the file; null while it is still queued. */
  keptAt: string | null;
  /** <MAIL_DIR>/<id>.eml, once kept. */
  file: string | null;
}

/**
 * Test mode (docs/design-record.md#d19): a live business's sandbox is a second business row linked
 * to it, holding a copy of its catalogue. Test keys belong to that row, so the tenancy every
 * query already applies (the key's business id) keeps the two modes apart; nothing else checks
 * the mode. Create and reset run in one transaction, locked on the live row.
 */
@Injectable()
export class SandboxService {
  constructor(
    private readonly config: AppConfig,
    private readonly database: Database,
    private readonly businesses: BusinessesService,
    private readonly sandboxes: SandboxRepository,
    private readonly catalogue: SandboxCatalogue,
  ) {}

  /**
   * Makes the sandbox of a live business; refused when it has one (reset puts that back instead),
   * and for a plan without integrations (docs/design-record.md#d28).
   */
  async create(liveSlug: string): Promise<SandboxSummary> {
    const live = await this.businesses.getBySlug(liveSlug);
    return this.database.transactional(async () => {
      await this.lockLiveWithIntegrations(live);
      if (await this.sandboxes.findSandboxOf(live.id)) {
        throw validationFailed([
          { path: '/business', message: `${live.slug} already has a sandbox; "sandbox reset" puts it back to the live catalogue` },
        ]);
      }
      return this.make(live, newId(), []);
    });
  }

  /**
   * The sandbox of a live business, made first when it has none (for `key create --test`); one is
   * not made for a plan without integrations (docs/design-record.md#d28).
   */
  async ensure(live: BusinessEntity): Promise<{ sandbox: BusinessEntity; created: boolean }> {
    return this.database.transactional(async () => {
      const plan = await this.sandboxes.lockLive(live.id);
      const found = await this.sandboxes.findSandboxOf(live.id);
      if (found) return { sandbox: found, created: false };
      const refusal = sandboxPlanRefusal(plan);
      if (refusal) throw refusal;
      await this.make(live, newId(), []);
      return { sandbox: (await this.sandboxes.findSandboxOf(live.id))!, created: true };
    });
  }

  /**
   * Puts the sandbox back to a fresh copy of the live catalogue and settings: its clients,
   * appointments, payments, sales, notices, endpoints, e-mails and idempotency records go (with
   * the row, which every foreign key cascades from), then the row is made again under the same id,
   * so its test keys, restored as they were, keep working.
   */
  async reset(liveSlug: string): Promise<SandboxSummary> {
    const live = await this.businesses.getBySlug(liveSlug);
    return this.database.transactional(async () => {
      await this.lockLiveWithIntegrations(live);
      const sandbox = await this.sandboxes.findSandboxOf(live.id);
      if (!sandbox) throw new DomainError('NOT_FOUND', `${live.slug} has no sandbox; "sandbox create" makes it.`);
      const keys = await this.sandboxes.keysOf(sandbox.id);
      await this.sandboxes.deleteSandbox(sandbox.id);
      return this.make(live, sandbox.id, keys);
    });
  }

  /** The e-mails the sandbox of a live business kept, by its slug (the admin command line). */
  async emails(liveSlug: string): Promise<{ business: string; emails: KeptEmail[] }> {
    return { business: liveSlug, emails: await this.emailsOf(await this.sandboxOf(liveSlug)) };
  }

  /** The e-mails a sandbox kept, oldest first. */
  async emailsOf(sandbox: BusinessEntity): Promise<KeptEmail[]> {
    const rows = await this.sandboxes.keptEmails(sandbox.id);
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      audience: row.audience,
      recipient: row.recipient,
      subject: row.subject,
      appointmentId: row.appointmentId,
      createdAt: row.createdAt.toISOString(),
      keptAt: row.keptAt?.toISOString() ?? null,
      file: row.keptAt ? join(this.config.MAIL_DIR, `${row.id}.eml`) : null,
    }));
  }

  /** The sandbox of a live business (by its id), or null when it has none. */
  findSandbox(liveBusinessId: string): Promise<BusinessEntity | null> {
    return this.sandboxes.findSandboxOf(liveBusinessId);
  }

  /** The sandbox row of a live business; NOT_FOUND when it has none. */
  async sandboxOf(liveSlug: string): Promise<BusinessEntity> {
    const live = await this.businesses.getBySlug(liveSlug);
    const sandbox = await this.sandboxes.findSandboxOf(live.id);
    if (!sandbox) throw new DomainError('NOT_FOUND', `${live.slug} has no sandbox; "sandbox create" makes it.`);
    return sandbox;
  }

  /**
   * Locks the live row, then refuses a plan without integrations (docs/design-record.md#d28): the
   * plan is read under the lock, so a plan changed meanwhile is the one that decides.
   */
  private async lockLiveWithIntegrations(live: BusinessEntity): Promise<void> {
    const refusal = sandboxPlanRefusal(await this.sandboxes.lockLive(live.id));
    if (refusal) throw refusal;
  }

  private async make(
    live: BusinessEntity,
    sandboxId: string,
    keys: Awaited<ReturnType<SandboxRepository['keysOf']>>,
  ): Promise<SandboxSummary> {
    const now = new Date();
    await this.sandboxes.insertSandbox(live.id, sandboxId, now);
    await this.sandboxes.restoreKeys(sandboxId, keys);
    const copied = await this.catalogue.copy(live.id, sandboxId);
    const sandbox = (await this.sandboxes.findSandboxOf(live.id))!;
    return {
      business: live.slug,
      sandbox: { id: sandbox.id, slug: sandbox.slug, createdAt: sandbox.createdAt.toISOString() },
      copied,
      testKeys: keys.length,
    };
  }
}
