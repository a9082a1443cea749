import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { PoolShare } from './pool-share.js';
import { queryOn } from './query-on.js';
import { requestTenant } from './request-tenant.js';
import { StatementFailedError } from './statement-failed-error.js';
import { preparedNameOn } from './statement-names.js';
import type { BoundStatement, Statement, StatementParams } from './statement.js';

/**
 * Set for the whole of every transaction, of any Database instance: what the network helpers ask
 * before they wait on the network (docs/design-record.md#d24).
 */
const connectionHeld = new AsyncLocalStorage<string>();

/** Thrown by a network helper called while its caller holds a transaction: a programming error, never a tenant's. */
export class NetworkWhileConnectionHeldError extends Error {
  constructor(what: string) {
    super(
      `${what} was attempted inside a database transaction: the pooled connection would be held while the network answers ` +
        '(docs/design-record.md#d24). Run it before the transaction opens or after it ends.',
    );
    this.name = 'NetworkWhileConnectionHeldError';
  }
}

/**
 * Refuses to go on inside a transaction. Every helper that waits on a stranger's network (name
 * resolution, an outbound HTTP request) calls it first, so that no route, job or command can hold
 * one of the pool's connections for as long as a stranger takes to answer, whatever its order
 * of steps (docs/design-record.md#d24).
 */
export function refuseInsideTransaction(what: string): void {
  if (connectionHeld.getStore() !== undefined) throw new NetworkWhileConnectionHeldError(what);
}

/** A LISTEN on a connection of its own; close() ends it. */
export interface Listening {
  close(): Promise<void>;
}

export interface ListenHandlers {
  onNotification(payload: string): void;
  /** The connection was lost (closed by the server, a network error); nothing more arrives. */
  onLost(error?: Error): void;
}

/**
 * What a transaction asks of PostgreSQL beyond BEGIN, for all of its statements.
 *
 * planCacheMode 'force_generic_plan': the transaction's prepared statements run on their generic
 * plans, planned once per connection, instead of PostgreSQL choosing per execution between that
 * plan and one planned for the values (docs/design-record.md#write-path).
 */
export interface TransactionOptions {
  planCacheMode?: 'force_generic_plan';
}

/**
 * The ambient transaction: its connection, and what waits for its commit. BEGIN (with the
 * options' SET LOCAL, in the same simple query of fixed text) is sent with the first statement,
 * in its round trip, so a transaction that runs nothing sends nothing.
 */
interface Transaction {
  connection: pg.PoolClient;
  options: TransactionOptions;
  begun: boolean;
  /** The statement sent by executeLast, whose answer COMMIT does not wait for. */
  last?: Promise<unknown>;
  afterCommit: (() => void)[];
}

/** The rows of each of a list of bound statements, in order. */
export type RowsOfEach<B extends readonly BoundStatement<StatementParams, unknown>[]> = {
  [K in keyof B]: B[K] extends BoundStatement<StatementParams, infer R> ? R[] : never;
};

/**
 * Runs declared statements (statement.ts) on the ambient transaction when there is one, else on
 * a pooled connection, and opens transactions. The one way the service reaches PostgreSQL:
 * TypeORM only holds the entities, the migrations and the connection pool.
 *
 * The pool's connections are in pg's pipeline mode (data-source-options.ts): a statement is
 * written to the connection when it is sent, without waiting for the answers of those before it.
 * Awaiting each statement, as repositories do, is one round trip each; BEGIN, sendTogether and
 * executeLast put several statements in one round trip, still one declared statement each with
 * its values as parameters (docs/design-record.md#write-path).
 */
@Injectable()
export class Database {
  private readonly ambient = new AsyncLocalStorage<Transaction>();
  /** Each business's share of the pool, for the requests of a tenant (docs/design-record.md#pool-share-per-business). */
  readonly poolShare: PoolShare;

  constructor(private readonly dataSource: DataSource) {
    this.poolShare = new PoolShare(() => {
      const { max, connectionTimeoutMillis } = this.pool().options;
      return { max: max ?? 10, connectionTimeoutMillis: connectionTimeoutMillis ?? 0 };
    });
  }

  /** Every row the statement returns. */
  async rows<P extends StatementParams, R>(statement: Statement<P, R>, params: P): Promise<R[]> {
    return (await this.run(statement, params)).rows as R[];
  }

  /** The statement's first row, or null when it returns none. */
  async maybeOne<P extends StatementParams, R>(statement: Statement<P, R>, params: P): Promise<R | null> {
    return ((await this.run(statement, params)).rows[0] as R | undefined) ?? null;
  }

  /** The statement's first row; that it returns one is an invariant (an aggregate, a RETURNING). */
  async one<P extends StatementParams, R>(statement: Statement<P, R>, params: P): Promise<R> {
    const row = await this.maybeOne(statement, params);
    if (row === null) throw new Error(`Statement ${statement.name} returned no row.`);
    return row;
  }

  /** Runs a statement for its effect; returns how many rows it changed (or returned). */
  async execute<P extends StatementParams>(statement: Statement<P, unknown>, params: P): Promise<number> {
    return (await this.run(statement, params)).rowCount ?? 0;
  }

  /**
   * Sends the statements one after the other without waiting between them, so that they travel
   * in one round trip, and gives each one's rows. They run in order, on the ambient transaction
   * when there is one (a failure aborts it, and the statements after the failed one fail too);
   * the first failure is thrown.
   */
  async sendTogether<B extends readonly BoundStatement<StatementParams, unknown>[]>(...bounds: B): Promise<RowsOfEach<B>> {
    const sendAll = (connection: pg.PoolClient) => bounds.map(({ statement, params }) => this.send(connection, statement, params));
    const transaction = this.ambient.getStore();
    const results = transaction
      ? await this.inTransactionTrip(transaction, sendAll)
      : await this.onPooledConnection((c) => Promise.all(sendAll(c)));
    return results.map((result): unknown[] => result.rows) as RowsOfEach<B>;
  }

  /**
   * Runs the statement as the ambient transaction's last: it is sent at once, and the COMMIT
   * right behind it without waiting for its answer, so both take one round trip. Its failure
   * fails the commit (PostgreSQL answers the COMMIT of an aborted transaction with a rollback).
   * Without a transaction it simply runs.
   */
  async executeLast<P extends StatementParams>(statement: Statement<P, unknown>, params: P): Promise<void> {
    const transaction = this.ambient.getStore();
    if (!transaction) {
      await this.execute(statement, params);
      return;
    }
    if (transaction.last) throw new Error(`Statement ${statement.name} sent after the transaction's last one.`);
    const sent = this.inTransactionTrip(transaction, (connection) => [this.send(connection, statement, params)]);
    // Observed here so that a rollback (the work threw after this) leaves no unhandled rejection;
    // the commit awaits the statement itself.
    sent.catch(() => undefined);
    transaction.last = sent;
  }

  /**
   * Runs work in a transaction: the ambient one when there is one (its owner commits), else a
   * new one that is ambient for the work, so every statement the work runs, however deep, joins
   * it. Commits when the work resolves and rolls back when it throws. Options are the opening
   * transaction's: work that joins an ambient transaction cannot ask for others.
   */
  async transactional<T>(work: () => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const ambient = this.ambient.getStore();
    if (ambient) {
      if (options.planCacheMode !== undefined && options.planCacheMode !== ambient.options.planCacheMode) {
        throw new Error(`A transaction with plan_cache_mode ${options.planCacheMode} must be the outermost one.`);
      }
      return work();
    }
    return this.onPooledConnection(async (connection) => {
      const transaction: Transaction = { connection, options, begun: false, afterCommit: [] };
      let result: T;
      try {
        result = await connectionHeld.run('transaction', () => this.ambient.run(transaction, work));
      } catch (error) {
        if (transaction.begun) await queryOn(connection, 'ROLLBACK').catch(() => undefined);
        throw error;
      }
      if (transaction.begun) await this.commit(transaction);
      for (const callback of transaction.afterCommit) callback();
      return result;
    });
  }

  private async commit({ connection, last }: Transaction): Promise<void> {
    const committed = queryOn(connection, 'COMMIT').catch((error: unknown) => {
      throw new StatementFailedError('commit', error as Error);
    });
    try {
      // The last statement's failure first: the COMMIT behind it then only rolled back.
      await Promise.all([last, committed]);
    } catch (error) {
      // A COMMIT that fails (a deferred constraint, a serialization failure) ends the
      // transaction; the ROLLBACK only makes sure no transaction is left open on the connection.
      committed.catch(() => undefined);
      await queryOn(connection, 'ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /** False once the process has closed its connections (at shutdown). */
  isOpen(): boolean {
    return this.dataSource.isInitialized;
  }

  /** Whether the caller runs inside a transaction. */
  inTransaction(): boolean {
    return this.ambient.getStore() !== undefined;
  }

  /** Calls back once the ambient transaction has committed (never if it rolls back); at once without one. */
  afterCommit(callback: () => void): void {
    const transaction = this.ambient.getStore();
    if (transaction) transaction.afterCommit.push(callback);
    else callback();
  }

  /**
   * LISTENs on a channel on a connection of its own (a pooled one would lose the LISTEN when
   * released), with the pool's connection settings.
   */
  async listen(channel: string, applicationName: string, handlers: ListenHandlers): Promise<Listening> {
    const { connectionString, host, port, user, password, database, ssl } = this.pool().options;
    const client = new pg.Client({ connectionString, host, port, user, password, database, ssl, application_name: applicationName });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      client.end().catch(() => undefined);
      handlers.onLost(error);
    };
    client.on('notification', (message) => handlers.onNotification(message.payload ?? ''));
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await queryOn(client, `LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      lost = true;
      await client.end().catch(() => undefined);
      throw error;
    }
    return {
      close: async () => {
        lost = true;
        await client.end().catch(() => undefined);
      },
    };
  }

  /**
   * Sends statements on the transaction's connection, preceded by its BEGIN if no statement has
   * gone yet, all in one round trip; resolves with their results once every one has answered.
   */
  private async inTransactionTrip(
    transaction: Transaction,
    sendAll: (connection: pg.PoolClient) => Promise<pg.QueryResult>[],
  ): Promise<pg.QueryResult[]> {
    if (transaction.last) throw new Error("A statement was sent after the transaction's last one.");
    const opening = this.begin(transaction);
    const sent = sendAll(transaction.connection);
    // A BEGIN that fails (a lost connection) fails the statements behind it as well.
    const [, ...results] = await Promise.all([opening, ...sent]);
    return results;
  }

  /** Sends the transaction's BEGIN if no statement has yet, without waiting for its answer. */
  private begin(transaction: Transaction): Promise<unknown> | undefined {
    if (transaction.begun) return undefined;
    transaction.begun = true;
    // Fixed text, no values: the options' SET LOCAL goes with BEGIN.
    const { planCacheMode } = transaction.options;
    return queryOn(transaction.connection, planCacheMode === undefined ? 'BEGIN' : `BEGIN; SET LOCAL plan_cache_mode = ${planCacheMode}`);
  }

  private async run(statement: Statement<StatementParams, unknown>, params: StatementParams): Promise<pg.QueryResult> {
    const transaction = this.ambient.getStore();
    if (transaction) return (await this.inTransactionTrip(transaction, (connection) => [this.send(connection, statement, params)]))[0];
    return this.onPooledConnection((connection) => this.send(connection, statement, params));
  }

  /** Writes one statement to the connection now (pipeline mode) and gives its answer. */
  private send(
    connection: pg.PoolClient,
    statement: Statement<StatementParams, unknown>,
    params: StatementParams,
  ): Promise<pg.QueryResult> {
    const name = statement.planEachCall ? undefined : preparedNameOn(connection, statement.name);
    return queryOn(connection, { name, text: statement.text, values: [...params] }).catch((error: unknown) => {
      throw new StatementFailedError(statement.name, error as Error);
    });
  }

  /**
   * A connection of the pool for the duration of `use`. A request of a tenant first takes one of
   * its tenant's slots, and gives it back with the connection (docs/design-record.md#pool-share-per-business).
   */
  private async onPooledConnection<T>(use: (connection: pg.PoolClient) => Promise<T>): Promise<T> {
    const tenant = requestTenant();
    if (tenant !== undefined) {
      const turn = this.poolShare.enter(tenant);
      if (turn) await turn;
    }
    let connection: pg.PoolClient;
    try {
      connection = await this.pool().connect();
    } catch (error) {
      if (tenant !== undefined) this.poolShare.leave(tenant);
      throw error;
    }
    // A connection the server closed while it was out of the pool (a restart, a terminated
    // backend) reports it as an 'error' event: kept here, so that it does not crash the process,
    // and given to release, so that the pool drops the connection instead of lending it again.
    let lost: Error | undefined;
    const onLost = (error: Error) => {
      lost = error;
    };
    connection.on('error', onLost);
    try {
      return await use(connection);
    } finally {
      connection.removeListener('error', onLost);
      connection.release(lost);
      // After the connection is back in the pool: the next in turn takes it from there.
      if (tenant !== undefined) this.poolShare.leave(tenant);
    }
  }

  private pool(): pg.Pool {
    return (this.dataSource.driver as unknown as { master: pg.Pool }).master;
  }
}
