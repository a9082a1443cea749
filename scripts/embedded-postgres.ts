// The embedded PostgreSQL of `npm start` without DATABASE_URL: PGlite (PostgreSQL in WebAssembly,
// one session) served on a local socket over the PostgreSQL wire protocol, so the service keeps
// its plain pg driver. Loaded by start.mjs as TypeScript (Node 24 strips the types).
//
// PGlite is a single session, so the connections take turns: a connection holds the turn from
// its first message until PostgreSQL is idle again at the end of a Sync or a simple query. Its
// extended-protocol messages (Parse, Bind, Execute, ...) and whole transactions therefore run
// without another connection's in between. The pglite-socket server queues single messages, and
// two connections' unnamed statements then overwrite each other: one gets the other's rows.
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
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serve(db, turns, socket);
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

function serve(db: PGlite, turns: Turns, socket: Socket): void {
  let buffer = Buffer.alloc(0);
  let started = false;
  let batch: Buffer[] = [];
  let release: (() => void) | null = null;
  // This connection's batches run in order, each after the previous one.
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (work: () => Promise<void>): void => {
    queue = queue.then(work).catch(() => {
      socket.destroy();
    });
  };

  const run = async (messages: Buffer[], endsTurn: boolean): Promise<void> => {
    release ??= await turns.take();
    for (const message of messages) {
      await db.runExclusive(() =>
        db.execProtocolRawStream(new Uint8Array(message), { onRawData: (data) => void (socket.writable && socket.write(data)) }),
      );
    }
    if (endsTurn && !db.isInTransaction()) {
      release();
      release = null;
    }
  };

  socket.setNoDelay(true);
  socket.on('error', () => socket.destroy());
  socket.on('close', () =>
    enqueue(async () => {
      if (!release) return;
      // A client gone in the middle of a transaction must not leave the only session in it.
      if (db.isInTransaction()) await db.exec('ROLLBACK');
      release();
      release = null;
    }),
  );
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
