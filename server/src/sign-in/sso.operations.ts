import { selfOrigin } from '../http/request-meta.js';
import { assertOrgInScope } from '../orgs/orgs.service.js';
import { ok, type Operation } from '../http/operation.js';
import { configureSso, getSsoConfig } from './sso-config.js';

export const ssoConfigOperations = {
  getSsoConfig: {
    minRole: 'admin',
    run: async (deps, { principal, params, koa }) => {
      assertOrgInScope(principal, params.slug!);
      return ok(await getSsoConfig(deps, principal, selfOrigin(koa)));
    },
  },
  configureSso: {
    minRole: 'admin',
    run: async (deps, { principal, actor, params, body, koa }) => {
      assertOrgInScope(principal, params.slug!);
      return ok(await configureSso(deps, principal, actor, body, selfOrigin(koa)));
    },
  },
} satisfies Record<string, Operation>;
