import { created, list, ok, type Operation } from '../http/operation.js';
import { pageOf } from '../http/pagination.js';
import { assertOrgInScope, createOrg, currentPrincipal, listOrgs, updateOrg } from './orgs.service.js';

export const orgOperations = {
  getCurrentPrincipal: {
    minRole: 'viewer',
    run: async (deps, { principal }) => ok(await currentPrincipal(deps, principal)),
  },
  listOrgs: {
    minRole: 'viewer',
    run: async (deps, { principal, query }) => {
      const page = pageOf(query);
      const { orgs, total } = await listOrgs(deps, principal, page);
      return list(orgs, { total, ...page });
    },
  },
  createOrg: {
    minRole: 'viewer',
    run: async (deps, { principal, actor, body }) => created(await createOrg(deps, principal, actor, body)),
  },
  updateOrg: {
    minRole: 'admin',
    run: async (deps, { principal, actor, params, body }) => {
      assertOrgInScope(principal, params.slug!);
      return ok(await updateOrg(deps, principal, actor, body));
    },
  },
} satisfies Record<string, Operation>;
