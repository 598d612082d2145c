import { type Actor, insertAuditEntry } from '../audit/audit.repository.js';
import type { Permission, Principal } from '../auth/principal.js';
import { generateApiKey, hashApiKey, keyStart } from '../auth/api-key-secret.js';
import { atLeast, lowerRole, type Role } from '../auth/roles.js';
import type { Db, Dialect } from '../db/database.js';
import type { ApiKeysTable } from '../db/schema.js';
import type { Deps } from '../deps.js';
import { findMemberByUser } from '../members/members.repository.js';
import { conflict, invalid, notFound } from '../shared/errors.js';
import { newId, nowIso } from '../shared/ids.js';
import * as repo from './api-keys.repository.js';

export interface ApiKey {
  id: string;
  name: string;
  start: string;
  role: Role;
  permissions: Permission[];
  userId: string;
  createdBy: string | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export function toApiKey(row: ApiKeysTable): ApiKey {
  return {
    id: row.id,
    name: row.name,
    start: row.start,
    role: row.role as Role,
    permissions: JSON.parse(row.permissions) as Permission[],
    userId: row.user_id,
    createdBy: row.created_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

export interface CreateApiKeyInput {
  name: string;
  role?: Role;
  permissions?: Permission[];
  expiresAt?: string;
  userId?: string;
}

/**
 * Issues a key inside the caller's transaction and audits it. The plaintext is returned once and
 * never stored: only its SHA-256 digest and its first 12 characters are kept.
 */
export async function issueApiKey(
  trx: Db, dialect: Dialect, actor: Actor, orgId: string, input: CreateApiKeyInput,
): Promise<ApiKey & { key: string }> {
  const userId = input.userId ?? actor.userId;
  const member = userId ? await findMemberByUser(trx, orgId, userId) : undefined;
  if (!member) throw invalid('userId', 'is not a member of this organization');
  const memberRole = member.role as Role;
  if (input.role && !atLeast(memberRole, input.role)) {
    throw invalid('role', `may not exceed the member's role (${memberRole})`);
  }
  if (input.expiresAt && Date.parse(input.expiresAt) <= Date.now()) {
    throw invalid('expiresAt', 'must be in the future');
  }
  const key = generateApiKey();
  const row: ApiKeysTable = {
    id: newId('key'),
    org_id: orgId,
    user_id: member.user_id,
    name: input.name,
    role: input.role ?? lowerRole('author', memberRole),
    permissions: JSON.stringify(input.permissions ?? ['inference']),
    key_hash: hashApiKey(key),
    start: keyStart(key),
    created_by: actor.userId,
    created_at: nowIso(),
    expires_at: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
    revoked_at: null,
    last_used_at: null,
  };
  await repo.insertApiKey(trx, row);
  const apiKey = toApiKey(row);
  await insertAuditEntry(trx, dialect, actor, {
    orgId,
    action: 'api_key.created',
    resourceType: 'api_key',
    resourceId: row.id,
    details: { name: apiKey.name, role: apiKey.role, permissions: apiKey.permissions, userId: apiKey.userId, expiresAt: apiKey.expiresAt },
  });
  return { ...apiKey, key };
}

export async function listApiKeys(deps: Deps, principal: Principal, page: { limit: number; offset: number }) {
  const [rows, count] = await repo.listApiKeys(deps.store.db, principal.orgId, page);
  return { keys: rows.map(toApiKey), total: Number(count.n) };
}

export function createApiKey(deps: Deps, principal: Principal, actor: Actor, input: CreateApiKeyInput) {
  const { db, dialect } = deps.store;
  return db.transaction().execute((trx) => issueApiKey(trx, dialect, actor, principal.orgId, input));
}

export function revokeApiKey(deps: Deps, principal: Principal, actor: Actor, keyId: string): Promise<ApiKey> {
  const { db, dialect } = deps.store;
  return db.transaction().execute(async (trx) => {
    const row = await repo.findApiKey(trx, principal.orgId, keyId);
    if (!row) throw notFound('API key');
    if (row.revoked_at) throw conflict('This API key is already revoked', { revokedAt: row.revoked_at });
    const at = nowIso();
    await repo.revokeApiKey(trx, row.id, at);
    await insertAuditEntry(trx, dialect, actor, {
      orgId: principal.orgId,
      action: 'api_key.revoked',
      resourceType: 'api_key',
      resourceId: row.id,
      details: { name: row.name },
    });
    return toApiKey({ ...row, revoked_at: at });
  });
}
