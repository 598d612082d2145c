import { apiKeyOperations } from './api-keys/api-keys.operations.js';
import { auditOperations } from './audit/audit.operations.js';
import { domainOperations } from './domains/domains.operations.js';
import { inferenceOperations } from './inference/inference.operations.js';
import type { Operation, PublicOperation } from './http/operation.js';
import { memberOperations } from './members/members.operations.js';
import { orgOperations } from './orgs/orgs.operations.js';
import { oauthOperations } from './sign-in/oauth.operations.js';
import { signInOperations } from './sign-in/sign-in.operations.js';
import { ssoFlowOperations } from './sign-in/sso-flow.operations.js';
import { ssoConfigOperations } from './sign-in/sso.operations.js';
import { unitOperations } from './units/units.operations.js';
import { workflowOperations } from './workflows/workflows.operations.js';

/** Every served operation by operationId. Start-up fails if openapi.yaml has one not listed here. */
export const operations: Record<string, Operation | PublicOperation> = {
  ...apiKeyOperations,
  ...auditOperations,
  ...domainOperations,
  ...inferenceOperations,
  ...memberOperations,
  ...orgOperations,
  ...unitOperations,
  ...workflowOperations,
  ...signInOperations,
  ...ssoConfigOperations,
  ...ssoFlowOperations,
  ...oauthOperations,
};
