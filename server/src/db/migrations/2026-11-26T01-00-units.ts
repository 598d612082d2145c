import type { Kysely } from 'kysely';

/** Domains and their members, units, their reviews and composition edges. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('domains')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('jurisdiction', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('domains_org_slug_unique', ['org_id', 'slug'])
    .execute();

  await db.schema
    .createTable('domain_members')
    .addColumn('domain_id', 'text', (c) => c.notNull().references('domains.id'))
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('domain_members_pk', ['domain_id', 'user_id'])
    .execute();

  // Content columns are JSON text (schemas, definition, examples); `version` numbers the content.
  await db.schema
    .createTable('units')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('unit_type', 'text', (c) => c.notNull())
    .addColumn('domain_id', 'text', (c) => c.notNull().references('domains.id'))
    .addColumn('description', 'text')
    .addColumn('given_text', 'text')
    .addColumn('when_text', 'text')
    .addColumn('then_text', 'text')
    .addColumn('input_schema', 'text', (c) => c.notNull())
    .addColumn('output_schema', 'text', (c) => c.notNull())
    .addColumn('jurisdiction', 'text')
    .addColumn('definition', 'text')
    .addColumn('examples', 'text', (c) => c.notNull())
    .addColumn('example_results', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('verification_score', 'double precision', (c) => c.notNull())
    .addColumn('approval_rate', 'double precision', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('reviewers', 'text', (c) => c.notNull())
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('units_org_slug_unique', ['org_id', 'slug'])
    .execute();
  // Lists are newest first, by any one filter (and the org): each has an index ending in the order.
  await db.schema.createIndex('units_org_created').on('units').columns(['org_id', 'created_at', 'id']).execute();
  for (const column of ['status', 'unit_type', 'domain_id', 'jurisdiction']) {
    await db.schema.createIndex(`units_org_${column}_created`).on('units').columns(['org_id', column, 'created_at', 'id']).execute();
  }

  await db.schema
    .createTable('unit_reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('unit_id', 'text', (c) => c.notNull().references('units.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('reviewer_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('element_reviews', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('unit_reviews_unit').on('unit_reviews').columns(['unit_id', 'id']).execute();

  await db.schema
    .createTable('unit_edges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('source_unit_id', 'text', (c) => c.notNull().references('units.id'))
    .addColumn('target_unit_id', 'text', (c) => c.notNull().references('units.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('mapping', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('unit_edges_unique', ['source_unit_id', 'target_unit_id', 'kind'])
    .execute();
  await db.schema.createIndex('unit_edges_target').on('unit_edges').columns(['target_unit_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['unit_edges', 'unit_reviews', 'units', 'domain_members', 'domains']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
