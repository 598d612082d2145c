import { apiKeyOperations } from './api-keys/api-keys.operations.js';
import { auditOperations } from './audit/audit.operations.js';
import type { Operation } from './http/operation.js';
import { memberOperations } from './members/members.operations.js';
import { orgOperations } from './orgs/orgs.operations.js';

/** Every served operation by operationId. Start-up fails if openapi.yaml has one not listed here. */
export const operations: Record<string, Operation> = {
  ...apiKeyOperations,
  ...auditOperations,
  ...memberOperations,
  ...orgOperations,
};

/** In the contract, answered 501 NOT_IMPLEMENTED until their issue lands. */
export const notImplemented = [
  // Domains, units and review (issue 3)
  'listDomains', 'createDomain', 'listDomainTemplates', 'listDomainMembers', 'addDomainMember', 'removeDomainMember',
  'listUnits', 'createUnit', 'getUnitsBySlugs', 'generateUnitsFromGaps', 'getUnit', 'updateUnit', 'deleteUnit',
  'verifyUnit', 'assignReviewers', 'listUnitEdges', 'createUnitEdge', 'aiEditUnit',
  // Inference and its log (issue 4)
  'runInference', 'saveSegmentAsUnit', 'submitInferenceFeedback', 'listInferenceLogs',
  // Workflows (issue 5)
  'listWorkflows', 'createWorkflow', 'composeWorkflow', 'getWorkflow', 'updateWorkflowStatus', 'createWorkflowVersion',
] as const satisfies readonly string[];
