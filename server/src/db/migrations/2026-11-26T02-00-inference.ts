import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Full-text matching over units (SQLite FTS5 / Postgres tsvector + GIN, both over
 * `units.search_text`, kept in sync by the database on every unit write), and the tables of
 * inference: sessions, the inference log, feedback and coverage gaps. Everything that carries a
 * question's words is stored encrypted (`*_ciphertext`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`ALTER TABLE units ADD COLUMN search tsvector GENERATED ALWAYS AS (to_tsvector('english', search_text)) STORED`.execute(db);
    await sql`CREATE INDEX units_search ON units USING GIN (search)`.execute(db);
  } else {
    await sql`CREATE VIRTUAL TABLE units_fts USING fts5(search_text, content='units', content_rowid='rowid', tokenize='porter unicode61')`.execute(db);
    await sql`CREATE VIRTUAL TABLE units_fts_vocab USING fts5vocab('units_fts', 'row')`.execute(db);
    await sql`INSERT INTO units_fts(rowid, search_text) SELECT rowid, search_text FROM units`.execute(db);
    await sql`
      CREATE TRIGGER units_fts_insert AFTER INSERT ON units BEGIN
        INSERT INTO units_fts(rowid, search_text) VALUES (new.rowid, new.search_text);
      END`.execute(db);
    await sql`
      CREATE TRIGGER units_fts_delete AFTER DELETE ON units BEGIN
        INSERT INTO units_fts(units_fts, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
      END`.execute(db);
    await sql`
      CREATE TRIGGER units_fts_update AFTER UPDATE OF search_text ON units BEGIN
        INSERT INTO units_fts(units_fts, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
        INSERT INTO units_fts(rowid, search_text) VALUES (new.rowid, new.search_text);
      END`.execute(db);
  }

  await db.schema
    .createTable('inference_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('state_ciphertext', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('inference_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text')
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('coverage_percent', 'double precision', (c) => c.notNull())
    .addColumn('duration_ms', 'double precision', (c) => c.notNull())
    .addColumn('trust_summary', 'text', (c) => c.notNull())
    .addColumn('units_fired', 'text', (c) => c.notNull())
    .addColumn('models_used', 'text', (c) => c.notNull())
    .addColumn('segment_count', 'integer', (c) => c.notNull())
    .addColumn('payload_ciphertext', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('inference_logs_org_created').on('inference_logs').columns(['org_id', 'created_at']).execute();
  await db.schema.createIndex('inference_logs_org_user_created').on('inference_logs').columns(['org_id', 'user_id', 'created_at']).execute();
  await db.schema.createIndex('inference_logs_session').on('inference_logs').columns(['session_id']).execute();

  await db.schema
    .createTable('inference_feedback')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('inference_log_id', 'text', (c) => c.notNull().references('inference_logs.id'))
    .addColumn('segment_index', 'integer', (c) => c.notNull())
    .addColumn('feedback', 'text', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // One row per uncovered part of a question; `gap_key` (a keyed fingerprint) groups equal asks.
  await db.schema
    .createTable('inference_gaps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('domain_id', 'text')
    .addColumn('gap_key', 'text', (c) => c.notNull())
    .addColumn('output_ciphertext', 'text', (c) => c.notNull())
    .addColumn('inference_log_id', 'text', (c) => c.notNull())
    .addColumn('resolved_unit_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('inference_gaps_org_key').on('inference_gaps').columns(['org_id', 'gap_key']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['inference_gaps', 'inference_feedback', 'inference_logs', 'inference_sessions']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`ALTER TABLE units DROP COLUMN IF EXISTS search`.execute(db);
  } else {
    for (const trigger of ['units_fts_insert', 'units_fts_delete', 'units_fts_update']) await sql.raw(`DROP TRIGGER IF EXISTS ${trigger}`).execute(db);
    await sql`DROP TABLE IF EXISTS units_fts_vocab`.execute(db);
    await sql`DROP TABLE IF EXISTS units_fts`.execute(db);
  }
}
