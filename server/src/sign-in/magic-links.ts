/**
 * Magic links: a single-use token, valid 15 minutes, stored as its SHA-256 digest, mailed to an
 * address that belongs to a user. Requesting one answers the same for any address, so it tells
 * nobody which addresses have accounts.
 */
import { hashToken, newToken, startSession } from '../auth/sessions.js';
import type { Deps } from '../deps.js';
import { newId, nowIso } from '../shared/ids.js';

export const MAGIC_LINK_TTL_MS = 15 * 60 * 1000;

export async function requestMagicLink(deps: Deps, email: string): Promise<void> {
  const { db } = deps.store;
  const user = await db.selectFrom('users').select(['id', 'email']).where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
  if (!user) {
    deps.logger.info('magic link asked for an unknown address; nothing sent');
    return;
  }
  const token = newToken();
  const at = new Date();
  await db.insertInto('magic_links').values({
    id: newId('ml'), token_hash: hashToken(token), user_id: user.id, expires_at: new Date(at.getTime() + MAGIC_LINK_TTL_MS).toISOString(), used_at: null, created_at: at.toISOString(),
  }).execute();
  const link = `${deps.publicOrigin}/api/v1/auth/magic-link/verify?token=${token}`;
  // Not awaited, and a failure only logged: neither the answer nor its timing may depend on the address.
  void deps.mailer
    .send({ to: user.email, subject: 'Your Lemma sign-in link', text: `Sign in to Lemma with this link (valid 15 minutes, once):\n\n${link}\n\nIf you did not ask for it, ignore this email.\n` })
    .catch((err: unknown) => deps.logger.error({ err }, 'sign-in email could not be sent'));
}

/**
 * Uses a link: marks it used and starts a session, in one transaction (a second use finds it
 * used). Returns the session token, or null for an unknown, used or expired link.
 */
export async function useMagicLink(deps: Deps, token: string, meta: { userAgent: string | null; ipAddress: string | null }): Promise<string | null> {
  const { db, dialect } = deps.store;
  return db.transaction().execute(async (trx) => {
    const at = nowIso();
    const claimed = await trx
      .updateTable('magic_links')
      .set({ used_at: at })
      .where('token_hash', '=', hashToken(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .returning('user_id')
      .executeTakeFirst();
    if (!claimed) return null;
    return startSession(trx, dialect, deps.config.webSessionIdleMs, { userId: claimed.user_id, method: 'magic_link', ...meta });
  });
}
