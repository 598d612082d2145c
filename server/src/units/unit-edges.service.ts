import { type Actor, insertAuditEntry } from '../audit/audit.repository.js';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import { lockOrganization } from '../db/locks.js';
import type { UnitsTable } from '../db/schema.js';
import type { Deps } from '../deps.js';
import { conflict, invalid, notFound } from '../shared/errors.js';
import { newId, nowIso } from '../shared/ids.js';
import { describeType, typesCompatible, variablesOf } from './io-types.js';
import { contentOf, toEdge, type UnitEdge } from './unit-record.js';
import * as repo from './units.repository.js';

export interface EdgeInput {
  targetUnitId: string;
  kind: UnitEdge['kind'];
  mapping?: Record<string, string>;
}

export async function listUnitEdges(deps: Deps, principal: Principal, unitId: string, page: { limit: number; offset: number }) {
  const { db } = deps.store;
  if (!(await repo.findUnit(db, principal.orgId, unitId))) throw notFound('Unit');
  const [rows, count] = await repo.edgesOf(db, principal.orgId, unitId, page);
  return { edges: rows.map(toEdge), total: Number(count.n) };
}

/**
 * The output -> input pairs of a `feeds` edge: the mapping given, or the variables the two units
 * share by name; each pair must name a real output and input of compatible types.
 */
function feedsMapping(source: UnitsTable, target: UnitsTable, mapping: Record<string, string> | undefined): Record<string, string> {
  const outputs = variablesOf(contentOf(source).outputSchema);
  const inputs = variablesOf(contentOf(target).inputSchema);
  const pairs = mapping ?? Object.fromEntries(Object.keys(outputs).filter((name) => name in inputs).map((name) => [name, name]));
  if (Object.keys(pairs).length === 0) {
    throw invalid('mapping', `no output of ${source.slug} has the name of an input of ${target.slug}: give a mapping { <output>: <input> }`);
  }
  for (const [output, input] of Object.entries(pairs)) {
    if (!(output in outputs)) throw invalid(`mapping.${output}`, `${source.slug} has no output ${output}`);
    if (!(input in inputs)) throw invalid(`mapping.${output}`, `${target.slug} has no input ${input}`);
    if (!typesCompatible(outputs[output], inputs[input])) {
      throw invalid(`mapping.${output}`, `${source.slug}.${output} is ${describeType(outputs[output])} but ${target.slug}.${input} is ${describeType(inputs[input])}`);
    }
  }
  return pairs;
}

/** Whether `to` can already reach `from` along edges (so from -> to would close a cycle). */
async function reaches(db: Db, orgId: string, from: string, to: string): Promise<boolean> {
  const seen = new Set([from]);
  let frontier = [from];
  while (frontier.length > 0) {
    const next = (await repo.successors(db, orgId, frontier)).filter((id) => !seen.has(id));
    if (next.includes(to)) return true;
    for (const id of next) seen.add(id);
    frontier = next;
  }
  return false;
}

export function createUnitEdge(deps: Deps, principal: Principal, actor: Actor, unitId: string, input: EdgeInput): Promise<UnitEdge> {
  const { db, dialect } = deps.store;
  return db
    .transaction()
    .execute(async (trx) => {
      // Serialised per organization: two edges created at once must not close a cycle together.
      await lockOrganization(trx, dialect, principal.orgId);
      const source = await repo.findUnit(trx, principal.orgId, unitId);
      if (!source) throw notFound('Unit');
      if (input.targetUnitId === unitId) throw invalid('targetUnitId', 'a unit cannot be connected to itself');
      const target = await repo.findUnit(trx, principal.orgId, input.targetUnitId);
      if (!target) throw notFound('Target unit', { field: 'targetUnitId' });
      if (input.kind !== 'feeds' && input.mapping !== undefined) throw invalid('mapping', 'only feeds edges carry a mapping');
      const mapping = input.kind === 'feeds' ? feedsMapping(source, target, input.mapping) : {};
      if (await repo.findEdge(trx, unitId, target.id, input.kind)) throw conflict('This edge exists', { field: 'targetUnitId' });
      if (await reaches(trx, principal.orgId, target.id, unitId)) {
        throw conflict(`${target.slug} already leads to ${source.slug}: this edge would close a cycle`, { field: 'targetUnitId', rule: 'acyclic' });
      }
      const row = { id: newId('edge'), org_id: principal.orgId, source_unit_id: unitId, target_unit_id: target.id, kind: input.kind, mapping: JSON.stringify(mapping), created_at: nowIso() };
      await repo.insertEdge(trx, row);
      await insertAuditEntry(trx, dialect, actor, {
        orgId: principal.orgId,
        action: 'unit.edge_created',
        resourceType: 'unit',
        resourceId: unitId,
        details: { edgeId: row.id, targetUnitId: target.id, kind: input.kind, mapping },
      });
      return toEdge(row);
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw conflict('This edge exists', { field: 'targetUnitId' });
      throw err;
    });
}
