import type { Kysely } from 'kysely';

/** Workflows (the name, domain and status) and their versions (the ordered unit lists). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('workflows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('domain_id', 'text', (c) => c.notNull().references('domains.id'))
    .addColumn('jurisdiction', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('latest_version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('workflows_org_slug_unique', ['org_id', 'slug'])
    .execute();
  await db.schema.createIndex('workflows_org_created').on('workflows').columns(['org_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('workflow_versions')
    .addColumn('workflow_id', 'text', (c) => c.notNull().references('workflows.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('units', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('workflow_versions_pk', ['workflow_id', 'version'])
    .execute();

  // Which units each version lists: a unit in use cannot be deleted.
  await db.schema
    .createTable('workflow_units')
    .addColumn('workflow_id', 'text', (c) => c.notNull().references('workflows.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('unit_id', 'text', (c) => c.notNull().references('units.id'))
    .addPrimaryKeyConstraint('workflow_units_pk', ['workflow_id', 'version', 'unit_id'])
    .execute();
  await db.schema.createIndex('workflow_units_unit').on('workflow_units').columns(['unit_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['workflow_units', 'workflow_versions', 'workflows']) await db.schema.dropTable(table).ifExists().execute();
}
