import { created, list, ok, type Operation } from '../http/operation.js';
import { pageOf } from '../http/pagination.js';
import { composeWorkflow } from './compose.js';
import { createWorkflow, createWorkflowVersion, getWorkflow, listWorkflows, updateWorkflowStatus } from './workflows.service.js';

export const workflowOperations = {
  listWorkflows: {
    minRole: 'viewer',
    run: async (deps, { principal, query }) => {
      const page = pageOf(query);
      const { workflows, total } = await listWorkflows(deps, principal, { domainId: query.domainId as string | undefined, status: query.status as string | undefined }, page);
      return list(workflows, { total, ...page });
    },
  },
  createWorkflow: {
    minRole: 'author',
    run: async (deps, { principal, actor, body }) => created(await createWorkflow(deps, principal, actor, body)),
  },
  composeWorkflow: {
    minRole: 'author',
    run: async (deps, { principal, body }) => ok(await composeWorkflow(deps, principal, body)),
  },
  getWorkflow: {
    minRole: 'viewer',
    run: async (deps, { principal, params, query }) => ok(await getWorkflow(deps, principal, params.slug!, query.version as number | undefined)),
  },
  updateWorkflowStatus: {
    minRole: 'author',
    run: async (deps, { principal, actor, params, body }) => ok(await updateWorkflowStatus(deps, principal, actor, params.slug!, body.status)),
  },
  createWorkflowVersion: {
    minRole: 'author',
    run: async (deps, { principal, actor, params, body }) => created(await createWorkflowVersion(deps, principal, actor, params.slug!, body)),
  },
} satisfies Record<string, Operation>;
