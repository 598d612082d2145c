import { sessionCookie } from '../auth/sessions.js';
import { selfOrigin } from '../http/request-meta.js';
import type { PublicOperation } from '../http/operation.js';
import { clearFlow } from './flow-cookie.js';
import { secureCookies, seeOther, signInFailed } from './redirects.js';
import { finishSsoSignIn, SSO_FLOW_COOKIE, SSO_FLOW_COOKIE_PATH, startSsoSignIn } from './sso-flow.js';

/** Enterprise SSO: `GET /auth/sso/{slug}/start` and its callback (sso-flow.ts). */
export const ssoFlowOperations = {
  startSsoSignIn: {
    access: 'public',
    tier: 'strict',
    run: async (deps, { params, koa }) => {
      const { location, cookie } = await startSsoSignIn(deps, params.slug!, selfOrigin(koa));
      return { status: 302, body: undefined, headers: { Location: location, 'Set-Cookie': cookie } };
    },
  },
  finishSsoSignIn: {
    access: 'public',
    tier: 'strict',
    run: async (deps, { params, query, koa, ipAddress, userAgent }) => {
      const origin = selfOrigin(koa);
      const outcome = await finishSsoSignIn(deps, {
        slug: params.slug!,
        origin,
        querystring: koa.querystring,
        query,
        cookieHeader: koa.get('cookie') || undefined,
        meta: { ipAddress, userAgent },
      });
      // The flow cookie is spent whatever the outcome.
      const cleared = clearFlow(SSO_FLOW_COOKIE, { secure: secureCookies(origin), path: SSO_FLOW_COOKIE_PATH });
      if (!outcome.ok) return signInFailed(outcome.code, [cleared]);
      return seeOther('/account', [cleared, sessionCookie(outcome.token, secureCookies(origin))]);
    },
  },
} satisfies Record<string, PublicOperation>;
