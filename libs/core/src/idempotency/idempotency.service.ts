import { Injectable } from '@nestjs/common';
import { IdempotencyRecordEntity } from '#database/entities/idempotency-record.entity.js';
import { Database } from '#database/database.js';
import { newId } from '#database/new-id.js';
import { sqlStateOf } from '#database/statement-failed-error.js';
import { DomainError } from '../errors/domain-error.js';
import { IdempotencyRepository } from './idempotency.repository.js';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** How long a duplicate waits for the first request with its key before giving up (docs/design-record.md#d4). */
export const IDEMPOTENCY_WAIT_MS = 10_000;

/** A response as it will be sent, and replayed byte for byte. */
export interface StoredResponse {
  status: number;
  contentType: string;
  body: string;
}

/** What the write produced, and whether its rows stay (a refused write, 404/409, keeps none). */
export interface IdempotentOutcome {
  response: StoredResponse;
  keepWrites: boolean;
}

export interface IdempotentRequest {
  apiKeyId: string;
  idempotencyKey: string;
  fingerprint: string;
}

/** PostgreSQL's lock_not_available: lock_timeout passed while waiting. */
const LOCK_NOT_AVAILABLE = '55P03';
/** deadlock_detected and serialization_failure: the transaction lost a race and may simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

@Injectable()
export class IdempotencyService {
  constructor(
    private readonly database: Database,
    private readonly records: IdempotencyRepository,
  ) {}

  /**
   * Runs a write at most once per (key, Idempotency-Key) within 24 hours (docs/design-record.md#d4). The write, its
   * rows and its stored response commit in one transaction. A duplicate waits on a transaction
   * advisory lock for the first to finish, then replays its response; a different request
   * under the same key is refused.
   */
  async execute(
    request: IdempotentRequest,
    write: () => Promise<IdempotentOutcome>,
  ): Promise<{ response: StoredResponse; replayed: boolean }> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.once(request, write);
      } catch (error) {
        // Two writes that lock the same rows in opposite orders (swapping two appointments) can
        // deadlock; PostgreSQL aborts one, which is safe to run again from the start.
        const state = sqlStateOf(error);
        if (state !== undefined && RETRYABLE.has(state) && attempt < ATTEMPTS) continue;
        if (state === LOCK_NOT_AVAILABLE) {
          throw new DomainError(
            'IDEMPOTENCY_IN_PROGRESS',
            'A request with this Idempotency-Key is still being processed; retry shortly.',
            [],
            1,
          );
        }
        throw error;
      }
    }
  }

  private async once(
    request: IdempotentRequest,
    write: () => Promise<IdempotentOutcome>,
  ): Promise<{ response: StoredResponse; replayed: boolean }> {
    return this.database.transactional(async () => {
      const { apiKeyId, idempotencyKey } = request;
      const lockName = `${apiKeyId}:${idempotencyKey}`;
      const opened = await this.records.open(apiKeyId, idempotencyKey, lockName);
      // The lock is nearly always free; only a duplicate in flight costs the bounded wait.
      const existing = opened.locked
        ? opened.record
        : await this.records.waitAndTake(apiKeyId, idempotencyKey, lockName, IDEMPOTENCY_WAIT_MS);
      if (existing) {
        if (existing.fingerprint !== request.fingerprint) {
          throw new DomainError(
            'IDEMPOTENCY_KEY_REUSED',
            'This Idempotency-Key was already used with a different request; use a new key for each action.',
          );
        }
        return {
          response: { status: existing.responseStatus, contentType: existing.responseContentType, body: existing.responseBody },
          replayed: true,
        };
      }

      // A refused write may have left the transaction aborted (a violated constraint): the
      // savepoint set when the write was opened lets it be undone while the refusal itself is
      // still stored.
      const outcome = await write();
      if (!outcome.keepWrites) await this.records.undoWrite();

      const now = new Date();
      this.records.storeAtCommit(
        Object.assign(new IdempotencyRecordEntity(), {
          id: newId(),
          apiKeyId: request.apiKeyId,
          idempotencyKey: request.idempotencyKey,
          fingerprint: request.fingerprint,
          responseStatus: outcome.response.status,
          responseBody: outcome.response.body,
          responseContentType: outcome.response.contentType,
          createdAt: now,
          expiresAt: new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS),
        }),
      );
      return { response: outcome.response, replayed: false };
    });
  }
}
