import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Unit counts per (organization, status, type, domain, jurisdiction), kept by triggers on every
 * write to `units`, so that `meta.total` of a filtered unit list sums a few hundred counters
 * instead of counting every matching unit (docs/PERFORMANCE.md, units list). A unit with no
 * jurisdiction counts under `''`: NULLs never match each other in a unique key.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('unit_counts')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('unit_type', 'text', (c) => c.notNull())
    .addColumn('domain_id', 'text', (c) => c.notNull())
    .addColumn('jurisdiction', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('unit_counts_pk', ['org_id', 'status', 'unit_type', 'domain_id', 'jurisdiction'])
    .execute();
  await sql`
    INSERT INTO unit_counts (org_id, status, unit_type, domain_id, jurisdiction, n)
    SELECT org_id, status, unit_type, domain_id, coalesce(jurisdiction, ''), count(*) FROM units
    GROUP BY org_id, status, unit_type, domain_id, coalesce(jurisdiction, '')`.execute(db);

  const add = (row: 'new' | 'old') => sql.raw(`
    INSERT INTO unit_counts (org_id, status, unit_type, domain_id, jurisdiction, n)
    VALUES (${row}.org_id, ${row}.status, ${row}.unit_type, ${row}.domain_id, coalesce(${row}.jurisdiction, ''), 1)
    ON CONFLICT (org_id, status, unit_type, domain_id, jurisdiction) DO UPDATE SET n = unit_counts.n + 1;`);
  const remove = (row: 'new' | 'old') => sql.raw(`
    UPDATE unit_counts SET n = n - 1
    WHERE org_id = ${row}.org_id AND status = ${row}.status AND unit_type = ${row}.unit_type
      AND domain_id = ${row}.domain_id AND jurisdiction = coalesce(${row}.jurisdiction, '');`);

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      CREATE FUNCTION unit_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN ${remove('old')} END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN ${add('new')} END IF;
        RETURN NULL;
      END $$`.execute(db);
    await sql`CREATE TRIGGER unit_counts_insert_delete AFTER INSERT OR DELETE ON units FOR EACH ROW EXECUTE FUNCTION unit_counts_track()`.execute(db);
    await sql`
      CREATE TRIGGER unit_counts_update AFTER UPDATE OF status, unit_type, domain_id, jurisdiction ON units
      FOR EACH ROW EXECUTE FUNCTION unit_counts_track()`.execute(db);
  } else {
    await sql`CREATE TRIGGER unit_counts_insert AFTER INSERT ON units BEGIN ${add('new')} END`.execute(db);
    await sql`CREATE TRIGGER unit_counts_delete AFTER DELETE ON units BEGIN ${remove('old')} END`.execute(db);
    await sql`
      CREATE TRIGGER unit_counts_update AFTER UPDATE OF status, unit_type, domain_id, jurisdiction ON units
      BEGIN ${remove('old')} ${add('new')} END`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`DROP TRIGGER IF EXISTS unit_counts_insert_delete ON units`.execute(db);
    await sql`DROP TRIGGER IF EXISTS unit_counts_update ON units`.execute(db);
    await sql`DROP FUNCTION IF EXISTS unit_counts_track()`.execute(db);
  } else {
    for (const t of ['unit_counts_insert', 'unit_counts_delete', 'unit_counts_update']) await sql.raw(`DROP TRIGGER IF EXISTS ${t}`).execute(db);
  }
  await db.schema.dropTable('unit_counts').ifExists().execute();
}
