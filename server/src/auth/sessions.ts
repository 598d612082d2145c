/**
 * Server-side web sessions (DESIGN §4): a random token in the `lemma_session` cookie, stored only
 * as its SHA-256 digest, ended by sign-out (the row is deleted) or by idleness. The cookie has no
 * Expires/Max-Age, so it also ends with the browser.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type Actor, insertAuditEntry } from '../audit/audit.repository.js';
import type { Db, Dialect } from '../db/database.js';
import { invalid, unauthorized } from '../shared/errors.js';
import { newId, nowIso } from '../shared/ids.js';
import type { Principal } from './principal.js';
import { isRole } from './roles.js';

export const SESSION_COOKIE = 'lemma_session';
/** `last_seen_at` (and the idle expiry) are written at most this often. */
const TOUCH_INTERVAL_MS = 60_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const newToken = () => randomBytes(32).toString('base64url');

/** The signed-in user behind a session cookie. */
export interface WebSession {
  id: string;
  userId: string;
  email: string;
  createdAt: string;
  lastSeenAt: string;
  idleExpiresAt: string;
}

/** `Set-Cookie` for a new session: HttpOnly, SameSite=Lax, Secure on https, no Expires/Max-Age. */
export function sessionCookie(token: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}

/** The cookie's token, from a `Cookie` header. */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SESSION_COOKIE) return rest.join('=') || undefined;
  }
  return undefined;
}

/**
 * Starts a session for a user who just proved who they are, audited as `auth.signed_in` in every
 * organization they belong to (the audit log is per organization). Returns the cookie's token.
 */
export async function startSession(
  trx: Db, dialect: Dialect, idleMs: number, input: { userId: string; method: string; userAgent: string | null; ipAddress: string | null },
): Promise<string> {
  const token = newToken();
  const at = new Date();
  const id = newId('ses');
  await trx.insertInto('sessions').values({
    id, token_hash: hashToken(token), user_id: input.userId, created_at: at.toISOString(), last_seen_at: at.toISOString(),
    idle_expires_at: new Date(at.getTime() + idleMs).toISOString(), user_agent: input.userAgent, ip_address: input.ipAddress,
  }).execute();
  const actor: Actor = { userId: input.userId, ipAddress: input.ipAddress, userAgent: input.userAgent };
  const orgs = await trx.selectFrom('members').select('org_id').where('user_id', '=', input.userId).execute();
  for (const { org_id } of orgs) {
    await insertAuditEntry(trx, dialect, actor, { orgId: org_id, action: 'auth.signed_in', resourceType: 'session', resourceId: id, details: { method: input.method } });
  }
  return token;
}

/** The session a cookie names, if it exists and is not idle-expired (touching it now and then). */
export async function findSession(db: Db, token: string, idleMs: number): Promise<WebSession | null> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.user_id', 'u.email', 's.created_at', 's.last_seen_at', 's.idle_expires_at'])
    .where('s.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) return null;
  const now = Date.now();
  if (Date.parse(row.idle_expires_at) <= now) return null;
  let { last_seen_at, idle_expires_at } = row;
  if (now - Date.parse(last_seen_at) > TOUCH_INTERVAL_MS) {
    last_seen_at = new Date(now).toISOString();
    idle_expires_at = new Date(now + idleMs).toISOString();
    await db.updateTable('sessions').set({ last_seen_at, idle_expires_at }).where('id', '=', row.id).execute();
  }
  return { id: row.id, userId: row.user_id, email: row.email, createdAt: row.created_at, lastSeenAt: last_seen_at, idleExpiresAt: idle_expires_at };
}

/**
 * The principal of a session for one organization: `X-Lemma-Org` names it, or the user's only
 * organization is taken. A session acts with the member's role and every permission.
 */
export async function sessionPrincipal(db: Db, session: WebSession, orgSlug: string | undefined): Promise<Principal> {
  let query = db
    .selectFrom('members as m')
    .innerJoin('organizations as o', 'o.id', 'm.org_id')
    .select(['o.id', 'o.slug', 'm.role'])
    .where('m.user_id', '=', session.userId);
  if (orgSlug !== undefined) query = query.where('o.slug', '=', orgSlug);
  const rows = await query.limit(2).execute();
  if (orgSlug !== undefined && rows.length === 0) throw invalid('X-Lemma-Org', 'you are not a member of an organization with this slug');
  if (rows.length === 0) throw invalid('X-Lemma-Org', 'you are not a member of any organization yet');
  if (rows.length > 1) throw invalid('X-Lemma-Org', 'you belong to several organizations: name one in the X-Lemma-Org header');
  const [row] = rows;
  if (!isRole(row!.role)) throw unauthorized();
  return {
    userId: session.userId, orgId: row!.id, orgSlug: row!.slug, role: row!.role, permissions: ['inference'],
    apiKeyId: null, rateLimitKey: `user:${session.userId}`,
  };
}

/** Ends a session, audited as `auth.signed_out` in the user's organizations. */
export async function endSession(trx: Db, dialect: Dialect, session: WebSession, actor: Actor): Promise<void> {
  await trx.deleteFrom('sessions').where('id', '=', session.id).execute();
  const orgs = await trx.selectFrom('members').select('org_id').where('user_id', '=', session.userId).execute();
  for (const { org_id } of orgs) {
    await insertAuditEntry(trx, dialect, actor, { orgId: org_id, action: 'auth.signed_out', resourceType: 'session', resourceId: session.id });
  }
}
