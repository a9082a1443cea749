import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { WebhookEndpointEntity } from '#database/entities/webhook-endpoint.entity.js';
import { managerFor } from '#database/transaction-context.js';

@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return managerFor(this.dataSource, manager).getRepository(WebhookEndpointEntity);
  }

  async insert(endpoint: WebhookEndpointEntity, manager?: EntityManager): Promise<void> {
    await this.repo(manager).insert(endpoint);
  }

  findById(businessId: string, endpointId: string, manager?: EntityManager): Promise<WebhookEndpointEntity | null> {
    return this.repo(manager).findOneBy({ businessId, id: endpointId });
  }

  listByBusiness(businessId: string): Promise<WebhookEndpointEntity[]> {
    return this.repo().find({ where: { businessId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * The enabled endpoints of these businesses, for the relay (which serves every business at once
   * and matches each notice's type against `events` itself).
   */
  findEnabledOfBusinesses(businessIds: readonly string[], manager: EntityManager): Promise<Pick<WebhookEndpointEntity, 'id' | 'businessId' | 'events'>[]> {
    if (businessIds.length === 0) return Promise.resolve([]);
    return manager.query(
      `SELECT id, business_id AS "businessId", events FROM webhook_endpoints
        WHERE business_id = ANY($1::uuid[]) AND enabled`,
      [businessIds],
    );
  }

  /**
   * Replaces the secret; the one it replaces is still signed with until `previousExpiresAt`.
   * Returns the endpoint as updated, or null when it is not one of this business's.
   */
  async rotateSecret(
    businessId: string,
    endpointId: string,
    secret: string,
    previousExpiresAt: Date,
  ): Promise<WebhookEndpointEntity | null> {
    const [rows]: [{ id: string }[], number] = await this.dataSource.query(
      `UPDATE webhook_endpoints
          SET previous_secret = secret, previous_secret_expires_at = $3, secret = $4, updated_at = now()
        WHERE business_id = $1 AND id = $2
        RETURNING id`,
      [businessId, endpointId, previousExpiresAt, secret],
    );
    return rows.length === 0 ? null : this.findById(businessId, endpointId);
  }

  /** Enables the endpoint again, with a clean failure record. Returns whether it exists. */
  async enable(businessId: string, endpointId: string): Promise<boolean> {
    const result = await this.repo().update(
      { businessId, id: endpointId },
      { enabled: true, disabledReason: null, failingSince: null, updatedAt: () => 'now()' },
    );
    return (result.affected ?? 0) > 0;
  }

  /**
   * A delivery failed at `at`: starts the endpoint's run of failures unless one is already going.
   * Returns when the run started (null if the endpoint is gone).
   */
  async markFailing(businessId: string, endpointId: string, at: Date, manager: EntityManager): Promise<Date | null> {
    const [rows]: [{ failing_since: Date }[], number] = await manager.query(
      `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $3), updated_at = now()
        WHERE business_id = $1 AND id = $2
        RETURNING failing_since`,
      [businessId, endpointId, at],
    );
    return rows[0]?.failing_since ?? null;
  }

  async disable(businessId: string, endpointId: string, reason: string, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $3, updated_at = now()
        WHERE business_id = $1 AND id = $2`,
      [businessId, endpointId, reason],
    );
  }
}
