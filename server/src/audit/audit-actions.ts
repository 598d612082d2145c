/** The closed list of audit actions (`<resource>.<verb>`, DESIGN §10). */
export const AUDIT_ACTIONS = [
  'org.created',
  'org.updated',
  'member.invited',
  'member.role_updated',
  'member.removed',
  'api_key.created',
  'api_key.revoked',
  'domain.created',
  'domain.member_added',
  'domain.member_removed',
  'unit.created',
  'unit.updated',
  'unit.deleted',
  'unit.verified',
  'unit.assigned',
  'unit.edge_created',
  'unit.ai_edited',
  'inference.feedback',
  'inference.saved_as_unit',
  'units.generated_from_gaps',
  'workflow.created',
  'workflow.versioned',
  'workflow.status_changed',
  'auth.signed_in',
  'auth.signed_out',
  'auth.sso_configured',
  'member.joined',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type ResourceType = 'organization' | 'member' | 'api_key' | 'domain' | 'unit' | 'inference_log' | 'workflow' | 'session' | 'sso_config';
