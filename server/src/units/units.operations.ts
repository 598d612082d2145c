import { created, list, ok, type Operation } from '../http/operation.js';
import { pageOf } from '../http/pagination.js';
import { aiEditUnit } from './ai-edit.service.js';
import { createUnitEdge, listUnitEdges } from './unit-edges.service.js';
import { assignReviewers, verifyUnit } from './unit-reviews.service.js';
import { createUnit, deleteUnit, getUnit, getUnitsBySlugs, listUnits, updateUnit } from './units.service.js';

const filtersOf = (query: Record<string, unknown>) => ({
  status: query.status as string | undefined,
  unitType: query.unitType as string | undefined,
  domainId: query.domainId as string | undefined,
  jurisdiction: query.jurisdiction as string | undefined,
});

export const unitOperations = {
  listUnits: {
    minRole: 'viewer',
    run: async (deps, { principal, query }) => {
      const page = pageOf(query);
      const { units, total } = await listUnits(deps, principal, filtersOf(query), page);
      return list(units, { total, ...page });
    },
  },
  createUnit: {
    minRole: 'author',
    run: async (deps, { principal, actor, body }) => created(await createUnit(deps, principal, actor, body)),
  },
  getUnitsBySlugs: {
    minRole: 'viewer',
    tier: 'read',
    run: async (deps, { principal, body }) => {
      const slugs = body.slugs as string[];
      const units = await getUnitsBySlugs(deps, principal, slugs);
      return list(units, { total: units.length, limit: slugs.length, offset: 0 });
    },
  },
  getUnit: {
    minRole: 'viewer',
    run: async (deps, { principal, params }) => ok(await getUnit(deps, principal, params.id!)),
  },
  updateUnit: {
    minRole: 'author',
    run: async (deps, { principal, actor, params, body }) => ok(await updateUnit(deps, principal, actor, params.id!, body)),
  },
  deleteUnit: {
    minRole: 'admin',
    run: async (deps, { principal, actor, params }) => ok(await deleteUnit(deps, principal, actor, params.id!)),
  },
  verifyUnit: {
    minRole: 'reviewer',
    run: async (deps, { principal, actor, params, body }) => ok(await verifyUnit(deps, principal, actor, params.id!, body)),
  },
  assignReviewers: {
    minRole: 'admin',
    run: async (deps, { principal, actor, params, body }) => ok(await assignReviewers(deps, principal, actor, params.id!, body.reviewerIds)),
  },
  listUnitEdges: {
    minRole: 'viewer',
    run: async (deps, { principal, params, query }) => {
      const page = pageOf(query);
      const { edges, total } = await listUnitEdges(deps, principal, params.id!, page);
      return list(edges, { total, ...page });
    },
  },
  createUnitEdge: {
    minRole: 'author',
    run: async (deps, { principal, actor, params, body }) => created(await createUnitEdge(deps, principal, actor, params.id!, body)),
  },
  aiEditUnit: {
    minRole: 'author',
    run: async (deps, { principal, actor, params, body }) => ok(await aiEditUnit(deps, principal, actor, params.id!, body.instruction)),
  },
} satisfies Record<string, Operation>;
