import type pg from 'pg';

/**
 * A fresh copy of `template` named `target` (dropped first), leaving nothing for what runs next to
 * share the disk with. FILE_COPY copies the files instead of writing the whole template (the
 * bench's is about 500 MB) to the WAL, PostgreSQL 15's default: that much WAL starts a checkpoint,
 * which PostgreSQL spreads over the next minutes (the first scenario's), writing pages and logging
 * whole pages beside its statements. The CHECKPOINT after it leaves no page dirty.
 * `test/integration/operations/bench-database-copy.int-spec.ts` measures the WAL it writes.
 */
export async function copyDatabase(server: pg.Client, template: string, target: string): Promise<void> {
  await server.query(`DROP DATABASE IF EXISTS ${target} WITH (FORCE)`);
  await server.query(`CREATE DATABASE ${target} TEMPLATE ${template} STRATEGY FILE_COPY`);
  await server.query('CHECKPOINT');
}
