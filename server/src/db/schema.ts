import type { Generated } from 'kysely';

/**
 * Table types. Columns are snake_case; timestamps are ISO 8601 strings and JSON is stored as
 * text, so both dialects return exactly what was written.
 */
export interface OrganizationsTable {
  id: string;
  slug: string;
  name: string;
  plan: string;
  settings: string;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: string;
  email: string;
  created_at: string;
}

export interface MembersTable {
  id: string;
  org_id: string;
  user_id: string;
  role: string;
  invited_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  org_id: string;
  user_id: string;
  name: string;
  role: string;
  permissions: string;
  key_hash: string;
  start: string;
  created_by: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface AuditLogTable {
  id: string;
  org_id: string;
  seq: number;
  action: string;
  user_id: string | null;
  resource_type: string;
  resource_id: string;
  details: string;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
  prev_hash: string;
  hash: string;
}

export interface RateLimitsTable {
  key: string;
  points: Generated<number>;
  expire: number | null;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  members: MembersTable;
  api_keys: ApiKeysTable;
  audit_log: AuditLogTable;
  rate_limits: RateLimitsTable;
}
