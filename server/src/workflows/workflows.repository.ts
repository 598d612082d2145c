import type { Db } from '../db/database.js';
import type { WorkflowsTable, WorkflowVersionsTable } from '../db/schema.js';

export type WorkflowVersionRow = WorkflowVersionsTable;

export interface WorkflowFilters {
  domainId?: string;
  status?: string;
}

export function findWorkflow(db: Db, orgId: string, slug: string): Promise<WorkflowsTable | undefined> {
  return db.selectFrom('workflows').selectAll().where('org_id', '=', orgId).where('slug', '=', slug).executeTakeFirst();
}

export function findVersion(db: Db, workflowId: string, version: number): Promise<WorkflowVersionRow | undefined> {
  return db.selectFrom('workflow_versions').selectAll().where('workflow_id', '=', workflowId).where('version', '=', version).executeTakeFirst();
}

function filtered(db: Db, orgId: string, filters: WorkflowFilters) {
  let query = db.selectFrom('workflows').where('org_id', '=', orgId);
  if (filters.domainId !== undefined) query = query.where('domain_id', '=', filters.domainId);
  if (filters.status !== undefined) query = query.where('status', '=', filters.status);
  return query;
}

export async function listWorkflows(db: Db, orgId: string, filters: WorkflowFilters, page: { limit: number; offset: number }) {
  const [rows, count] = await Promise.all([
    filtered(db, orgId, filters).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    filtered(db, orgId, filters).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function insertWorkflow(db: Db, row: WorkflowsTable): Promise<void> {
  await db.insertInto('workflows').values(row).execute();
}

export async function updateWorkflow(db: Db, id: string, values: Partial<WorkflowsTable>): Promise<void> {
  await db.updateTable('workflows').set(values).where('id', '=', id).execute();
}

/** Stores a version and which units it lists (so a listed unit cannot be deleted). */
export async function insertVersion(db: Db, row: WorkflowVersionRow): Promise<WorkflowVersionRow> {
  await db.insertInto('workflow_versions').values(row).execute();
  const units = JSON.parse(row.units) as string[];
  if (units.length > 0) {
    await db.insertInto('workflow_units').values(units.map((unitId) => ({ workflow_id: row.workflow_id, version: row.version, unit_id: unitId }))).execute();
  }
  return row;
}

/** The slug of a workflow listing this unit in any version, if any. */
export async function workflowListing(db: Db, unitId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('workflow_units as wu')
    .innerJoin('workflows as w', 'w.id', 'wu.workflow_id')
    .select('w.slug')
    .where('wu.unit_id', '=', unitId)
    .executeTakeFirst();
  return row?.slug;
}
