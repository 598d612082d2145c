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

export interface DomainsTable {
  id: string;
  org_id: string;
  slug: string;
  name: string;
  description: string | null;
  jurisdiction: string | null;
  created_at: string;
  updated_at: string;
}

export interface DomainMembersTable {
  domain_id: string;
  org_id: string;
  user_id: string;
  role: string;
  created_at: string;
}

export interface UnitsTable {
  id: string;
  org_id: string;
  slug: string;
  name: string;
  unit_type: string;
  domain_id: string;
  description: string | null;
  given_text: string | null;
  when_text: string | null;
  then_text: string | null;
  input_schema: string;
  output_schema: string;
  jurisdiction: string | null;
  definition: string | null;
  examples: string;
  example_results: string;
  status: string;
  version: number;
  verification_score: number;
  approval_rate: number;
  author_id: string;
  reviewers: string;
  /** The words full-text matching searches (units/search-text.ts), indexed per dialect. */
  search_text: string;
  created_at: string;
  updated_at: string;
}

export interface UnitReviewsTable {
  id: string;
  org_id: string;
  unit_id: string;
  version: number;
  reviewer_id: string;
  action: string;
  comment: string | null;
  element_reviews: string;
  created_at: string;
}

export interface UnitEdgesTable {
  id: string;
  org_id: string;
  source_unit_id: string;
  target_unit_id: string;
  kind: string;
  mapping: string;
  created_at: string;
}

export interface InferenceSessionsTable {
  id: string;
  org_id: string;
  user_id: string;
  status: string;
  state_ciphertext: string;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

export interface InferenceLogsTable {
  id: string;
  org_id: string;
  user_id: string;
  session_id: string | null;
  mode: string;
  coverage_percent: number;
  duration_ms: number;
  trust_summary: string;
  units_fired: string;
  models_used: string;
  segment_count: number;
  payload_ciphertext: string;
  created_at: string;
}

export interface InferenceFeedbackTable {
  id: string;
  org_id: string;
  inference_log_id: string;
  segment_index: number;
  feedback: string;
  comment: string | null;
  user_id: string;
  created_at: string;
}

export interface InferenceGapsTable {
  id: string;
  org_id: string;
  domain_id: string | null;
  gap_key: string;
  output_ciphertext: string;
  inference_log_id: string;
  resolved_unit_id: string | null;
  created_at: string;
}

export interface WorkflowsTable {
  id: string;
  org_id: string;
  slug: string;
  name: string;
  domain_id: string;
  jurisdiction: string | null;
  status: string;
  latest_version: number;
  created_at: string;
  updated_at: string;
}

export interface WorkflowVersionsTable {
  workflow_id: string;
  version: number;
  units: string;
  description: string | null;
  created_by: string;
  created_at: string;
}

export interface WorkflowUnitsTable {
  workflow_id: string;
  version: number;
  unit_id: string;
}

/** Maintained by triggers (migration 04): units per (org, status, type, domain, jurisdiction or ''). */
export interface UnitCountsTable {
  org_id: string;
  status: string;
  unit_type: string;
  domain_id: string;
  jurisdiction: string;
  n: number;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  idle_expires_at: string;
  user_agent: string | null;
  ip_address: string | null;
}

export interface MagicLinksTable {
  id: string;
  token_hash: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface UserIdentitiesTable {
  provider: string;
  subject: string;
  user_id: string;
  email: string;
  created_at: string;
}

export interface SsoConfigsTable {
  org_id: string;
  preset: string;
  issuer: string;
  client_id: string;
  client_secret_ciphertext: string | null;
  allowed_domains: string;
  default_role: string;
  updated_at: string;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  members: MembersTable;
  api_keys: ApiKeysTable;
  audit_log: AuditLogTable;
  rate_limits: RateLimitsTable;
  domains: DomainsTable;
  domain_members: DomainMembersTable;
  units: UnitsTable;
  unit_reviews: UnitReviewsTable;
  unit_edges: UnitEdgesTable;
  inference_sessions: InferenceSessionsTable;
  inference_logs: InferenceLogsTable;
  inference_feedback: InferenceFeedbackTable;
  inference_gaps: InferenceGapsTable;
  workflows: WorkflowsTable;
  workflow_versions: WorkflowVersionsTable;
  workflow_units: WorkflowUnitsTable;
  unit_counts: UnitCountsTable;
  sessions: SessionsTable;
  magic_links: MagicLinksTable;
  user_identities: UserIdentitiesTable;
  sso_configs: SsoConfigsTable;
}
