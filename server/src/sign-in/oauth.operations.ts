import { selfOrigin } from '../http/request-meta.js';
import type { PublicOperation } from '../http/operation.js';
import { finishOAuth, startOAuth } from './oauth.js';

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

export const oauthOperations = {
  startOAuthSignIn: {
    access: 'public',
    tier: 'strict',
    run: async (deps, { params, koa }) => startOAuth(deps, params.provider!, selfOrigin(koa)),
  },
  finishOAuthSignIn: {
    access: 'public',
    tier: 'strict',
    run: async (deps, { params, query, koa, ipAddress, userAgent }) =>
      finishOAuth(deps, params.provider!, {
        code: str(query.code), state: str(query.state), error: str(query.error),
        cookieHeader: koa.get('cookie') || undefined, origin: selfOrigin(koa), userAgent, ipAddress,
      }),
  },
} satisfies Record<string, PublicOperation>;
