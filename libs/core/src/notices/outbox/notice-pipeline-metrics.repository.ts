import { Injectable } from '@nestjs/common';
import { Database } from '#database/database.js';
import { defineStatement } from '#database/statement.js';

/** How an attempt ended: a 2xx, another status, or no answer (timeout, refused connection or address, not sent). */
export const ATTEMPT_OUTCOMES = ['delivered', 'http_error', 'no_response'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** The relay's backlog: notices committed but not yet handed to the delivery queue. */
export interface OutboxBacklog {
  unrelayed: number;
  /** Age of the oldest of them, 0 when there is none. */
  oldestAgeSeconds: number;
}

export const OUTBOX_BACKLOG = defineStatement<[], { unrelayed: string; oldest_age_seconds: string | null }>({
  name: 'outbox_backlog',
  text: `SELECT count(*)::text AS unrelayed, extract(epoch FROM now() - min(created_at))::text AS oldest_age_seconds
  FROM notices WHERE relayed_at IS NULL`,
});

const DELIVERIES_BY_STATUS = defineStatement<[], { status: string; count: string }>({
  name: 'notice_deliveries_by_status',
  text: 'SELECT status, count(*)::text AS count FROM notice_deliveries GROUP BY status',
});

const RECENT_ATTEMPTS_BY_OUTCOME = defineStatement<[], { outcome: AttemptOutcome; count: string }>({
  name: 'recent_delivery_attempts_by_outcome',
  text: `SELECT CASE WHEN status_code BETWEEN 200 AND 299 THEN 'delivered'
            WHEN status_code IS NOT NULL THEN 'http_error'
            ELSE 'no_response' END AS outcome,
       count(*)::text AS count
  FROM delivery_attempts WHERE attempted_at > now() - interval '5 minutes' GROUP BY 1`,
});

/**
 * The notice pipeline's health as the metrics show it, read from the shared tables so every API
 * instance reports the same whichever worker did the work.
 */
@Injectable()
export class NoticePipelineMetricsRepository {
  constructor(private readonly database: Database) {}

  async outboxBacklog(): Promise<OutboxBacklog> {
    const row = await this.database.one(OUTBOX_BACKLOG, []);
    return { unrelayed: Number(row.unrelayed), oldestAgeSeconds: Number(row.oldest_age_seconds ?? 0) };
  }

  /** How many deliveries are in each status (statuses without any are absent). */
  async deliveriesByStatus(): Promise<Map<string, number>> {
    const rows = await this.database.rows(DELIVERIES_BY_STATUS, []);
    return new Map(rows.map((row) => [row.status, Number(row.count)]));
  }

  /** How the attempts of the last 5 minutes ended, every outcome present (0 when none). */
  async recentAttemptsByOutcome(): Promise<Record<AttemptOutcome, number>> {
    const rows = await this.database.rows(RECENT_ATTEMPTS_BY_OUTCOME, []);
    const counts = { delivered: 0, http_error: 0, no_response: 0 };
    for (const row of rows) counts[row.outcome] = Number(row.count);
    return counts;
  }
}
