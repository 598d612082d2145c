import { created, list, ok, type Operation } from '../http/operation.js';
import { pageOf } from '../http/pagination.js';
import { assertOrgInScope } from '../orgs/orgs.service.js';
import { inviteMember, listMembers, removeMember, updateMemberRole } from './members.service.js';

export const memberOperations = {
  listMembers: {
    minRole: 'viewer',
    run: async (deps, { principal, params, query }) => {
      assertOrgInScope(principal, params.slug!);
      const page = pageOf(query);
      const { members, total } = await listMembers(deps, principal, page);
      return list(members, { total, ...page });
    },
  },
  inviteMember: {
    minRole: 'admin',
    run: async (deps, { principal, actor, params, body }) => {
      assertOrgInScope(principal, params.slug!);
      return created(await inviteMember(deps, principal, actor, body));
    },
  },
  updateMemberRole: {
    minRole: 'admin',
    run: async (deps, { principal, actor, params, body }) => {
      assertOrgInScope(principal, params.slug!);
      return ok(await updateMemberRole(deps, principal, actor, params.id!, body.role));
    },
  },
  removeMember: {
    // Any member may leave; removing someone else needs admin (checked by the service).
    minRole: 'viewer',
    run: async (deps, { principal, actor, params }) => {
      assertOrgInScope(principal, params.slug!);
      return ok(await removeMember(deps, principal, actor, params.id!));
    },
  },
} satisfies Record<string, Operation>;
