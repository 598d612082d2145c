/**
 * What inference leaves behind: the log (read back decrypted), feedback on its segments, units
 * saved from a segment, and candidate units drafted from the gaps most asked about.
 */
import { type Actor, insertAuditEntry } from '../audit/audit.repository.js';
import type { Principal } from '../auth/principal.js';
import type { InferenceLogsTable } from '../db/schema.js';
import type { Deps } from '../deps.js';
import { domainExists } from '../domains/domains.repository.js';
import { draftName } from '../shared/draft-name.js';
import { invalid, notFound } from '../shared/errors.js';
import { newId, nowIso } from '../shared/ids.js';
import type { UnitType } from '../units/definition.js';
import { toUnit, type Unit } from '../units/unit-record.js';
import { contentFromInput, insertNewUnit } from '../units/units.service.js';
import * as repo from './inference.repository.js';

interface LogPayload {
  query: string | null;
  inputVariables: Record<string, unknown>;
  outputVariables: Record<string, unknown>;
  executionTrace: Record<string, unknown>[];
  auditWarnings: string[];
}

/** Admins read every entry of the organization; everyone else only their own. */
const visible = (principal: Principal, row: InferenceLogsTable) => principal.role === 'admin' || row.user_id === principal.userId;

function toEntry(deps: Deps, row: InferenceLogsTable) {
  let payload: LogPayload | null = null;
  try {
    payload = JSON.parse(deps.secrets.decrypt(row.payload_ciphertext)) as LogPayload;
  } catch {
    // A key that rotated away: the entry stays listed, its protected parts empty.
  }
  return {
    id: row.id,
    userId: row.user_id,
    query: payload?.query ?? null,
    unitsFired: JSON.parse(row.units_fired) as unknown[],
    inputVariables: payload?.inputVariables ?? {},
    outputVariables: payload?.outputVariables ?? {},
    trustSummary: JSON.parse(row.trust_summary) as Record<string, number>,
    coveragePercent: row.coverage_percent,
    executionTrace: payload?.executionTrace ?? [],
    modelsUsed: JSON.parse(row.models_used) as Record<string, unknown>,
    auditWarnings: payload?.auditWarnings ?? (payload === null ? ['this entry could not be decrypted with the current keys'] : []),
    durationMs: row.duration_ms,
    mode: row.mode,
    sessionId: row.session_id,
    createdAt: row.created_at,
  };
}

export async function listInferenceLogs(deps: Deps, principal: Principal, filters: repo.LogFilters, page: { limit: number; offset: number }) {
  const scoped = principal.role === 'admin' ? filters : { ...filters, userId: principal.userId };
  if (principal.role !== 'admin' && filters.userId !== undefined && filters.userId !== principal.userId) {
    return { entries: [], total: 0 };
  }
  const { rows, total } = await repo.listLogs(deps.store.db, principal.orgId, scoped, page);
  return { entries: rows.map((r) => toEntry(deps, r)), total };
}

export interface FeedbackInput {
  inferenceLogId: string;
  segmentIndex: number;
  feedback: 'confirm' | 'incorrect';
  comment?: string;
}

export function submitFeedback(deps: Deps, principal: Principal, actor: Actor, input: FeedbackInput) {
  const { db, dialect } = deps.store;
  return db.transaction().execute(async (trx) => {
    const log = await repo.findLog(trx, principal.orgId, input.inferenceLogId);
    if (!log || !visible(principal, log)) throw notFound('Inference log entry', { field: 'inferenceLogId' });
    if (input.segmentIndex >= log.segment_count) {
      throw invalid('segmentIndex', `the answer has ${log.segment_count} segment${log.segment_count === 1 ? '' : 's'} (0 to ${log.segment_count - 1})`);
    }
    const row = {
      id: newId('fb'),
      org_id: principal.orgId,
      inference_log_id: log.id,
      segment_index: input.segmentIndex,
      feedback: input.feedback,
      comment: input.comment ?? null,
      user_id: principal.userId,
      created_at: nowIso(),
    };
    await repo.insertFeedback(trx, row);
    await insertAuditEntry(trx, dialect, actor, {
      orgId: principal.orgId,
      action: 'inference.feedback',
      resourceType: 'inference_log',
      resourceId: log.id,
      details: { feedbackId: row.id, segmentIndex: row.segment_index, feedback: row.feedback },
    });
    return { id: row.id, inferenceLogId: log.id, segmentIndex: row.segment_index, feedback: row.feedback, comment: row.comment, userId: row.user_id, createdAt: row.created_at };
  });
}

/**
 * The local provider's draft of a unit from a sentence: "If/When <condition>, <conclusion>"
 * gives WHEN and THEN; otherwise the whole text is the THEN. Experts complete it from there.
 */
function draftClauses(text: string): { when: string | null; then: string } {
  const m = /^\s*(?:if|when|where|whenever)\s+(.+?),\s*(?:then\s+)?(.+)$/is.exec(text);
  return m ? { when: m[1]!.trim(), then: m[2]!.trim() } : { when: null, then: text.trim() };
}

export async function saveSegmentAsUnit(
  deps: Deps, principal: Principal, actor: Actor, input: { segmentText: string; domainId: string; unitType?: UnitType },
): Promise<Unit> {
  const { db } = deps.store;
  return db.transaction().execute(async (trx) => {
    if (!(await domainExists(trx, principal.orgId, input.domainId))) throw notFound('Domain', { field: 'domainId' });
    const { when, then } = draftClauses(input.segmentText);
    // `{{` would read as a placeholder of an unknown variable: keep the text literal.
    const literal = (s: string) => s.replace(/\{\{/g, '{ {');
    const content = contentFromInput({
      name: draftName(input.segmentText, 'Drafted unit'),
      unitType: input.unitType ?? 'pattern',
      domainId: input.domainId,
      description: 'Drafted from an answer segment; complete its definition and send it for review.',
      when: when === null ? undefined : literal(when),
      then: literal(then),
    });
    const row = await insertNewUnit(trx, deps, principal, actor, content, { action: 'inference.saved_as_unit', details: { source: 'segment' } });
    return toUnit(row, []);
  });
}

const titleCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One candidate unit per most-asked open gap, most asked first; each audited. */
export async function generateUnitsFromGaps(deps: Deps, principal: Principal, actor: Actor, input: { domainId?: string; limit?: number }): Promise<Unit[]> {
  const { db } = deps.store;
  return db.transaction().execute(async (trx) => {
    if (input.domainId !== undefined && !(await domainExists(trx, principal.orgId, input.domainId))) {
      throw notFound('Domain', { field: 'domainId' });
    }
    const groups = await repo.openGapGroups(trx, principal.orgId, input.domainId, input.limit ?? 5);
    const units: Unit[] = [];
    for (const group of groups) {
      const domainId = input.domainId ?? group.domain_id;
      if (domainId === null) continue;
      const output = deps.secrets.decrypt(group.output as string);
      const asks = Number(group.asks);
      const content = contentFromInput({
        name: titleCase(output),
        unitType: 'pattern',
        domainId,
        description: `Drafted from ${asks} question${asks === 1 ? '' : 's'} that no unit answered, about: ${output}. Define what applies and send it for review.`,
      });
      const row = await insertNewUnit(trx, deps, principal, actor, content, { action: 'units.generated_from_gaps', details: { asks } });
      await repo.resolveGaps(trx, principal.orgId, group.gap_key, row.id);
      units.push(toUnit(row, []));
    }
    return units;
  });
}
