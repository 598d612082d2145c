import type { Db } from '../db/database.js';
import { applicableJurisdictions } from '../shared/jurisdictions.js';
import type { UnitEdgesTable, UnitReviewsTable, UnitsTable } from '../db/schema.js';
import { toReview, type UnitReview } from './unit-record.js';

export interface UnitFilters {
  status?: string;
  unitType?: string;
  domainId?: string;
  jurisdiction?: string;
}

export function findUnit(db: Db, orgId: string, unitId: string): Promise<UnitsTable | undefined> {
  return db.selectFrom('units').selectAll().where('org_id', '=', orgId).where('id', '=', unitId).executeTakeFirst();
}

function filtered(db: Db, orgId: string, filters: UnitFilters) {
  let query = db.selectFrom('units').where('org_id', '=', orgId);
  if (filters.status !== undefined) query = query.where('status', '=', filters.status);
  if (filters.unitType !== undefined) query = query.where('unit_type', '=', filters.unitType);
  if (filters.domainId !== undefined) query = query.where('domain_id', '=', filters.domainId);
  // A unit without a jurisdiction applies everywhere, one of a broader jurisdiction (US) in its parts (US-CA).
  const { jurisdiction } = filters;
  if (jurisdiction !== undefined) {
    query = query.where((eb) => eb.or([eb('jurisdiction', 'in', applicableJurisdictions(jurisdiction)), eb('jurisdiction', 'is', null)]));
  }
  return query;
}

/**
 * The number of units matching the filters, summed from `unit_counts` (kept by triggers): a few
 * hundred counters at most, however many units match.
 */
async function countUnits(db: Db, orgId: string, filters: UnitFilters): Promise<number> {
  let query = db.selectFrom('unit_counts').where('org_id', '=', orgId);
  if (filters.status !== undefined) query = query.where('status', '=', filters.status);
  if (filters.unitType !== undefined) query = query.where('unit_type', '=', filters.unitType);
  if (filters.domainId !== undefined) query = query.where('domain_id', '=', filters.domainId);
  if (filters.jurisdiction !== undefined) query = query.where('jurisdiction', 'in', [...applicableJurisdictions(filters.jurisdiction), '']);
  const row = await query.select((eb) => eb.fn.sum<number | string | null>('n').as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A page of units, newest first, and the number matching the filters. */
export async function listUnits(db: Db, orgId: string, filters: UnitFilters, page: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    filtered(db, orgId, filters).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    countUnits(db, orgId, filters),
  ]);
  return { rows, total };
}

export function findUnitsBySlugs(db: Db, orgId: string, slugs: readonly string[]): Promise<UnitsTable[]> {
  return db.selectFrom('units').selectAll().where('org_id', '=', orgId).where('slug', 'in', slugs).execute();
}

export async function insertUnit(db: Db, row: UnitsTable): Promise<void> {
  await db.insertInto('units').values(row).execute();
}

export async function updateUnit(db: Db, unitId: string, values: Partial<UnitsTable>): Promise<void> {
  await db.updateTable('units').set(values).where('id', '=', unitId).execute();
}

export async function deleteUnit(db: Db, unitId: string): Promise<void> {
  await db.deleteFrom('unit_edges').where((eb) => eb.or([eb('source_unit_id', '=', unitId), eb('target_unit_id', '=', unitId)])).execute();
  await db.deleteFrom('unit_reviews').where('unit_id', '=', unitId).execute();
  await db.deleteFrom('units').where('id', '=', unitId).execute();
}

/** Reviews of the given units, oldest first, grouped by unit. */
export async function reviewsOf(db: Db, unitIds: readonly string[]): Promise<Map<string, UnitReview[]>> {
  const byUnit = new Map<string, UnitReview[]>(unitIds.map((id) => [id, []]));
  if (unitIds.length === 0) return byUnit;
  const rows = await db.selectFrom('unit_reviews').selectAll().where('unit_id', 'in', unitIds).orderBy('unit_id').orderBy('id').execute();
  for (const row of rows) byUnit.get(row.unit_id)?.push(toReview(row));
  return byUnit;
}

export async function insertReview(db: Db, row: UnitReviewsTable): Promise<void> {
  await db.insertInto('unit_reviews').values(row).execute();
}

export function edgesOf(db: Db, orgId: string, unitId: string, page: { limit: number; offset: number }) {
  const touching = db
    .selectFrom('unit_edges')
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('source_unit_id', '=', unitId), eb('target_unit_id', '=', unitId)]));
  return Promise.all([
    touching.selectAll().orderBy('created_at').orderBy('id').limit(page.limit).offset(page.offset).execute(),
    touching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
}

export function findEdge(db: Db, sourceUnitId: string, targetUnitId: string, kind: string): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('unit_edges')
    .select('id')
    .where('source_unit_id', '=', sourceUnitId)
    .where('target_unit_id', '=', targetUnitId)
    .where('kind', '=', kind)
    .executeTakeFirst();
}

/** Units reached from `unitIds` by one edge of any kind. */
export async function successors(db: Db, orgId: string, unitIds: readonly string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('unit_edges')
    .select('target_unit_id')
    .distinct()
    .where('org_id', '=', orgId)
    .where('source_unit_id', 'in', unitIds)
    .execute();
  return rows.map((r) => r.target_unit_id);
}

export async function insertEdge(db: Db, row: UnitEdgesTable): Promise<void> {
  await db.insertInto('unit_edges').values(row).execute();
}

/**
 * The organization's units among these ids, by primary key. The organization is checked on the
 * rows: with `org_id = ? AND id IN (…)` SQLite may walk the organization's slug index instead of
 * looking up each id (it reads the whole organization then).
 */
export async function unitsByIds(db: Db, orgId: string, ids: readonly string[]): Promise<UnitsTable[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('units').selectAll().where('id', 'in', ids).execute();
  return rows.filter((r) => r.org_id === orgId);
}
