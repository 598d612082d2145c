import { createHash } from 'node:crypto';
import type { Db, Dialect } from '../db/database.js';
import type { AuditLogTable } from '../db/schema.js';
import { lockOrganization } from '../db/locks.js';
import { newId, nowIso } from '../shared/ids.js';
import type { AuditAction, ResourceType } from './audit-actions.js';

export const GENESIS_HASH = '0'.repeat(64);

/** Who did it, from where: recorded on every entry. */
export interface Actor {
  readonly userId: string | null;
  readonly ipAddress: string | null;
  readonly userAgent: string | null;
}

export interface AuditEvent {
  readonly orgId: string;
  readonly action: AuditAction;
  readonly resourceType: ResourceType;
  readonly resourceId: string;
  readonly details?: Record<string, unknown>;
}

/** The SHA-256 that chains an entry to its predecessor; covers every stored field. */
export function entryHash(row: Omit<AuditLogTable, 'hash'>): string {
  const canonical = JSON.stringify([
    row.id, row.org_id, row.seq, row.action, row.user_id, row.resource_type, row.resource_id,
    row.details, row.ip_address, row.user_agent, row.created_at,
  ]);
  return createHash('sha256').update(row.prev_hash).update('\n').update(canonical).digest('hex');
}

/**
 * Appends an entry to the organization's chain. Must be called with the transaction that makes
 * the change, so that the change and its entry commit or roll back together.
 */
export async function insertAuditEntry(trx: Db, dialect: Dialect, actor: Actor, event: AuditEvent): Promise<string> {
  // Serialise appends per organization across processes, so the chain never forks.
  await lockOrganization(trx, dialect, event.orgId);
  const last = await trx
    .selectFrom('audit_log')
    .select(['seq', 'hash'])
    .where('org_id', '=', event.orgId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  const row: Omit<AuditLogTable, 'hash'> = {
    id: newId('aud'),
    org_id: event.orgId,
    seq: (last?.seq ?? 0) + 1,
    action: event.action,
    user_id: actor.userId,
    resource_type: event.resourceType,
    resource_id: event.resourceId,
    details: JSON.stringify(event.details ?? {}),
    ip_address: actor.ipAddress,
    user_agent: actor.userAgent,
    created_at: nowIso(),
    prev_hash: last?.hash ?? GENESIS_HASH,
  };
  await trx.insertInto('audit_log').values({ ...row, hash: entryHash(row) }).execute();
  return row.id;
}
