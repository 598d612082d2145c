import { type Actor, insertAuditEntry } from '../audit/audit.repository.js';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/database.js';
import { lockOrganization } from '../db/locks.js';
import type { UnitsTable, WorkflowsTable } from '../db/schema.js';
import { slugsLike } from '../db/slug-queries.js';
import type { Deps } from '../deps.js';
import { domainExists } from '../domains/domains.repository.js';
import { conflict, invalid, notFound } from '../shared/errors.js';
import { newId, nowIso } from '../shared/ids.js';
import { slugOf } from '../shared/slugs.js';
import { contentOf } from '../units/unit-record.js';
import { unitsByIds } from '../units/units.repository.js';
import { type Dag, type DagUnit, deriveDag, type FeedsEdge } from './dag.js';
import * as repo from './workflows.repository.js';

export type WorkflowStatus = 'draft' | 'active' | 'archived';

export interface Workflow extends Omit<Dag, 'nodes' | 'edges'> {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  domainId: string;
  jurisdiction: string | null;
  units: string[];
  version: number;
  status: WorkflowStatus;
  dag: Pick<Dag, 'nodes' | 'edges'>;
  createdAt: string;
  updatedAt: string;
}

export const toDagUnit = (row: UnitsTable): DagUnit => {
  const content = contentOf(row);
  return { id: row.id, name: row.name, unitType: row.unit_type, status: row.status, inputSchema: content.inputSchema, outputSchema: content.outputSchema };
};

/** The listed units as rows, in order; each must be the organization's (404) and the domain's (400). */
async function unitsOf(db: Db, orgId: string, domainId: string, unitIds: readonly string[]): Promise<UnitsTable[]> {
  const rows = await unitsByIds(db, orgId, unitIds);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return unitIds.map((id, i) => {
    const row = byId.get(id);
    if (!row) throw notFound('Unit', { field: `units[${i}]` });
    if (row.domain_id !== domainId) throw invalid(`units[${i}]`, `${row.name} belongs to another domain`);
    return row;
  });
}

async function feedsEdgesAmong(db: Db, orgId: string, unitIds: readonly string[]): Promise<FeedsEdge[]> {
  if (unitIds.length === 0) return [];
  const rows = await db
    .selectFrom('unit_edges')
    .select(['source_unit_id', 'target_unit_id', 'mapping'])
    .where('org_id', '=', orgId)
    .where('kind', '=', 'feeds')
    .where('source_unit_id', 'in', unitIds)
    .where('target_unit_id', 'in', unitIds)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => ({ sourceUnitId: r.source_unit_id, targetUnitId: r.target_unit_id, mapping: JSON.parse(r.mapping) as Record<string, string> }));
}

/** The checked DAG of an ordered unit list (also what inference runs for a workflow). */
export async function dagOf(db: Db, orgId: string, domainId: string, unitIds: readonly string[]) {
  const rows = await unitsOf(db, orgId, domainId, unitIds);
  return { rows, dag: deriveDag(rows.map(toDagUnit), await feedsEdgesAmong(db, orgId, unitIds)) };
}

async function toWorkflow(db: Db, orgId: string, row: WorkflowsTable, version: repo.WorkflowVersionRow): Promise<Workflow> {
  const units = JSON.parse(version.units) as string[];
  // Units deleted since are left out of the view (a listed unit cannot be deleted, so only for safety).
  const rows = await unitsByIds(db, orgId, units);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const present = units.flatMap((id) => byId.get(id) ?? []);
  // Units and edges may have changed since the version was stored: the view never fails on that.
  const { nodes, edges, inputs, outputs, verification } = deriveDag(present.map(toDagUnit), await feedsEdgesAmong(db, orgId, units), { lenient: true });
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: version.description,
    domainId: row.domain_id,
    jurisdiction: row.jurisdiction,
    units,
    version: version.version,
    status: row.status as WorkflowStatus,
    dag: { nodes, edges },
    inputs,
    outputs,
    verification,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface WorkflowInput {
  name: string;
  domainId: string;
  units: string[];
  description?: string;
  jurisdiction?: string;
}

export function createWorkflow(deps: Deps, principal: Principal, actor: Actor, input: WorkflowInput): Promise<Workflow> {
  const { db, dialect } = deps.store;
  return db.transaction().execute(async (trx) => {
    await lockOrganization(trx, dialect, principal.orgId);
    if (!(await domainExists(trx, principal.orgId, input.domainId))) throw notFound('Domain', { field: 'domainId' });
    const slug = slugOf(input.name, 'workflow');
    if ((await slugsLike(trx, 'workflows', principal.orgId, slug)).includes(slug)) {
      throw conflict(`A workflow with the slug ${slug} exists: add a version to it instead`, { field: 'name', slug });
    }
    await dagOf(trx, principal.orgId, input.domainId, input.units);
    const at = nowIso();
    const row: WorkflowsTable = {
      id: newId('wf'), org_id: principal.orgId, slug, name: input.name, domain_id: input.domainId,
      jurisdiction: input.jurisdiction ?? null, status: 'draft', latest_version: 1, created_at: at, updated_at: at,
    };
    await repo.insertWorkflow(trx, row);
    const version = await repo.insertVersion(trx, { workflow_id: row.id, version: 1, units: JSON.stringify(input.units), description: input.description ?? null, created_by: principal.userId, created_at: at });
    await insertAuditEntry(trx, dialect, actor, {
      orgId: principal.orgId, action: 'workflow.created', resourceType: 'workflow', resourceId: row.id,
      details: { slug, name: input.name, domainId: input.domainId, version: 1, units: input.units },
    });
    return toWorkflow(trx, principal.orgId, row, version);
  });
}

async function workflowBySlug(db: Db, orgId: string, slug: string): Promise<WorkflowsTable> {
  const row = await repo.findWorkflow(db, orgId, slug);
  if (!row) throw notFound('Workflow');
  return row;
}

export async function getWorkflow(deps: Deps, principal: Principal, slug: string, version?: number): Promise<Workflow> {
  const { db } = deps.store;
  const row = await workflowBySlug(db, principal.orgId, slug);
  const found = await repo.findVersion(db, row.id, version ?? row.latest_version);
  if (!found) throw notFound('Workflow version', { field: 'version' });
  return toWorkflow(db, principal.orgId, row, found);
}

export async function listWorkflows(deps: Deps, principal: Principal, filters: repo.WorkflowFilters, page: { limit: number; offset: number }) {
  const { db } = deps.store;
  const { rows, total } = await repo.listWorkflows(db, principal.orgId, filters, page);
  const workflows: Workflow[] = [];
  for (const row of rows) workflows.push(await toWorkflow(db, principal.orgId, row, (await repo.findVersion(db, row.id, row.latest_version))!));
  return { workflows, total };
}

export function createWorkflowVersion(deps: Deps, principal: Principal, actor: Actor, slug: string, input: { units: string[]; description?: string }): Promise<Workflow> {
  const { db, dialect } = deps.store;
  return db.transaction().execute(async (trx) => {
    await lockOrganization(trx, dialect, principal.orgId);
    const row = await workflowBySlug(trx, principal.orgId, slug);
    await dagOf(trx, principal.orgId, row.domain_id, input.units);
    const at = nowIso();
    const number = row.latest_version + 1;
    const version = await repo.insertVersion(trx, { workflow_id: row.id, version: number, units: JSON.stringify(input.units), description: input.description ?? null, created_by: principal.userId, created_at: at });
    await repo.updateWorkflow(trx, row.id, { latest_version: number, updated_at: at });
    await insertAuditEntry(trx, dialect, actor, {
      orgId: principal.orgId, action: 'workflow.versioned', resourceType: 'workflow', resourceId: row.id,
      details: { slug, fromVersion: row.latest_version, toVersion: number, units: input.units },
    });
    return toWorkflow(trx, principal.orgId, { ...row, latest_version: number, updated_at: at }, version);
  });
}

export function updateWorkflowStatus(deps: Deps, principal: Principal, actor: Actor, slug: string, status: WorkflowStatus): Promise<Workflow> {
  const { db, dialect } = deps.store;
  return db.transaction().execute(async (trx) => {
    await lockOrganization(trx, dialect, principal.orgId);
    const row = await workflowBySlug(trx, principal.orgId, slug);
    const latest = (await repo.findVersion(trx, row.id, row.latest_version))!;
    if (row.status === status) return toWorkflow(trx, principal.orgId, row, latest);
    const at = nowIso();
    await repo.updateWorkflow(trx, row.id, { status, updated_at: at });
    await insertAuditEntry(trx, dialect, actor, {
      orgId: principal.orgId, action: 'workflow.status_changed', resourceType: 'workflow', resourceId: row.id,
      details: { slug, from: row.status, to: status },
    });
    return toWorkflow(trx, principal.orgId, { ...row, status, updated_at: at }, latest);
  });
}
