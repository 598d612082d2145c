import { apiKeyOperations } from './api-keys/api-keys.operations.js';
import { auditOperations } from './audit/audit.operations.js';
import { domainOperations } from './domains/domains.operations.js';
import { inferenceOperations } from './inference/inference.operations.js';
import type { Operation } from './http/operation.js';
import { memberOperations } from './members/members.operations.js';
import { orgOperations } from './orgs/orgs.operations.js';
import { unitOperations } from './units/units.operations.js';
import { workflowOperations } from './workflows/workflows.operations.js';

/** Every served operation by operationId. Start-up fails if openapi.yaml has one not listed here. */
export const operations: Record<string, Operation> = {
  ...apiKeyOperations,
  ...auditOperations,
  ...domainOperations,
  ...inferenceOperations,
  ...memberOperations,
  ...orgOperations,
  ...unitOperations,
  ...workflowOperations,
};
