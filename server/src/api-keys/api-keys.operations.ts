import { created, list, ok, type Operation } from '../http/operation.js';
import { pageOf } from '../http/pagination.js';
import { assertOrgInScope } from '../orgs/orgs.service.js';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service.js';

export const apiKeyOperations = {
  listApiKeys: {
    minRole: 'admin',
    run: async (deps, { principal, params, query }) => {
      assertOrgInScope(principal, params.slug!);
      const page = pageOf(query);
      const { keys, total } = await listApiKeys(deps, principal, page);
      return list(keys, { total, ...page });
    },
  },
  createApiKey: {
    minRole: 'admin',
    run: async (deps, { principal, actor, params, body }) => {
      assertOrgInScope(principal, params.slug!);
      return created(await createApiKey(deps, principal, actor, body));
    },
  },
  revokeApiKey: {
    minRole: 'admin',
    run: async (deps, { principal, actor, params }) => {
      assertOrgInScope(principal, params.slug!);
      return ok(await revokeApiKey(deps, principal, actor, params.id!));
    },
  },
} satisfies Record<string, Operation>;
