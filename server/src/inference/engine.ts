/**
 * The inference pipeline's deterministic core: plan (assign matched units to the parts of a
 * question and bind their inputs) and evaluate (run the planned units through the executor and
 * render trust-tagged segments). A resumed session evaluates its stored plan again with the
 * answers so far, so any server process can resume any session.
 *
 * Verified and expert_reviewed segments are made here, from unit executions alone; model prose
 * (prose.ts) can only add synthesized or neural segments around them.
 */
import type { Db } from '../db/database.js';
import type { UnitsTable } from '../db/schema.js';
import type { Feed } from '../workflows/dag.js';
import { conflict, invalid } from '../shared/errors.js';
import type { JsonValue } from '../units/definition.js';
import { type CompiledUnit, compileUnit, type ExecutionResult, execute, ExecutionError, type PendingQuestion } from '../units/executor.js';
import type { UnitStatus } from '../units/review-state.js';
import { contentOf } from '../units/unit-record.js';
import { unitsByIds } from '../units/units.repository.js';
import { type Candidate, stemsOf } from './match/unit-search.js';
import type { BindResult, ParsedQuery } from './parse/index.js';
import { covers, type Segment, trustLevelOf } from './trust.js';

/** A unit chosen to answer parts of the question, with the inputs bound for it. */
export interface Assignment {
  unitId: string;
  version: number;
  /** Indexes of the clauses it answers. */
  clauses: number[];
  /** Clauses whose values it took (they count as covered when it covers). */
  valueClauses: number[];
  inputs: Record<string, unknown>;
  /** Required inputs the question did not give (the unit is then not run). */
  missing: string[];
  /** In a workflow: inputs taken from earlier units' outputs when they run. */
  feeds?: Feed[];
}

/** What the question asked and which units answer it: stored (encrypted) in a paused session. */
export interface Plan {
  clauses: string[];
  assignments: Assignment[];
  /** The candidates considered (for the trace). */
  considered: { unitId: string; score: number }[];
  /** Set when a workflow's units run in order instead of matched units. */
  workflow?: { id: string; slug: string; version: number };
}

type Binder = (parsed: ParsedQuery, row: UnitsTable) => Promise<BindResult>;
/** Whether a unit that can run should (the evaluate role, for declarative units). */
type Acceptor = (row: UnitsTable) => Promise<boolean>;

/**
 * A unit is about a clause when it shares two of the clause's words with the question, or one
 * that is in its name.
 */
export function relevant(candidate: Candidate, clauseStems: Set<string>): boolean {
  const shared = candidate.matched.filter((s) => clauseStems.has(s));
  if (shared.length >= 2) return true;
  const name = stemsOf(candidate.row.name);
  return shared.some((s) => name.has(s));
}

/** How much of a clause a candidate covers: its shared words, those of its name counting double. */
export function clauseScoreOf(candidate: Candidate, clauseStems: Set<string>): number {
  const name = stemsOf(candidate.row.name);
  return candidate.matched.filter((s) => clauseStems.has(s)).reduce((n, s) => n + (name.has(s) ? 2 : 1), 0);
}

/** A candidate may answer a clause when it covers at least this share of the best one's score. */
const CLOSE_TO_BEST = 0.75;

/**
 * For each clause, the best-ranked relevant candidate whose required inputs are all bound; when
 * none can run, the best relevant one, to say which inputs are missing. A unit answering several
 * clauses runs once.
 */
export async function planAnswer(parsed: ParsedQuery, candidates: readonly Candidate[], bind: Binder, accept: Acceptor): Promise<Plan> {
  const keywordStems = stemsOf(parsed.keywords.join(' '));
  const bindings = new Map<string, BindResult>();
  const bindFor = async (c: Candidate) => {
    let result = bindings.get(c.row.id);
    if (!result) bindings.set(c.row.id, (result = await bind(parsed, c.row)));
    return result;
  };
  const byUnit = new Map<string, Assignment>();
  for (const clause of parsed.clauses) {
    const clauseStems = new Set([...stemsOf(clause.text)].filter((s) => keywordStems.has(s)));
    // Ranked by how much of this clause each names (words of its name count double), then by the
    // whole question; only those close to the best may answer, so a weakly related unit whose
    // inputs happen to be bound never answers in place of the one the clause is about.
    const scored = candidates
      .filter((c) => c.score > 0 && relevant(c, clauseStems))
      .map((c) => ({ c, clauseScore: clauseScoreOf(c, clauseStems) }))
      .sort((a, b) => b.clauseScore - a.clauseScore || b.c.score - a.c.score);
    const best = scored[0]?.clauseScore ?? 0;
    const options = scored.filter((o) => o.clauseScore >= best * CLOSE_TO_BEST).map((o) => o.c);
    let chosen: Candidate | undefined;
    for (const option of options) {
      if ((await bindFor(option)).missing.length === 0 && (await accept(option.row))) {
        chosen = option;
        break;
      }
    }
    // None can run: the best one still missing inputs says which (one the evaluate role refused does not).
    if (!chosen) {
      for (const option of options) {
        if ((await bindFor(option)).missing.length > 0) {
          chosen = option;
          break;
        }
      }
    }
    if (!chosen) continue;
    const bound = await bindFor(chosen);
    const existing = byUnit.get(chosen.row.id);
    if (existing) {
      existing.clauses.push(clause.index);
      continue;
    }
    byUnit.set(chosen.row.id, {
      unitId: chosen.row.id,
      version: chosen.row.version,
      clauses: [clause.index],
      valueClauses: [...new Set(bound.bindings.flatMap((b) => (b.clause === null ? [] : [b.clause])))],
      inputs: bound.inputs,
      missing: bound.missing,
    });
  }
  return {
    clauses: parsed.clauses.map((c) => c.text),
    assignments: [...byUnit.values()],
    considered: candidates.map((c) => ({ unitId: c.row.id, score: Math.round(c.score * 1000) / 1000 })),
  };
}

export interface UnitUsed {
  id: string;
  name: string;
  type: string;
  status: UnitStatus;
  verificationScore: number;
  version: number;
}

/** A segment and the clause it answers (prose orders and joins them). */
export type PlacedSegment = Segment & { clause: number };

export interface Evaluation {
  /** Unit segments and notices, in clause order. */
  segments: PlacedSegment[];
  unitsUsed: UnitUsed[];
  pendingQuestions: PendingQuestion[];
  /** The variables each unit ran on (inputs, and a protocol's gate answers), by unit ID. */
  inputVariables: Record<string, Record<string, unknown>>;
  outputVariables: Record<string, Record<string, JsonValue>>;
  coveragePercent: number;
  /** Clauses no unit covers (they become gaps). */
  uncovered: number[];
  trace: Record<string, unknown>[];
}

/**
 * The text of a completed run that rendered none (a pattern that did not fire, an argument that
 * fell with no rebuttal text, a program without a `then`): what the execution found, from its
 * trace and outputs, so a unit never answers with silence.
 */
export function silentRunText(name: string, result: Extract<ExecutionResult, { status: 'completed' }>): string {
  const failed = result.trace.filter((t) => (t.kind === 'condition' || t.kind === 'premise') && !t.held).map((t) => t.id);
  if (failed.length > 0) return `${name} does not apply here: its conditions ${failed.join(', ')} do not hold.`;
  const outputs = Object.entries(result.outputs);
  if (outputs.length > 0) return `${name}: ${outputs.map(([k, v]) => `${k} = ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', ')}.`;
  return `${name} reached no conclusion here.`;
}

/** The gate answers a compiled unit uses, by gate name. */
const answersFor = (unit: CompiledUnit, answers: Record<string, string>): Record<string, string> =>
  Object.fromEntries([...unit.gates.keys()].filter((g) => answers[g] !== undefined).map((g) => [g, answers[g]!]));

const labelOf = (row: UnitsTable, name: string): string => {
  const schema = contentOf(row).inputSchema.properties?.[name];
  return typeof schema?.title === 'string' ? `${schema.title} (${name})` : name.replace(/_/g, ' ');
};

/**
 * Runs the plan's units on their bound inputs and the gate answers so far. A unit whose content
 * changed since the plan was made is a 409: the session would otherwise mix versions. An answer
 * to a gate none of the units has is 400 (`additionalInputs.<name>`).
 */
export async function evaluatePlan(db: Db, orgId: string, plan: Plan, answers: Record<string, string>): Promise<Evaluation> {
  const ids = plan.assignments.map((a) => a.unitId);
  const rows = await unitsByIds(db, orgId, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const compiled = new Map(rows.map((r) => [r.id, compileUnit({ ...contentOf(r), id: r.id, version: r.version })]));
  const gates = new Set([...compiled.values()].flatMap((u) => [...u.gates.keys()]));
  for (const name of Object.keys(answers)) {
    if (!gates.has(name)) throw invalid(`additionalInputs.${name}`, 'is not a question of the units this run asks');
  }
  const segments: PlacedSegment[] = [];
  const unitsUsed: UnitUsed[] = [];
  const pendingQuestions: PendingQuestion[] = [];
  const inputVariables: Record<string, Record<string, unknown>> = {};
  const outputVariables: Record<string, Record<string, JsonValue>> = {};
  const trace: Record<string, unknown>[] = [];
  const covered = new Set<number>();

  const firstClause = (a: Assignment) => Math.min(...a.clauses);
  // A workflow runs in its own order; matched units in the order of the clauses they answer.
  const ordered = plan.workflow ? plan.assignments : [...plan.assignments].sort((a, b) => firstClause(a) - firstClause(b));
  let completedCovering = 0;
  for (const assignment of ordered) {
    const row = byId.get(assignment.unitId);
    if (!row || row.version !== assignment.version) {
      throw conflict('A unit this run needs has changed or been deleted since it started: ask the question again', { unitId: assignment.unitId });
    }
    const status = row.status as UnitStatus;
    const unitRef = { unitId: row.id, unitName: row.name, clause: plan.workflow ? 0 : firstClause(assignment) };
    const needs = (missing: readonly string[]) =>
      segments.push({
        text: `${row.name} applies here but needs ${missing.map((m) => labelOf(row, m)).join(', ')}; ask again with ${missing.length === 1 ? 'this value' : 'these values'}.`,
        trustLevel: 'synthesized',
        ...unitRef,
      });
    // Outputs of earlier units feed this one (a workflow's chain), over what the question said.
    const inputs = { ...assignment.inputs };
    for (const feed of assignment.feeds ?? []) {
      const value = outputVariables[feed.from]?.[feed.output];
      if (value !== undefined) inputs[feed.input] = value;
    }
    const missing = assignment.missing.filter((name) => inputs[name] === undefined);
    if (missing.length > 0) {
      needs(missing);
      trace.push({ stage: 'execute', unitId: row.id, version: row.version, status: 'missing_inputs', missing });
      if (plan.workflow) break;
      continue;
    }
    const unit = compiled.get(row.id)!;
    inputVariables[row.id] = { ...inputs, ...answersFor(unit, answers) };
    let result: ExecutionResult;
    try {
      result = execute(unit, inputs, answers);
    } catch (err) {
      if (!(err instanceof ExecutionError)) throw err;
      segments.push({ text: `${row.name} could not be evaluated on these values (${err.message}).`, trustLevel: 'synthesized', ...unitRef });
      trace.push({ stage: 'execute', unitId: row.id, version: row.version, status: 'error', field: err.field, code: err.code });
      if (plan.workflow) break;
      continue;
    }
    trace.push({ stage: 'execute', unitId: row.id, version: row.version, status: result.status, steps: result.trace });
    if (result.status === 'missing_inputs') {
      needs(result.missing);
      if (plan.workflow) break;
      continue;
    }
    unitsUsed.push({ id: row.id, name: row.name, type: row.unit_type, status, verificationScore: row.verification_score, version: row.version });
    const text = result.texts.join(' ').trim() || (result.status === 'completed' ? silentRunText(row.name, result) : '');
    if (text.length > 0) segments.push({ text, trustLevel: trustLevelOf(status), ...unitRef });
    if (result.status === 'paused') {
      pendingQuestions.push(...result.pendingQuestions);
      // Later units of a workflow may need what the gate decides.
      if (plan.workflow) break;
      continue;
    }
    outputVariables[row.id] = { ...result.outcome, ...result.outputs } as Record<string, JsonValue>;
    if (covers(status)) {
      completedCovering++;
      for (const c of [...assignment.clauses, ...assignment.valueClauses]) covered.add(c);
    }
  }
  if (plan.workflow) {
    // A workflow answers the whole question: its coverage is the share of its units that ran verified.
    const total = plan.assignments.length;
    const share = total === 0 ? 0 : Math.round((completedCovering / total) * 10000) / 100;
    return { segments, unitsUsed, pendingQuestions, inputVariables, outputVariables, coveragePercent: share, uncovered: [], trace };
  }
  const total = plan.clauses.length;
  const assigned = new Set(plan.assignments.flatMap((a) => a.clauses));
  return {
    segments,
    unitsUsed,
    pendingQuestions,
    inputVariables,
    outputVariables,
    coveragePercent: total === 0 ? 0 : Math.round((covered.size / total) * 10000) / 100,
    uncovered: plan.clauses.map((_, i) => i).filter((i) => !covered.has(i) && !assigned.has(i)),
    trace,
  };
}
