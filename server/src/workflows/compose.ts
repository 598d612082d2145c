/**
 * `POST /workflows/compose`: a workflow draft from a description. The description is split into
 * parts (the parse model role when one is configured, else clauses and their conjuncts), each
 * part matched against the domain's units with the same full-text matching as inference, and the
 * matched units chained by typed I/O and checked like any workflow.
 */
import type { Principal } from '../auth/principal.js';
import type { Deps } from '../deps.js';
import { domainExists } from '../domains/domains.repository.js';
import { clauseScoreOf, relevant } from '../inference/engine.js';
import { type Candidate, searchUnits, stemsOf } from '../inference/match/unit-search.js';
import { resolveModelRoles } from '../inference/model-roles.js';
import { parseQuery } from '../inference/parse/index.js';
import { draftName } from '../shared/draft-name.js';
import { notFound } from '../shared/errors.js';
import { chainOrder, deriveDag } from './dag.js';
import { toDagUnit } from './workflows.service.js';

const ALL_STATUSES = ['verified', 'partial_verified', 'candidate', 'in_review'];
const CONJUNCTS = /\s*(?:[,;]|\band then\b|\bthen\b|\bincluding\b|\bplus\b|\band\b|\bas well as\b)\s*/i;

/** The local decomposition: the description's clauses, split again at conjunctions. */
function localParts(description: string): string[] {
  return parseQuery(description)
    .clauses.flatMap((c) => c.text.split(CONJUNCTS))
    .map((p) => p.trim().replace(/[.?!]+$/, ''))
    .filter((p) => /[a-z]{3}/i.test(p));
}

/**
 * The units a part names (every word of the unit's name is in the part, e.g. "net pay after tax
 * withholding" names Net pay and Tax withholding), or else the one candidate most about it.
 */
function unitsFor(part: string, candidates: readonly Candidate[]): Candidate[] {
  const stems = stemsOf(part);
  const named = candidates.filter((c) => [...stemsOf(c.row.name)].every((s) => stems.has(s)));
  if (named.length > 0) return named;
  // Else the one most about it, by the rule inference uses for a part of a question.
  let best: { c: Candidate; weight: number } | undefined;
  for (const c of candidates) {
    if (!relevant(c, stems)) continue;
    const weight = clauseScoreOf(c, stems);
    if (!best || weight > best.weight) best = { c, weight };
  }
  return best ? [best.c] : [];
}

export async function composeWorkflow(deps: Deps, principal: Principal, input: { description: string; domainId: string }) {
  const { db, dialect } = deps.store;
  if (!(await domainExists(db, principal.orgId, input.domainId))) throw notFound('Domain', { field: 'domainId' });
  const roles = await resolveModelRoles(deps, principal.orgId);
  const parts = await roles.decompose(input.description, localParts);
  // Each part is searched on its own (clauses), so a description naming fifty units finds fifty.
  const candidates = await searchUnits(db, dialect, parseQuery(input.description).keywords, {
    orgId: principal.orgId, statuses: ALL_STATUSES, domainId: input.domainId, clauses: parts,
  });
  const chosen = new Map<string, Candidate>();
  const unmatched: string[] = [];
  for (const part of parts) {
    const matches = unitsFor(part, candidates);
    for (const match of matches) chosen.set(match.row.id, match);
    if (matches.length === 0) unmatched.push(part);
  }
  const rows = [...chosen.values()].map((c) => c.row);
  const edges = rows.length === 0 ? [] : await db
    .selectFrom('unit_edges').select(['source_unit_id', 'target_unit_id', 'mapping'])
    .where('org_id', '=', principal.orgId).where('kind', '=', 'feeds')
    .where('source_unit_id', 'in', rows.map((r) => r.id)).where('target_unit_id', 'in', rows.map((r) => r.id))
    .execute();
  const feeds = edges.map((e) => ({ sourceUnitId: e.source_unit_id, targetUnitId: e.target_unit_id, mapping: JSON.parse(e.mapping) as Record<string, string> }));
  const ordered = chainOrder(rows.map(toDagUnit), feeds);
  const { nodes, edges: dagEdges, inputs, outputs, verification } = deriveDag(ordered, feeds);
  return {
    name: draftName(input.description, 'Composed workflow'),
    description: input.description,
    domainId: input.domainId,
    units: ordered.map((u) => u.id),
    dag: { nodes, edges: dagEdges },
    inputs,
    outputs,
    verification,
    unmatched,
  };
}
