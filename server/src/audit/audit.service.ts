import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { AuditLogTable, Database } from '../db/schema.js';
import { entryHash, GENESIS_HASH } from './audit.repository.js';

export interface AuditFilters {
  action?: string;
  resourceType?: string;
  resourceId?: string;
  userId?: string;
  startDate?: string;
  endDate?: string;
}

export interface AuditEntry {
  id: string;
  action: string;
  userId: string | null;
  resourceType: string;
  resourceId: string;
  details: Record<string, unknown>;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: string;
}

export const CSV_COLUMNS = [
  'id', 'action', 'userId', 'resourceType', 'resourceId', 'details', 'ipAddress', 'userAgent', 'createdAt',
] as const;

const CSV_PAGE = 500;

function toEntry(row: AuditLogTable): AuditEntry {
  return {
    id: row.id,
    action: row.action,
    userId: row.user_id,
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    details: JSON.parse(row.details) as Record<string, unknown>,
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    createdAt: row.created_at,
  };
}

/** Dates are compared as instants: normalise to the stored format (UTC, milliseconds). */
const iso = (value: string) => new Date(value).toISOString();

function filtered(db: Db, orgId: string, f: AuditFilters): SelectQueryBuilder<Database, 'audit_log', object> {
  let q = db.selectFrom('audit_log').where('org_id', '=', orgId);
  if (f.action) q = q.where('action', '=', f.action);
  if (f.resourceType) q = q.where('resource_type', '=', f.resourceType);
  if (f.resourceId) q = q.where('resource_id', '=', f.resourceId);
  if (f.userId) q = q.where('user_id', '=', f.userId);
  if (f.startDate) q = q.where('created_at', '>=', iso(f.startDate));
  if (f.endDate) q = q.where('created_at', '<=', iso(f.endDate));
  return q;
}

/** A page of the organization's audit log, newest first. */
export async function listAuditEntries(
  db: Db, orgId: string, filters: AuditFilters, page: { limit: number; offset: number },
): Promise<{ entries: AuditEntry[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(db, orgId, filters).selectAll().orderBy('seq', 'desc').limit(page.limit).offset(page.offset).execute(),
    filtered(db, orgId, filters).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { entries: rows.map(toEntry), total: Number(count.n) };
}

/** Every matching row, newest first, read page by page (keyset on seq) so memory stays flat. */
async function* allRows(db: Db, orgId: string, filters: AuditFilters): AsyncGenerator<AuditLogTable> {
  let before: number | undefined;
  for (;;) {
    let q = filtered(db, orgId, filters).selectAll();
    if (before !== undefined) q = q.where('seq', '<', before);
    const rows = await q.orderBy('seq', 'desc').limit(CSV_PAGE).execute();
    yield* rows;
    if (rows.length < CSV_PAGE) return;
    before = rows[rows.length - 1]!.seq;
  }
}

/** RFC 4180 CSV (CRLF, quoted where needed) with formula-like cells neutralised. */
export function auditCsvStream(db: Db, orgId: string, filters: AuditFilters): Readable {
  const records = Readable.from(
    (async function* () {
      for await (const r of allRows(db, orgId, filters)) {
        // `details` goes out as stored: it is already JSON text.
        yield [r.id, r.action, r.user_id ?? '', r.resource_type, r.resource_id, r.details, r.ip_address ?? '', r.user_agent ?? '', r.created_at];
      }
    })(),
  );
  const csv = stringify({ header: true, columns: [...CSV_COLUMNS], record_delimiter: 'windows', escape_formulas: true });
  records.on('error', (err) => csv.destroy(err));
  return records.pipe(csv);
}

export interface ChainReport {
  ok: boolean;
  entries: number;
  /** The first entry whose hash or link does not verify. */
  brokenAt?: { id: string; seq: number; reason: string };
}

/** Recomputes the organization's hash chain from the first entry. */
export async function verifyAuditChain(db: Db, orgId: string): Promise<ChainReport> {
  let prev = GENESIS_HASH;
  let expectedSeq = 1;
  let entries = 0;
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('seq', '>', after)
      .orderBy('seq', 'asc')
      .limit(CSV_PAGE)
      .execute();
    for (const row of rows) {
      const broken = (reason: string): ChainReport => ({ ok: false, entries, brokenAt: { id: row.id, seq: row.seq, reason } });
      if (row.seq !== expectedSeq) return broken(`expected seq ${expectedSeq}`);
      if (row.prev_hash !== prev) return broken('prev_hash does not match the previous entry');
      const { hash, ...rest } = row;
      if (entryHash(rest) !== hash) return broken('content does not match its hash');
      prev = hash;
      expectedSeq += 1;
      entries += 1;
      after = row.seq;
    }
    if (rows.length < CSV_PAGE) return { ok: true, entries };
  }
}
