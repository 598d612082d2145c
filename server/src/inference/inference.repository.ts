import type { Db } from '../db/database.js';
import type { InferenceFeedbackTable, InferenceGapsTable, InferenceLogsTable, InferenceSessionsTable } from '../db/schema.js';

export function findOpenSession(db: Db, orgId: string, sessionId: string, now: string): Promise<InferenceSessionsTable | undefined> {
  return db
    .selectFrom('inference_sessions')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', sessionId)
    .where('status', '=', 'paused')
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function insertSession(db: Db, row: InferenceSessionsTable): Promise<void> {
  await db.insertInto('inference_sessions').values(row).execute();
}

export async function updateSession(db: Db, id: string, values: Partial<InferenceSessionsTable>): Promise<void> {
  await db.updateTable('inference_sessions').set(values).where('id', '=', id).execute();
}

export async function insertLog(db: Db, row: InferenceLogsTable): Promise<void> {
  await db.insertInto('inference_logs').values(row).execute();
}

export async function insertGap(db: Db, row: InferenceGapsTable): Promise<void> {
  await db.insertInto('inference_gaps').values(row).execute();
}

export interface LogFilters {
  userId?: string;
  sessionId?: string;
  mode?: string;
  startDate?: string;
  endDate?: string;
}

function filteredLogs(db: Db, orgId: string, filters: LogFilters) {
  let query = db.selectFrom('inference_logs').where('org_id', '=', orgId);
  if (filters.userId !== undefined) query = query.where('user_id', '=', filters.userId);
  if (filters.sessionId !== undefined) query = query.where('session_id', '=', filters.sessionId);
  if (filters.mode !== undefined) query = query.where('mode', '=', filters.mode);
  if (filters.startDate !== undefined) query = query.where('created_at', '>=', filters.startDate);
  if (filters.endDate !== undefined) query = query.where('created_at', '<=', filters.endDate);
  return query;
}

export async function listLogs(db: Db, orgId: string, filters: LogFilters, page: { limit: number; offset: number }) {
  const [rows, count] = await Promise.all([
    filteredLogs(db, orgId, filters).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    filteredLogs(db, orgId, filters).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function findLog(db: Db, orgId: string, id: string): Promise<InferenceLogsTable | undefined> {
  return db.selectFrom('inference_logs').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

export async function insertFeedback(db: Db, row: InferenceFeedbackTable): Promise<void> {
  await db.insertInto('inference_feedback').values(row).execute();
}

/** Open gaps grouped by key, most asked first (with one gap's output to name the draft). */
export async function openGapGroups(db: Db, orgId: string, domainId: string | undefined, limit: number) {
  let query = db
    .selectFrom('inference_gaps')
    .select((eb) => ['gap_key', eb.fn.countAll<number>().as('asks'), eb.fn.min('output_ciphertext').as('output'), eb.fn.min('domain_id').as('domain_id'), eb.fn.min('created_at').as('first')])
    .where('org_id', '=', orgId)
    .where('resolved_unit_id', 'is', null);
  query = domainId === undefined ? query.where('domain_id', 'is not', null) : query.where((eb) => eb.or([eb('domain_id', '=', domainId), eb('domain_id', 'is', null)]));
  return query.groupBy('gap_key').orderBy('asks', 'desc').orderBy('first').limit(limit).execute();
}

export async function resolveGaps(db: Db, orgId: string, gapKey: string, unitId: string): Promise<number> {
  const result = await db
    .updateTable('inference_gaps')
    .set({ resolved_unit_id: unitId })
    .where('org_id', '=', orgId)
    .where('gap_key', '=', gapKey)
    .where('resolved_unit_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
