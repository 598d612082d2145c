/**
 * `POST /inference` and its resume: parse -> match -> plan -> execute -> prose -> audit, then one
 * inference log entry (and the session, and gaps) in one transaction. The question, the values
 * taken from it and everything derived from them are stored encrypted.
 */
import { performance } from 'node:perf_hooks';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/database.js';
import type { Deps } from '../deps.js';
import { domainExists } from '../domains/domains.repository.js';
import { AppError, conflict, invalid, notFound } from '../shared/errors.js';
import { newId, nowIso } from '../shared/ids.js';
import type { PendingQuestion } from '../units/executor.js';
import { contentOf } from '../units/unit-record.js';
import { findVersion, findWorkflow } from '../workflows/workflows.repository.js';
import { dagOf } from '../workflows/workflows.service.js';
import { auditSegments } from './auditor.js';
import { type Evaluation, evaluatePlan, type Plan, planAnswer } from './engine.js';
import { gapOf } from './gaps.js';
import * as repo from './inference.repository.js';
import { searchUnits } from './match/unit-search.js';
import { type ModelRoles, resolveModelRoles } from './model-roles.js';
import { type ParsedQuery, parseQuery } from './parse/index.js';
import { arrange, localAdditions, responseOf } from './prose.js';
import { type InferenceMode, modeOf, type Segment, summarize, type TrustSummary } from './trust.js';

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

export interface InferenceRequest {
  query?: string;
  domainId?: string;
  jurisdiction?: string;
  sessionId?: string;
  additionalInputs?: Record<string, string>;
  includeUnverified?: boolean;
  workflowSlug?: string;
}

export interface InferenceResult {
  response: string;
  segments: Segment[];
  trustSummary: TrustSummary;
  coveragePercent: number;
  unitsUsed: { id: string; name: string; type: string; status: string; verificationScore: number }[];
  mode: InferenceMode;
  sessionId: string | null;
  pendingQuestions: PendingQuestion[];
  modelsUsed: ModelRoles['used'];
  inferenceLogId: string;
}

/** A paused run as stored (encrypted) in its session. */
interface SessionState {
  plan: Plan;
  answers: Record<string, string>;
  includeUnverified: boolean;
  domainId: string | null;
  pending: PendingQuestion[];
}

const STATUSES = { verified: ['verified', 'partial_verified'], all: ['verified', 'partial_verified', 'candidate', 'in_review'] };

export async function runInference(deps: Deps, principal: Principal, request: InferenceRequest): Promise<InferenceResult> {
  const started = performance.now();
  if (request.sessionId !== undefined) return resume(deps, principal, request.sessionId, request.additionalInputs ?? {}, started);
  const query = request.query;
  if (query === undefined) throw invalid('query', 'is required unless sessionId resumes a paused run');
  const { db, dialect } = deps.store;
  if (request.domainId !== undefined && !(await domainExists(db, principal.orgId, request.domainId))) {
    throw notFound('Domain', { field: 'domainId' });
  }
  const roles = await resolveModelRoles(deps, principal.orgId);
  const parsed = parseQuery(query);
  const jurisdiction = request.jurisdiction ?? parsed.jurisdiction ?? undefined;
  const includeUnverified = request.includeUnverified ?? false;
  const plan = request.workflowSlug !== undefined
    ? await workflowPlan(db, principal.orgId, request.workflowSlug, parsed, roles)
    : await planAnswer(
        parsed,
        await searchUnits(db, dialect, parsed.keywords, {
          orgId: principal.orgId,
          statuses: includeUnverified ? STATUSES.all : STATUSES.verified,
          domainId: request.domainId,
          jurisdiction,
          clauses: parsed.clauses.map((c) => c.text),
        }),
        (p, row) => roles.bind(p, contentOf(row).inputSchema),
        async (row) => row.definition !== null || roles.applies(query, { name: row.name, when: row.when_text, given: row.given_text }),
      );
  const answers = request.additionalInputs ?? {};
  const trace = [
    { stage: 'parse', provider: roles.used.parse.provider, clauses: parsed.clauses.length, values: parsed.values, jurisdiction: parsed.jurisdiction, keywords: parsed.keywords },
    { stage: 'match', jurisdiction: jurisdiction ?? null, domainId: request.domainId ?? null, workflow: plan.workflow ?? null, candidates: plan.considered, assignments: plan.assignments },
  ];
  return finish(deps, principal, roles, {
    query, plan, answers, includeUnverified, domainId: request.domainId ?? null, session: null, trace, started,
  });
}

/**
 * A workflow's units in its order, each with the inputs the question gives and the outputs of
 * earlier units feeding it (DESIGN §9). The whole question is the workflow's to answer.
 */
async function workflowPlan(db: Db, orgId: string, slug: string, parsed: ParsedQuery, roles: ModelRoles): Promise<Plan> {
  const workflow = await findWorkflow(db, orgId, slug);
  if (!workflow) throw notFound('Workflow', { field: 'workflowSlug' });
  if (workflow.status === 'archived') throw conflict(`The workflow ${slug} is archived: set it to active or draft to run it`, { field: 'workflowSlug' });
  const version = (await findVersion(db, workflow.id, workflow.latest_version))!;
  // A workflow that validated when stored may not any more (its units or edges changed since).
  const { rows, dag } = await dagOf(db, orgId, workflow.domain_id, JSON.parse(version.units) as string[]).catch((err: unknown) => {
    if (err instanceof AppError) throw conflict(`The workflow ${slug} no longer validates: ${err.message}. Store a new version.`, { field: 'workflowSlug' });
    throw err;
  });
  const clauses = parsed.clauses.map((c) => c.index);
  const assignments = [];
  for (const row of rows) {
    const bound = await roles.bind(parsed, contentOf(row).inputSchema);
    assignments.push({ unitId: row.id, version: row.version, clauses, valueClauses: [], inputs: bound.inputs, missing: bound.missing, feeds: dag.feeds.get(row.id) ?? [] });
  }
  return { clauses: parsed.clauses.map((c) => c.text), assignments, considered: [], workflow: { id: workflow.id, slug, version: version.version } };
}

async function resume(deps: Deps, principal: Principal, sessionId: string, additional: Record<string, string>, started: number): Promise<InferenceResult> {
  const { db } = deps.store;
  const row = await repo.findOpenSession(db, principal.orgId, sessionId, nowIso());
  if (!row) throw notFound('Session');
  const state = JSON.parse(deps.secrets.decrypt(row.state_ciphertext)) as SessionState;
  const pending = new Set(state.pending.map((q) => q.name));
  for (const name of Object.keys(additional)) {
    if (!pending.has(name) && !(name in state.answers)) throw invalid(`additionalInputs.${name}`, `is not a pending question of this session (pending: ${[...pending].join(', ')})`);
  }
  const roles = await resolveModelRoles(deps, principal.orgId);
  return finish(deps, principal, roles, {
    query: null,
    plan: state.plan,
    answers: { ...state.answers, ...additional },
    includeUnverified: state.includeUnverified,
    domainId: state.domainId,
    session: row.id,
    trace: [{ stage: 'resume', sessionId: row.id, answered: Object.keys(additional) }],
    started,
  });
}

interface Run {
  query: string | null;
  plan: Plan;
  answers: Record<string, string>;
  includeUnverified: boolean;
  domainId: string | null;
  /** The session being resumed, if any. */
  session: string | null;
  trace: Record<string, unknown>[];
  started: number;
}

async function finish(deps: Deps, principal: Principal, roles: ModelRoles, run: Run): Promise<InferenceResult> {
  const { db } = deps.store;
  const evaluation: Evaluation = await evaluatePlan(db, principal.orgId, run.plan, run.answers);
  const proseInput = { clauses: run.plan.clauses, evaluation, includeUnverified: run.includeUnverified };
  const prose = await roles.prose(proseInput, localAdditions);
  const segments = arrange(evaluation.segments, prose.additions);
  const auditWarnings = [
    ...roles.warnings,
    ...prose.warnings,
    ...auditSegments(segments, { query: run.query, values: [evaluation.inputVariables, evaluation.outputVariables] }),
  ];
  const paused = evaluation.pendingQuestions.length > 0;
  const trustSummary = summarize(segments);
  const mode = modeOf(evaluation.coveragePercent);
  const inferenceLogId = newId('inf');
  const at = nowIso();
  const trace = [...run.trace, ...evaluation.trace, { stage: 'prose', provider: roles.used.prose.provider, added: prose.additions.length }, { stage: 'audit', warnings: auditWarnings.length }];

  const sessionId = await db.transaction().execute(async (trx) => {
    let sessionId = run.session;
    if (paused) {
      const state: SessionState = { plan: run.plan, answers: run.answers, includeUnverified: run.includeUnverified, domainId: run.domainId, pending: evaluation.pendingQuestions };
      const ciphertext = deps.secrets.encrypt(JSON.stringify(state));
      if (sessionId === null) {
        sessionId = newId('ses');
        const expires = new Date(Date.now() + deps.config.sessionTtlMs).toISOString();
        await repo.insertSession(trx, { id: sessionId, org_id: principal.orgId, user_id: principal.userId, status: 'paused', state_ciphertext: ciphertext, expires_at: expires, created_at: at, updated_at: at });
      } else {
        await repo.updateSession(trx, sessionId, { state_ciphertext: ciphertext, updated_at: at });
      }
    } else if (sessionId !== null) {
      // A finished session keeps no state: nothing of the question outlives the log.
      await repo.updateSession(trx, sessionId, { status: 'finished', state_ciphertext: deps.secrets.encrypt('{}'), updated_at: at });
    }
    await repo.insertLog(trx, {
      id: inferenceLogId,
      org_id: principal.orgId,
      user_id: principal.userId,
      session_id: sessionId,
      mode,
      coverage_percent: evaluation.coveragePercent,
      duration_ms: Math.round((performance.now() - run.started) * 100) / 100,
      trust_summary: JSON.stringify(trustSummary),
      units_fired: JSON.stringify(evaluation.unitsUsed),
      models_used: JSON.stringify(roles.used),
      segment_count: segments.length,
      payload_ciphertext: deps.secrets.encrypt(JSON.stringify({
        query: run.query,
        inputVariables: evaluation.inputVariables,
        outputVariables: evaluation.outputVariables,
        executionTrace: trace,
        auditWarnings,
        segments,
      })),
      created_at: at,
    });
    // Parts of a new question that no unit covers are recorded once, as gaps.
    if (run.session === null) {
      for (const clause of evaluation.uncovered) {
        const gap = gapOf(run.plan.clauses[clause]!);
        if (gap === null) continue;
        await repo.insertGap(trx, {
          id: newId('gap'),
          org_id: principal.orgId,
          domain_id: run.domainId,
          gap_key: deps.secrets.fingerprint(gap.key),
          output_ciphertext: deps.secrets.encrypt(gap.output),
          inference_log_id: inferenceLogId,
          resolved_unit_id: null,
          created_at: at,
        });
      }
    }
    return sessionId;
  });

  return {
    response: responseOf(segments),
    segments,
    trustSummary,
    coveragePercent: evaluation.coveragePercent,
    unitsUsed: evaluation.unitsUsed.map(({ version: _version, ...u }) => u),
    mode,
    sessionId: paused || run.session !== null ? sessionId : null,
    pendingQuestions: evaluation.pendingQuestions,
    modelsUsed: roles.used,
    inferenceLogId,
  };
}
