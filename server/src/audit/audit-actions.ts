/** The closed list of audit actions (`<resource>.<verb>`, DESIGN §10). */
export const AUDIT_ACTIONS = [
  'org.created',
  'org.updated',
  'member.invited',
  'member.role_updated',
  'member.removed',
  'api_key.created',
  'api_key.revoked',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type ResourceType = 'organization' | 'member' | 'api_key';
