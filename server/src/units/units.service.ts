import { isDeepStrictEqual } from 'node:util';
import { type Actor, insertAuditEntry } from '../audit/audit.repository.js';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/database.js';
import { lockOrganization } from '../db/locks.js';
import { slugsLike } from '../db/slug-queries.js';
import type { UnitsTable } from '../db/schema.js';
import type { Deps } from '../deps.js';
import { domainExists } from '../domains/domains.repository.js';
import { workflowListing } from '../workflows/workflows.repository.js';
import { conflict, invalid, notFound } from '../shared/errors.js';
import { newId, nowIso } from '../shared/ids.js';
import { firstFreeSlug, slugOf } from '../shared/slugs.js';
import type { UnitExampleResults } from './definition.js';
import { compileUnit, runExamples } from './executor.js';
import { CONTENT_FIELDS, contentColumns, contentOf, toUnit, type Unit, type UnitContent } from './unit-record.js';
import * as repo from './units.repository.js';
import { validateUnitDefinition } from './validate-definition.js';

/** A create body (openapi.yaml: UnitCreate): optional fields may be absent. */
export type UnitInput = Pick<UnitContent, 'name' | 'unitType' | 'domainId'> & Partial<UnitContent>;
/** A PATCH body (UnitUpdate): `null` clears an optional field. */
export type UnitPatch = Partial<UnitContent>;

const EMPTY_SCHEMA = { type: 'object', properties: {} } as const;

export function contentFromInput(input: UnitInput): UnitContent {
  return {
    name: input.name,
    unitType: input.unitType,
    domainId: input.domainId,
    description: input.description ?? null,
    given: input.given ?? null,
    when: input.when ?? null,
    then: input.then ?? null,
    inputSchema: input.inputSchema ?? structuredClone(EMPTY_SCHEMA),
    outputSchema: input.outputSchema ?? structuredClone(EMPTY_SCHEMA),
    jurisdiction: input.jurisdiction ?? null,
    definition: input.definition ?? null,
    examples: input.examples ?? [],
  };
}

/**
 * Checks content as on every write (the domain is the caller's, the definition and examples are
 * valid: 400 with the dotted path) and runs the examples on the compiled unit.
 */
async function checkedContent(db: Db, orgId: string, content: UnitContent, key: { id: string; version: number }): Promise<UnitExampleResults> {
  if (!(await domainExists(db, orgId, content.domainId))) throw notFound('Domain', { field: 'domainId' });
  const issue = validateUnitDefinition(content);
  if (issue) throw invalid(issue.field, issue.issue);
  return runExamples(compileUnit({ ...content, ...key }), content.examples);
}

/** Units with their review history, in the order given. */
async function withReviews(db: Db, rows: readonly UnitsTable[]): Promise<Unit[]> {
  const reviews = await repo.reviewsOf(db, rows.map((r) => r.id));
  return rows.map((row) => toUnit(row, reviews.get(row.id) ?? []));
}

export async function loadUnit(db: Db, orgId: string, unitId: string): Promise<Unit> {
  const row = await repo.findUnit(db, orgId, unitId);
  if (!row) throw notFound('Unit');
  const [unit] = await withReviews(db, [row]);
  return unit!;
}

/** How a unit's creation is audited: `unit.created`, or the action of the feature that drafted it. */
export interface CreationAudit {
  action?: 'unit.created' | 'inference.saved_as_unit' | 'units.generated_from_gaps';
  details?: Record<string, unknown>;
}

/**
 * Inserts a new candidate unit authored by the caller, with its audit entry, inside the caller's
 * transaction (also used by domain templates and inference). The organization is locked first so
 * that two creations never pick the same slug.
 */
export async function insertNewUnit(
  trx: Db, deps: Deps, principal: Principal, actor: Actor, content: UnitContent, audit: CreationAudit = {},
): Promise<UnitsTable> {
  await lockOrganization(trx, deps.store.dialect, principal.orgId);
  const id = newId('unit');
  const exampleResults = await checkedContent(trx, principal.orgId, content, { id, version: 1 });
  const slug = firstFreeSlug(slugOf(content.name, 'unit'), await slugsLike(trx, 'units', principal.orgId, slugOf(content.name, 'unit')));
  const at = nowIso();
  const row: UnitsTable = {
    id,
    org_id: principal.orgId,
    slug,
    ...contentColumns(content),
    example_results: JSON.stringify(exampleResults),
    status: 'candidate',
    version: 1,
    verification_score: 0,
    approval_rate: 0,
    author_id: principal.userId,
    reviewers: '[]',
    created_at: at,
    updated_at: at,
  };
  await repo.insertUnit(trx, row);
  await insertAuditEntry(trx, deps.store.dialect, actor, {
    orgId: principal.orgId,
    action: audit.action ?? 'unit.created',
    resourceType: 'unit',
    resourceId: id,
    details: { slug, name: content.name, unitType: content.unitType, domainId: content.domainId, ...audit.details },
  });
  return row;
}

export function createUnit(deps: Deps, principal: Principal, actor: Actor, input: UnitInput): Promise<Unit> {
  return deps.store.db.transaction().execute(async (trx) => {
    const row = await insertNewUnit(trx, deps, principal, actor, contentFromInput(input));
    return toUnit(row, []);
  });
}

export function getUnit(deps: Deps, principal: Principal, unitId: string): Promise<Unit> {
  return loadUnit(deps.store.db, principal.orgId, unitId);
}

export async function listUnits(deps: Deps, principal: Principal, filters: repo.UnitFilters, page: { limit: number; offset: number }) {
  const { db } = deps.store;
  const { rows, total } = await repo.listUnits(db, principal.orgId, filters, page);
  return { units: await withReviews(db, rows), total };
}

/** Units by slug, in the order of the slugs asked for; unknown slugs are left out. */
export async function getUnitsBySlugs(deps: Deps, principal: Principal, slugs: readonly string[]): Promise<Unit[]> {
  const { db } = deps.store;
  const rows = await repo.findUnitsBySlugs(db, principal.orgId, slugs);
  const bySlug = new Map(rows.map((r) => [r.slug, r]));
  return withReviews(db, slugs.flatMap((s) => bySlug.get(s) ?? []));
}


/** The content fields whose value differs, with their values before and after. */
export function contentDiff(before: UnitContent, after: UnitContent) {
  const changed = CONTENT_FIELDS.filter((f) => !isDeepStrictEqual(before[f], after[f]));
  return {
    changed,
    before: Object.fromEntries(changed.map((f) => [f, before[f]])),
    after: Object.fromEntries(changed.map((f) => [f, after[f]])),
  };
}

/**
 * Applies new content to a unit: a real change bumps `version` and resets the review state
 * (status `candidate`, scores 0; reviews stay in history under their version). Returns
 * the unit unchanged when nothing changed. Audited as `action` with the diff.
 */
export async function reviseUnit(
  trx: Db, deps: Deps, principal: Principal, actor: Actor, unitId: string,
  action: 'unit.updated' | 'unit.ai_edited',
  revise: (content: UnitContent) => { content: UnitContent; details?: Record<string, unknown> },
): Promise<Unit> {
  // Writers of one organization's units are serialised: a review racing an edit must not verify the new version.
  await lockOrganization(trx, deps.store.dialect, principal.orgId);
  const row = await repo.findUnit(trx, principal.orgId, unitId);
  if (!row) throw notFound('Unit');
  const before = contentOf(row);
  const { content: after, details } = revise(structuredClone(before));
  const diff = contentDiff(before, after);
  if (diff.changed.length === 0) return loadUnit(trx, principal.orgId, unitId);
  const version = row.version + 1;
  const exampleResults = await checkedContent(trx, principal.orgId, after, { id: row.id, version });
  await repo.updateUnit(trx, row.id, {
    ...contentColumns(after),
    example_results: JSON.stringify(exampleResults),
    version,
    status: 'candidate',
    verification_score: 0,
    approval_rate: 0,
    updated_at: nowIso(),
  });
  await insertAuditEntry(trx, deps.store.dialect, actor, {
    orgId: principal.orgId,
    action,
    resourceType: 'unit',
    resourceId: row.id,
    details: { ...details, fromVersion: row.version, toVersion: version, ...diff },
  });
  return loadUnit(trx, principal.orgId, unitId);
}

export function updateUnit(deps: Deps, principal: Principal, actor: Actor, unitId: string, patch: UnitPatch): Promise<Unit> {
  return deps.store.db.transaction().execute((trx) =>
    reviseUnit(trx, deps, principal, actor, unitId, 'unit.updated', (content) => ({ content: { ...content, ...patch } })),
  );
}

export function deleteUnit(deps: Deps, principal: Principal, actor: Actor, unitId: string): Promise<Unit> {
  return deps.store.db.transaction().execute(async (trx) => {
    await lockOrganization(trx, deps.store.dialect, principal.orgId);
    const unit = await loadUnit(trx, principal.orgId, unitId);
    const workflow = await workflowListing(trx, unitId);
    if (workflow !== undefined) throw conflict(`The workflow ${workflow} lists this unit: it cannot be deleted`, { workflow });
    await repo.deleteUnit(trx, unitId);
    await insertAuditEntry(trx, deps.store.dialect, actor, {
      orgId: principal.orgId,
      action: 'unit.deleted',
      resourceType: 'unit',
      resourceId: unitId,
      details: { slug: unit.slug, name: unit.name, version: unit.version, status: unit.status },
    });
    return unit;
  });
}
