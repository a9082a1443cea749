import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { StatementFailedError } from './statement-failed-error.js';
import { preparedNameOn } from './statement-names.js';
import type { Statement, StatementParams } from './statement.js';

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
 * options' SET LOCAL, in the same simple query of fixed text) is sent just before the first
 * statement, so a transaction that runs nothing sends nothing.
 */
interface Transaction {
  connection: pg.PoolClient;
  options: TransactionOptions;
  begun: boolean;
  afterCommit: (() => void)[];
}

/**
 * Runs declared statements (statement.ts) on the ambient transaction when there is one, else on
 * a pooled connection, and opens transactions. The one way the service reaches PostgreSQL:
 * TypeORM only holds the entities, the migrations and the connection pool.
 */
@Injectable()
export class Database {
  private readonly ambient = new AsyncLocalStorage<Transaction>();

  constructor(private readonly dataSource: DataSource) {}

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
        if (transaction.begun) await connection.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      if (transaction.begun) await this.commit(connection);
      for (const callback of transaction.afterCommit) callback();
      return result;
    });
  }

  private async commit(connection: pg.PoolClient): Promise<void> {
    try {
      await connection.query('COMMIT');
    } catch (error) {
      // A COMMIT that fails (a deferred constraint, a serialization failure) ends the
      // transaction; the ROLLBACK only makes sure no transaction is left open on the connection.
      await connection.query('ROLLBACK').catch(() => undefined);
      throw new StatementFailedError('commit', error as Error);
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
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
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

  /** Sends the transaction's BEGIN if no statement has yet (a round trip of its own). */
  private async begin(transaction: Transaction): Promise<void> {
    if (transaction.begun) return;
    transaction.begun = true;
    // Fixed text, no values: the options' SET LOCAL goes in BEGIN's round trip.
    const { planCacheMode } = transaction.options;
    await transaction.connection.query(planCacheMode === undefined ? 'BEGIN' : `BEGIN; SET LOCAL plan_cache_mode = ${planCacheMode}`);
  }

  private async run(statement: Statement<StatementParams, unknown>, params: StatementParams): Promise<pg.QueryResult> {
    const transaction = this.ambient.getStore();
    if (transaction) await this.begin(transaction);
    return this.onConnection(async (connection) => {
      try {
        const name = statement.planEachCall ? undefined : preparedNameOn(connection, statement.name);
        return await connection.query({ name, text: statement.text, values: [...params] });
      } catch (error) {
        throw new StatementFailedError(statement.name, error as Error);
      }
    });
  }

  /** The ambient transaction's connection, else a pooled one for the duration of `use`. */
  private async onConnection<T>(use: (connection: pg.PoolClient) => Promise<T>): Promise<T> {
    const transaction = this.ambient.getStore();
    if (transaction) return use(transaction.connection);
    return this.onPooledConnection(use);
  }

  /** A connection of the pool for the duration of `use`. */
  private async onPooledConnection<T>(use: (connection: pg.PoolClient) => Promise<T>): Promise<T> {
    const connection = await this.pool().connect();
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
    }
  }

  private pool(): pg.Pool {
    return (this.dataSource.driver as unknown as { master: pg.Pool }).master;
  }
}
