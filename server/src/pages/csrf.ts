/**
 * CSRF protection of the pages' forms, two checks that must both pass:
 * - the browser says the request comes from this site (`Sec-Fetch-Site: same-origin`, else an
 *   `Origin` equal to the server's), as the API asks of cookie-authenticated changes (http/api.ts);
 * - the form carries the session's token: an HMAC of the session id under the server's secret key
 *   (`deps.secrets.fingerprint`), so it needs no storage and no other site can compute it.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { WebSession } from '../auth/sessions.js';
import type { Deps } from '../deps.js';
import { fromThisSite } from '../http/request-meta.js';

export const CSRF_FIELD = 'csrf';

export function csrfToken(deps: Deps, session: Pick<WebSession, 'id'>): string {
  return deps.secrets.fingerprint(`lemma page csrf v1:${session.id}`);
}


/** Both checks; false means refuse (403) and change nothing. */
export function csrfOk(deps: Deps, ctx: Context, session: Pick<WebSession, 'id'>, submitted: unknown): boolean {
  if (!fromThisSite(ctx)) return false;
  if (typeof submitted !== 'string') return false;
  const expected = Buffer.from(csrfToken(deps, session));
  const given = Buffer.from(submitted);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
