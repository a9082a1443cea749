// The embedded PostgreSQL of `npm start` without DATABASE_URL: PGlite (PostgreSQL in WebAssembly,
// one session) served on a local socket over the PostgreSQL wire protocol, so the service keeps
// its plain pg driver. Loaded by start.mjs as TypeScript (Node 24 strips the types).
//
// PGlite is a single session, so the connections take turns: a connection holds the turn from
// its first message until PostgreSQL is idle again at the end of a Sync or a simple query. Its
// extended-protocol messages (Parse, Bind, Execute, ...) and whole transactions therefore run
// without another connection's in between. The pglite-socket server queues single messages, and
// two connections' unnamed statements then overwrite each other: one gets the other's rows.
//
// LISTEN/NOTIFY: the one session LISTENs for all the connections, and PGlite writes each
// notification (NotificationResponse, 'A') into the output of whichever connection ran the
// committing NOTIFY, never to the one that LISTENed (the relay's, libs/database/src/database.ts
// Database.listen). So the server keeps which connection LISTENs on which channel (from the
// LISTEN / UNLISTEN statements it passes on, once their transaction has committed) and hands
// each notification to those connections only, as PostgreSQL does.
import { createServer, type Socket } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** Messages after which the client waits for an answer: Sync, simple Query, Flush. */
const ANSWERED = new Set(['S', 'Q', 'H']);
/** Messages after which PostgreSQL says ReadyForQuery, so the turn can pass. */
const TURN_ENDS = new Set(['S', 'Q']);

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/** Which connections LISTEN on which channel; the one session LISTENs on all of these channels. */
class Channels {
  private readonly listeners = new Map<string, Set<Connection>>();

  listen(connection: Connection, channel: string): void {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(connection);
    connection.channels.add(channel);
  }

  unlisten(connection: Connection, channel: string): void {
    const set = this.listeners.get(channel);
    set?.delete(connection);
    if (set?.size === 0) this.listeners.delete(channel);
    connection.channels.delete(channel);
  }

  unlistenAll(connection: Connection): void {
    for (const channel of [...connection.channels]) this.unlisten(connection, channel);
  }

  listenersOf(channel: string): ReadonlySet<Connection> | undefined {
    return this.listeners.get(channel);
  }

  all(): IterableIterator<string> {
    return this.listeners.keys();
  }
}

interface Connection {
  socket: Socket;
  /** The channels this connection LISTENs on (committed). */
  channels: Set<string>;
}

/** A LISTEN, an UNLISTEN of a channel, or an UNLISTEN * (channel null). */
interface ListenChange {
  listen: boolean;
  channel: string | null;
}

/** A first-come, first-served turn. */
class Turns {
  private last: Promise<void> = Promise.resolve();

  take(): Promise<() => void> {
    let release = (): void => undefined;
    const done = new Promise<void>((resolve) => (release = resolve));
    const ready = this.last.then(() => release);
    this.last = this.last.then(() => done);
    return ready;
  }
}

/** PGlite with its data in `dataDir` ('memory://' for none), on 127.0.0.1 at a free port. */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const db = await PGlite.create({ dataDir, extensions: { btree_gist } });
  const turns = new Turns();
  const channels = new Channels();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serve(db, turns, channels, socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}

function serve(db: PGlite, turns: Turns, channels: Channels, socket: Socket): void {
  const connection: Connection = { socket, channels: new Set() };
  let buffer = Buffer.alloc(0);
  let started = false;
  let batch: Buffer[] = [];
  let release: (() => void) | null = null;
  // PostgreSQL's output to this connection, cut into whole messages (a part of one waits here).
  let output = Buffer.alloc(0);
  // The LISTEN / UNLISTEN statements of the transaction under way, and whether it failed or was
  // rolled back: they take effect when it commits, as PostgreSQL's do.
  let changes: ListenChange[] = [];
  let undone = false;
  // This connection's batches run in order, each after the previous one.
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (work: () => Promise<void>): void => {
    queue = queue.then(work).catch(() => {
      socket.destroy();
    });
  };

  /**
   * Writes PostgreSQL's output to this socket, except each notification, which goes to the
   * connections that LISTEN on its channel (this one in place, if it is one of them). `data` is
   * a view of PGlite's memory, which its next output overwrites: it is copied before writing.
   */
  const forward = (data: Uint8Array): void => {
    output = output.length === 0 ? Buffer.from(data) : Buffer.concat([output, data]);
    let start = 0;
    let at = 0;
    while (output.length - at >= 5) {
      const end = at + 1 + output.readInt32BE(at + 1);
      if (end > output.length) break;
      const type = output[at];
      if (type === 0x45 /* ErrorResponse */) undone = true;
      else if (type === 0x43 /* CommandComplete */ && output.toString('latin1', at + 5, end - 1) === 'ROLLBACK') undone = true;
      else if (type === 0x41 /* NotificationResponse */) {
        if (at > start && socket.writable) socket.write(output.subarray(start, at));
        const notification = output.subarray(at, end);
        // Int32 process id, then the channel's name ending in a zero byte, then the payload.
        const channel = notification.toString('utf8', 9, notification.indexOf(0, 9));
        for (const listener of channels.listenersOf(channel) ?? []) {
          if (listener.socket.writable) listener.socket.write(notification);
        }
        start = end;
      }
      at = end;
    }
    if (at > start && socket.writable) socket.write(output.subarray(start, at));
    output = output.subarray(at);
  };

  const run = async (messages: Buffer[], endsTurn: boolean): Promise<void> => {
    release ??= await turns.take();
    for (const message of messages) {
      changes.push(...listenChanges(message));
      await db.runExclusive(() => db.execProtocolRawStream(new Uint8Array(message), { onRawData: forward }));
    }
    if (endsTurn && !db.isInTransaction()) {
      if (changes.length > 0 && !undone) await applyListenChanges(db, channels, connection, changes);
      changes = [];
      undone = false;
      release();
      release = null;
    }
  };

  socket.setNoDelay(true);
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    const listened = [...connection.channels];
    channels.unlistenAll(connection);
    // The channels no other connection LISTENs on any more: the session stops listening on them.
    // Decided again in the turn, where no other connection's LISTEN can come in between.
    const unwanted = () => listened.filter((channel) => !channels.listenersOf(channel));
    enqueue(async () => {
      if (!release && unwanted().length === 0) return;
      release ??= await turns.take();
      // A client gone in the middle of a transaction must not leave the only session in it.
      if (db.isInTransaction()) await db.exec('ROLLBACK');
      for (const channel of unwanted()) await db.exec(`UNLISTEN ${quoteIdentifier(channel)}`);
      release();
      release = null;
    });
  });
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (!started) {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        const code = buffer.readInt32BE(4);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          socket.write('N');
          buffer = buffer.subarray(8);
          continue;
        }
        if (code === CANCEL_REQUEST) {
          socket.destroy();
          return;
        }
        if (buffer.length < length) return;
        const startup = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        started = true;
        enqueue(() => run([startup], true));
        continue;
      }
      if (buffer.length < 5) return;
      const total = 1 + buffer.readInt32BE(1);
      if (buffer.length < total) return;
      const message = buffer.subarray(0, total);
      const type = String.fromCharCode(message[0]);
      buffer = buffer.subarray(total);
      if (type === 'X') {
        socket.end();
        return;
      }
      batch.push(message);
      if (ANSWERED.has(type)) {
        const messages = batch;
        batch = [];
        enqueue(() => run(messages, TURN_ENDS.has(type)));
      }
    }
  });
}

/**
 * Applies a connection's committed LISTEN / UNLISTEN statements. Its UNLISTEN was the one
 * session's too, so the session LISTENs again on the channels that other connections still
 * LISTEN on. In the connection's turn, outside any transaction.
 */
async function applyListenChanges(db: PGlite, channels: Channels, connection: Connection, changes: ListenChange[]): Promise<void> {
  let unlistened = false;
  for (const { listen, channel } of changes) {
    if (channel === null) channels.unlistenAll(connection);
    else if (listen) channels.listen(connection, channel);
    else channels.unlisten(connection, channel);
    unlistened ||= !listen;
  }
  if (!unlistened) return;
  for (const channel of channels.all()) await db.exec(`LISTEN ${quoteIdentifier(channel)}`);
}

/** The LISTEN / UNLISTEN statements (and DISCARD ALL, an UNLISTEN *) of a Query or Parse message. */
function listenChanges(message: Buffer): ListenChange[] {
  const type = String.fromCharCode(message[0]);
  let text: string;
  if (type === 'Q') text = message.toString('utf8', 5, message.length - 1);
  else if (type === 'P') {
    // The statement's name ending in a zero byte, then its text.
    const textStart = message.indexOf(0, 5) + 1;
    text = message.toString('utf8', textStart, message.indexOf(0, textStart));
  } else return [];
  if (!/listen|discard/i.test(text)) return [];
  const changes: ListenChange[] = [];
  for (const statement of splitStatements(text)) {
    const listen = /^\s*(UN)?LISTEN\s+("(?:[^"]|"")+"|[\p{L}_][\p{L}\p{N}_$]*|\*)\s*$/iu.exec(statement);
    if (listen) {
      const [, un, name] = listen;
      const channel = name === '*' ? null : name.startsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name.toLowerCase();
      if (channel !== null || un) changes.push({ listen: !un, channel });
    } else if (/^\s*DISCARD\s+ALL\s*$/i.test(statement)) changes.push({ listen: false, channel: null });
  }
  return changes;
}

/** A query's statements, cut at the semicolons outside quotes. */
function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === ';') {
      statements.push(text.slice(start, i));
      start = i + 1;
    }
  }
  statements.push(text.slice(start));
  return statements;
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
