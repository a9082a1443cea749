import { Injectable } from '@nestjs/common';
import { IdempotencyRecordEntity } from '#database/entities/idempotency-record.entity.js';
import { Database } from '#database/database.js';
import { newId } from '#database/new-id.js';
import { sqlStateOf } from '#database/statement-failed-error.js';
import { DomainError } from '../errors/domain-error.js';
import { SecretsCipher } from '../secrets/secrets-cipher.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { openAnswer, sealAnswer } from './sealed-answer.js';

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
  /** Its answer can hold a secret, and is stored sealed (sealed-answer.ts). */
  answerHoldsSecret?: boolean;
}

/**
 * How long a write that calls the network keeps its key claimed: longer than any such write takes
 * (a test ping's 15 s, a lookup's 5 s), so that only a process that stopped mid-write lets it lapse.
 */
export const IDEMPOTENCY_CLAIM_MS = 60_000;

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
    private readonly cipher: SecretsCipher,
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
        if (state === LOCK_NOT_AVAILABLE) throw inProgress();
        throw error;
      }
    }
  }

  /**
   * The same promise as execute, for a write that waits on the network (a test ping, an address
   * check; docs/design-record.md#d24): no transaction, and so no pooled connection, is held while
   * it runs. A short transaction replays a stored answer or claims the key; the write runs on its
   * own (its statements commit as they go); a second short transaction stores its answer and
   * deletes the claim in one commit. A duplicate that comes while the claim is live is told the
   * first is in progress. Both short transactions hold the key's lock, as every transaction that
   * stores a record under the key does (execute too): so the record read before the claim is
   * still the truth when the claim commits, and a duplicate sees either the claim or the answer,
   * never neither. No outcome leaves the claim behind: a write that throws, or an answer that
   * cannot be stored, gives it back. What this gives up against execute: a process that stops
   * between the write and its record leaves a write without a record, and the same request after
   * the claim lapses runs again.
   */
  async executeOutsideTransaction(
    request: IdempotentRequest,
    write: () => Promise<IdempotentOutcome>,
  ): Promise<{ response: StoredResponse; replayed: boolean }> {
    const { apiKeyId, idempotencyKey, fingerprint } = request;
    const replay = await this.database
      .transactional(async () => {
        const existing = await this.openRecord(request);
        if (existing) return existing;
        const held = await this.records.claim(apiKeyId, idempotencyKey, fingerprint, new Date(Date.now() + IDEMPOTENCY_CLAIM_MS));
        if (held === null) return null;
        if (held.heldBy !== '' && held.heldBy !== fingerprint) throw keyReused();
        throw inProgress();
      })
      .catch(lockWaitAsInProgress);
    if (replay) return replay;

    let outcome: IdempotentOutcome;
    try {
      outcome = await write();
    } catch (error) {
      // Nothing to replay: the key is free for the caller to try again.
      await this.giveBack(request);
      throw error;
    }
    try {
      return await this.database.transactional(async () => {
        // A record under the key already (the claim lapsed and another took it and stored its
        // answer; or another request used the key on a write that runs in one transaction): its
        // answer is the key's, replayed to this caller too, and the key stays refused to a
        // different request (openRecord). Never a second record, and so never its unique violation.
        const stored = await this.openRecord(request);
        await this.records.releaseClaim(apiKeyId, idempotencyKey);
        if (stored) return stored;
        await this.records.storeLast(recordOf(request, outcome.response, this.cipher));
        return { response: outcome.response, replayed: false };
      });
    } catch (error) {
      await this.giveBack(request);
      return lockWaitAsInProgress(error);
    }
  }

  /** Deletes a claim whose write ended without a stored answer; a claim that cannot be deleted now lapses (and is purged). */
  private async giveBack({ apiKeyId, idempotencyKey }: IdempotentRequest): Promise<void> {
    await this.records.releaseClaim(apiKeyId, idempotencyKey).catch(() => undefined);
  }

  /**
   * Takes the key's lock (waiting for a duplicate in flight) and reads its live record: the
   * stored answer to replay, or null when the key is new. Refuses a different request under it.
   */
  private async openRecord(request: IdempotentRequest): Promise<{ response: StoredResponse; replayed: true } | null> {
    const { apiKeyId, idempotencyKey } = request;
    const lockName = `${apiKeyId}:${idempotencyKey}`;
    // The lock is nearly always free; only a duplicate in flight costs the bounded wait.
    const first = await this.records.tryLockThenRead(lockName, apiKeyId, idempotencyKey);
    const existing = first.locked ? first.live : await this.records.waitThenRead(lockName, IDEMPOTENCY_WAIT_MS, apiKeyId, idempotencyKey);
    if (!existing) return null;
    if (existing.fingerprint !== request.fingerprint) throw keyReused();
    return {
      response: {
        status: existing.responseStatus,
        contentType: existing.responseContentType,
        body: openAnswer(this.cipher, request, existing.responseBody),
      },
      replayed: true,
    };
  }

  private async once(
    request: IdempotentRequest,
    write: () => Promise<IdempotentOutcome>,
  ): Promise<{ response: StoredResponse; replayed: boolean }> {
    return this.database.transactional(
      async () => {
        const existing = await this.openRecord(request);
        if (existing) return existing;

        // A refused write may have left the transaction aborted (a violated constraint): the
        // savepoint openRecord set lets it be undone while the refusal itself is still stored.
        const outcome = await write();
        if (!outcome.keepWrites) await this.records.undoWrite();

        await this.records.storeLast(recordOf(request, outcome.response, this.cipher));
        return { response: outcome.response, replayed: false };
      },
      // The write's prepared statements run on their generic plans (docs/design-record.md#write-path):
      // PostgreSQL otherwise judged the booking's read cheaper planned for its values and planned
      // it again on every execution, which cost three times what running it does. Every
      // statement of an idempotent write finds its rows by key, by business and id or through the
      // exclusion index, which the generic plan does as well (the plan tests check it).
      { planCacheMode: 'force_generic_plan' },
    );
  }
}

function keyReused(): DomainError {
  return new DomainError(
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was already used with a different request; use a new key for each action.',
  );
}

/** The key's lock still held by another after the bounded wait: told as in progress, as execute tells it. */
function lockWaitAsInProgress(error: unknown): never {
  throw sqlStateOf(error) === LOCK_NOT_AVAILABLE ? inProgress() : error;
}

function inProgress(): DomainError {
  return new DomainError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed; retry shortly.', [], 1);
}

/** The record of a write's answer, kept IDEMPOTENCY_RETENTION_MS. */
function recordOf(request: IdempotentRequest, response: StoredResponse, cipher: SecretsCipher): IdempotencyRecordEntity {
  const now = new Date();
  return Object.assign(new IdempotencyRecordEntity(), {
    id: newId(),
    apiKeyId: request.apiKeyId,
    idempotencyKey: request.idempotencyKey,
    fingerprint: request.fingerprint,
    responseStatus: response.status,
    responseBody: sealAnswer(cipher, request, response.body),
    responseContentType: response.contentType,
    createdAt: now,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS),
  });
}
