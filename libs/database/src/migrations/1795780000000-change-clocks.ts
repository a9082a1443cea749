import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The four tables a partner syncs by `updatedSince` (docs/design-record.md#d27). */
const SYNCED_TABLES = ['appointments', 'clients', 'payments', 'sales'] as const;

/**
 * Changes in commit order (docs/design-record.md#d27). A row's `updated_at` (and, when it is
 * inserted, its `created_at`) is no longer the API's clock before the commit but a stamp from its
 * business's change clock, taken in the database by the row's own write: the first write of a
 * transaction to a business's synced rows moves the clock past its last stamp and keeps the
 * clock's row locked until the transaction ends, so the next writer of that business stamps after
 * this one has committed. Stamps of one business therefore follow commit order, whatever the
 * number of API instances and their clocks, and a reader who saw a stamp has seen every change
 * stamped before it.
 *
 * Every row a transaction writes for one business shares the transaction's stamp (kept in the
 * transaction-local setting `app.change_stamp`), so a bulk write moves the clock once. A fixture
 * load sets `app.given_stamps` to keep the instants its file names.
 */
export class ChangeClocks1795780000000 implements MigrationInterface {
  name = 'ChangeClocks1795780000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "business_change_clocks" (
  "business_id" uuid NOT NULL,
  "stamped_at" TIMESTAMP WITH TIME ZONE NOT NULL,
  CONSTRAINT "business_change_clocks_pkey" PRIMARY KEY ("business_id"),
  CONSTRAINT "business_change_clocks_business_fkey" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE
)`);
    // Seeded past every stamp the API's clocks wrote (they may run ahead of the database's by
    // seconds), so that no new stamp is older than one a partner has seen; an instant more than an
    // hour ahead is not a clock's but a fixture's (given instants, such as demo data in 2030) and
    // would push every stamp into its future.
    await queryRunner.query(`INSERT INTO business_change_clocks (business_id, stamped_at)
SELECT b.id, greatest(clock_timestamp(), max(t.updated_at) FILTER (WHERE t.updated_at <= clock_timestamp() + interval '1 hour'))
  FROM businesses b
  LEFT JOIN (${SYNCED_TABLES.map((table) => `SELECT business_id, updated_at FROM ${table}`).join(' UNION ALL ')}) t ON t.business_id = b.id
 GROUP BY b.id`);
    await queryRunner.query(`CREATE FUNCTION business_change_stamp(business uuid) RETURNS timestamptz
LANGUAGE plpgsql AS $$
DECLARE
  held text := current_setting('app.change_stamp', true);
  stamp timestamptz;
BEGIN
  IF held IS NOT NULL AND left(held, 36) = business::text THEN
    RETURN substr(held, 38)::timestamptz;
  END IF;
  -- Another business's stamp is kept: this transaction may have stamped this one before too (a
  -- bulk write that goes from one business to another and back), and then it keeps that stamp.
  -- Moving the clock again would also lengthen its row's chain of versions with every switch.
  IF held IS NOT NULL AND held <> '' THEN
    SELECT clock.stamped_at INTO stamp FROM business_change_clocks AS clock
     WHERE clock.business_id = business AND clock.xmin::text::bigint = txid_current() % 4294967296;
  END IF;
  IF stamp IS NOT NULL THEN
    PERFORM set_config('app.change_stamp', business::text || '@' || stamp::text, true);
    RETURN stamp;
  END IF;
  INSERT INTO business_change_clocks AS clock (business_id, stamped_at) VALUES (business, clock_timestamp())
  ON CONFLICT (business_id) DO UPDATE SET stamped_at = greatest(clock_timestamp(), clock.stamped_at + interval '1 microsecond')
  RETURNING clock.stamped_at INTO stamp;
  PERFORM set_config('app.change_stamp', business::text || '@' || stamp::text, true);
  RETURN stamp;
END
$$`);
    await queryRunner.query(`CREATE FUNCTION stamp_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  stamp timestamptz := business_change_stamp(NEW.business_id);
BEGIN
  IF current_setting('app.given_stamps', true) = 'on' THEN
    RETURN NEW;
  END IF;
  NEW.updated_at := stamp;
  IF TG_OP = 'INSERT' THEN
    NEW.created_at := stamp;
  END IF;
  RETURN NEW;
END
$$`);
    for (const table of SYNCED_TABLES) {
      await queryRunner.query(
        `CREATE TRIGGER "${table}_stamp_change" BEFORE INSERT OR UPDATE ON "${table}" FOR EACH ROW EXECUTE FUNCTION stamp_change()`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of SYNCED_TABLES) await queryRunner.query(`DROP TRIGGER "${table}_stamp_change" ON "${table}"`);
    await queryRunner.query('DROP FUNCTION stamp_change()');
    await queryRunner.query('DROP FUNCTION business_change_stamp(uuid)');
    await queryRunner.query('DROP TABLE "business_change_clocks"');
  }
}
