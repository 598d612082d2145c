import { selfOrigin } from '../http/request-meta.js';
import { clearedSessionCookie, endSession, sessionCookie } from '../auth/sessions.js';
import type { PublicOperation } from '../http/operation.js';
import { requestMagicLink, useMagicLink } from './magic-links.js';
import { secureCookies, seeOther, signInFailed } from './redirects.js';

export const signInOperations = {
  requestMagicLink: {
    access: 'public',
    tier: 'strict',
    run: async (deps, { body, koa }) => {
      await requestMagicLink(deps, body.email);
      return { status: 202, body: { data: { accepted: true } } };
    },
  },
  verifyMagicLink: {
    access: 'public',
    tier: 'strict',
    run: async (deps, { query, koa, ipAddress, userAgent }) => {
      const token = await useMagicLink(deps, query.token as string, { ipAddress, userAgent });
      if (token === null) return signInFailed('invalid_link');
      return seeOther('/account', [sessionCookie(token, secureCookies(selfOrigin(koa)))]);
    },
  },
  signOut: {
    access: 'session',
    tier: 'strict',
    run: async (deps, { session, koa, ipAddress, userAgent }) => {
      await deps.store.db.transaction().execute((trx) => endSession(trx, deps.store.dialect, session!, { userId: session!.userId, ipAddress, userAgent }));
      return { status: 204, body: undefined, headers: { 'Set-Cookie': clearedSessionCookie(secureCookies(selfOrigin(koa))) } };
    },
  },
  getSession: {
    access: 'session',
    tier: 'strict',
    run: async (deps, { session }) => {
      const organizations = await deps.store.db
        .selectFrom('members as m')
        .innerJoin('organizations as o', 'o.id', 'm.org_id')
        .select(['o.id', 'o.slug', 'o.name', 'm.role'])
        .where('m.user_id', '=', session!.userId)
        .orderBy('o.slug')
        .execute();
      const s = session!;
      return { status: 200, body: { data: { user: { id: s.userId, email: s.email }, organizations, createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, idleExpiresAt: s.idleExpiresAt } } };
    },
  },
} satisfies Record<string, PublicOperation>;
