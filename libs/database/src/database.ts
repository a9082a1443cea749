import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { StatementFailedError } from './statement-failed-error.js';
import { preparedNameOn } from './statement-names.js';
import { EXECUTED, type BatchStatement, type Statement, type StatementParams } from './statement.js';

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

/** Rows of each statement of a batch, in order. */
export type BatchRows<R extends readonly unknown[]> = { [K in keyof R]: R[K][] };

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
 * The ambient transaction: its connection, and what waits for its commit. BEGIN is sent with the
 * first statement (in the same round trip when that statement is a batch) and the statements
 * queued by atCommit with COMMIT, so a transaction costs no round trip of its own beyond its
 * statements and its commit (docs/design-record.md#write-path).
 */
interface Transaction {
  connection: pg.PoolClient;
  begun: boolean;
  afterCommit: (() => void)[];
  /** Batches sent in the COMMIT's round trip, before it. */
  atCommit: { statement: BatchStatement<StatementParams, readonly unknown[]>; params: StatementParams }[];
}

/**
 * The statements a connection has prepared for batches to EXECUTE (BatchStatement). A batch that
 * fails may have prepared some of its statements or not: the connection then forgets them all and
 * prepares under names of a new generation, so a name is never prepared twice.
 */
interface BatchPrepared {
  generation: number;
  names: Set<string>;
}

/** A batch as sent: its text, and how many results come before its own (BEGIN, PREPAREs). */
interface RenderedBatch {
  text: string;
  leading: number;
  /** Names the text prepares; known to be prepared once it has run. */
  prepares: string[];
}

/**
 * Runs declared statements (statement.ts) on the ambient transaction when there is one, else on
 * a pooled connection, and opens transactions. The one way the service reaches PostgreSQL:
 * TypeORM only holds the entities, the migrations and the connection pool.
 */
@Injectable()
export class Database {
  private readonly ambient = new AsyncLocalStorage<Transaction>();
  private readonly batchPrepared = new WeakMap<pg.PoolClient, BatchPrepared>();

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

  /** Sends a batch's statements in one round trip (simple protocol), its values escaped as literals. */
  async batch<P extends StatementParams, R extends readonly unknown[]>(statement: BatchStatement<P, R>, params: P): Promise<BatchRows<R>> {
    const transaction = this.ambient.getStore();
    // A transaction not begun yet begins in this round trip: its BEGIN's result is dropped.
    const opening = transaction !== undefined && !transaction.begun;
    if (transaction) transaction.begun = true;
    return this.onConnection(async (connection) => {
      const sent = this.render(connection, [{ statement, params }], opening ? ['BEGIN'] : [], []);
      const results = await this.send(connection, sent, statement.name);
      return results.slice(sent.leading).map((result): unknown[] => result.rows) as unknown as BatchRows<R>;
    });
  }

  /**
   * Queues a batch to be sent in the ambient transaction's COMMIT round trip, just before COMMIT:
   * for a write's last statement, whose result nobody reads (an idempotent request's stored
   * response). Its failure fails the commit, and the transaction rolls back. Needs a transaction.
   */
  atCommit<P extends StatementParams>(statement: BatchStatement<P, readonly unknown[]>, params: P): void {
    const transaction = this.ambient.getStore();
    if (!transaction) throw new Error(`Batch ${statement.name} waits for a commit: it needs a transaction (Database.transactional).`);
    transaction.atCommit.push({ statement, params });
  }

  /**
   * Runs work in a transaction: the ambient one when there is one (its owner commits), else a
   * new one that is ambient for the work, so every statement the work runs, however deep, joins
   * it. Commits when the work resolves and rolls back when it throws.
   */
  async transactional<T>(work: () => Promise<T>): Promise<T> {
    if (this.ambient.getStore()) return work();
    return this.onPooledConnection(async (connection) => {
      const transaction: Transaction = { connection, begun: false, afterCommit: [], atCommit: [] };
      let result: T;
      try {
        result = await connectionHeld.run('transaction', () => this.ambient.run(transaction, work));
      } catch (error) {
        if (transaction.begun) await connection.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      await this.commit(transaction);
      for (const callback of transaction.afterCommit) callback();
      return result;
    });
  }

  /** COMMIT, with the statements queued for it, in one round trip; nothing when nothing ran. */
  private async commit(transaction: Transaction): Promise<void> {
    const { atCommit, connection } = transaction;
    if (!transaction.begun && atCommit.length === 0) return;
    try {
      // Rendered here, once: a value a batch cannot write fails the commit like a failed statement.
      const sent = this.render(connection, atCommit, transaction.begun ? [] : ['BEGIN'], ['COMMIT']);
      await this.send(connection, sent, atCommit.map((queued) => queued.statement.name).join('+') || 'commit');
    } catch (error) {
      // A queued statement failed (or could not be written): the transaction is aborted or still
      // open, and its COMMIT was never run.
      await connection.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /**
   * The text of batches sent as one simple query, between `before` and `after`: the PREPAREs of
   * the declared statements they EXECUTE that this connection has not prepared yet come first.
   */
  private render(
    connection: pg.PoolClient,
    batches: readonly { statement: BatchStatement<StatementParams, readonly unknown[]>; params: StatementParams }[],
    before: readonly string[],
    after: readonly string[],
  ): RenderedBatch {
    let prepared = this.batchPrepared.get(connection);
    if (!prepared) {
      prepared = { generation: 1, names: new Set() };
      this.batchPrepared.set(connection, prepared);
    }
    const { generation, names } = prepared;
    const prepares: string[] = [];
    const preparing: string[] = [];
    const texts = batches.map(({ statement, params }) =>
      batchText(statement, params, (name) => {
        const executed = statement.executes.find((candidate) => candidate.name === name)!;
        // Not the name pg gives the statement sent on its own (preparedNameOn): pg keeps its own list.
        const serverName = `${preparedNameOn(connection, name)}_b${generation}`;
        if (!names.has(serverName) && !prepares.includes(serverName)) {
          prepares.push(serverName);
          preparing.push(`PREPARE ${serverName} AS ${executed.text}`);
        }
        return serverName;
      }),
    );
    return { text: [...preparing, ...before, ...texts, ...after].join(';\n'), leading: preparing.length + before.length, prepares };
  }

  /** Sends a rendered batch; one result per statement, in order. */
  private async send(connection: pg.PoolClient, sent: RenderedBatch, name: string): Promise<pg.QueryResult[]> {
    const prepared = this.batchPrepared.get(connection)!;
    let results: unknown;
    try {
      results = await connection.query(sent.text);
    } catch (error) {
      if (sent.prepares.length > 0) {
        prepared.generation += 1;
        prepared.names.clear();
      }
      throw new StatementFailedError(name, error as Error);
    }
    for (const serverName of sent.prepares) prepared.names.add(serverName);
    // pg answers a simple query of several statements with one result per statement.
    return Array.isArray(results) ? (results as pg.QueryResult[]) : [results as pg.QueryResult];
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
    await transaction.connection.query('BEGIN');
  }

  private async run(statement: Statement<StatementParams, unknown>, params: StatementParams): Promise<pg.QueryResult> {
    const transaction = this.ambient.getStore();
    if (transaction) await this.begin(transaction);
    return this.onConnection(async (connection) => {
      try {
        return await connection.query({ name: preparedNameOn(connection, statement.name), text: statement.text, values: [...params] });
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

/**
 * A batch's text with each `$n` written as the literal of its value, and each statement it
 * EXECUTEs by the name `serverName` gives it on the connection.
 */
function batchText(
  statement: BatchStatement<StatementParams, readonly unknown[]>,
  params: StatementParams,
  serverName: (declaredName: string) => string,
): string {
  // Names first: a value written as a literal may hold any text, `EXECUTE x(` included.
  return statement.text
    .replace(EXECUTED, (_, name: string) => `EXECUTE ${serverName(name)}(`)
    .replace(/\$(\d+)/g, (_, index: string) => {
      if (Number(index) < 1 || Number(index) > params.length) throw new Error(`Batch ${statement.name} has no parameter $${index}.`);
      return literal(params[Number(index) - 1]);
    });
}

/** A value as an SQL literal, for a batch: the one place the layer writes values into text. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`${value} is not a number SQL can hold.`);
    return String(value);
  }
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  throw new TypeError(`A batch takes strings, numbers, booleans, dates or null; not ${typeof value}.`);
}
