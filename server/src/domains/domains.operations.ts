import { created, list, ok, type Operation } from '../http/operation.js';
import { pageOf } from '../http/pagination.js';
import { addDomainMember, createDomain, listDomainMembers, listDomains, removeDomainMember } from './domains.service.js';
import { DOMAIN_TEMPLATES } from './templates/index.js';

export const domainOperations = {
  listDomains: {
    minRole: 'viewer',
    run: async (deps, { principal, query }) => {
      const page = pageOf(query);
      const { domains, total } = await listDomains(deps, principal, page);
      return list(domains, { total, ...page });
    },
  },
  createDomain: {
    minRole: 'admin',
    run: async (deps, { principal, actor, body }) => created(await createDomain(deps, principal, actor, body)),
  },
  listDomainTemplates: {
    minRole: 'viewer',
    run: async (_deps, { query }) => {
      const page = pageOf(query);
      return list(DOMAIN_TEMPLATES.slice(page.offset, page.offset + page.limit), { total: DOMAIN_TEMPLATES.length, ...page });
    },
  },
  listDomainMembers: {
    minRole: 'viewer',
    run: async (deps, { principal, params, query }) => {
      const page = pageOf(query);
      const { members, total } = await listDomainMembers(deps, principal, params.slug!, page);
      return list(members, { total, ...page });
    },
  },
  addDomainMember: {
    minRole: 'admin',
    run: async (deps, { principal, actor, params, body }) => created(await addDomainMember(deps, principal, actor, params.slug!, body)),
  },
  removeDomainMember: {
    minRole: 'admin',
    run: async (deps, { principal, actor, params }) => ok(await removeDomainMember(deps, principal, actor, params.slug!, params.userId!)),
  },
} satisfies Record<string, Operation>;
