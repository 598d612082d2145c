import { findKeyForAuth, touchApiKey } from '../api-keys/api-keys.repository.js';
import type { Db } from '../db/database.js';
import { unauthorized } from '../shared/errors.js';
import { nowIso } from '../shared/ids.js';
import { API_KEY_PATTERN, hashApiKey } from './api-key-secret.js';
import type { Permission, Principal } from './principal.js';
import { isRole, lowerRole } from './roles.js';

/** `lastUsedAt` is written at most this often, so that reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Resolves `Authorization: Bearer lemma_pk_…` to a principal. Returns null when the header is
 * absent; throws 401 for a malformed, unknown, revoked or expired key, or one whose member left.
 */
export async function authenticateApiKey(db: Db, authorization: string | undefined): Promise<Principal | null> {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match || !API_KEY_PATTERN.test(match[1]!)) throw unauthorized('Malformed API key: expected "Bearer lemma_pk_<32 hex>"');
  const row = await findKeyForAuth(db, hashApiKey(match[1]!));
  if (!row) throw unauthorized('Unknown API key');
  if (row.revoked_at) throw unauthorized('This API key has been revoked');
  const now = Date.now();
  if (row.expires_at && Date.parse(row.expires_at) <= now) throw unauthorized('This API key has expired');
  if (!row.member_role || !isRole(row.member_role) || !isRole(row.role)) {
    throw unauthorized('This API key acts for someone who is no longer a member');
  }
  if (!row.last_used_at || now - Date.parse(row.last_used_at) > TOUCH_INTERVAL_MS) {
    await touchApiKey(db, row.id, nowIso());
  }
  return {
    userId: row.user_id,
    orgId: row.org_id,
    orgSlug: row.org_slug,
    role: lowerRole(row.role, row.member_role),
    permissions: JSON.parse(row.permissions) as Permission[],
    apiKeyId: row.id,
    rateLimitKey: `key:${row.id}`,
  };
}
