/** Each organization's OpenID Connect identity provider (`PUT /orgs/{slug}/sso`). */
import { type Actor, insertAuditEntry } from '../audit/audit.repository.js';
import type { Principal } from '../auth/principal.js';
import type { Role } from '../auth/roles.js';
import type { Db } from '../db/database.js';
import type { SsoConfigsTable } from '../db/schema.js';
import type { Deps } from '../deps.js';
import { invalid, notFound } from '../shared/errors.js';
import { nowIso } from '../shared/ids.js';

export type SsoPreset = 'entra_id' | 'okta' | 'google_workspace' | 'generic';

export interface SsoConfigInput {
  preset?: SsoPreset;
  issuer: string;
  clientId: string;
  clientSecret?: string;
  allowedDomains: string[];
  defaultRole?: Role;
}

export function findSsoConfig(db: Db, orgId: string): Promise<SsoConfigsTable | undefined> {
  return db.selectFrom('sso_configs').selectAll().where('org_id', '=', orgId).executeTakeFirst();
}

/** Where the identity provider sends people back, to register there. */
export const ssoRedirectUri = (origin: string, slug: string) => `${origin}/api/v1/auth/sso/${slug}/callback`;

export function toSsoConfig(row: SsoConfigsTable, origin: string, slug: string) {
  return {
    preset: row.preset as SsoPreset,
    issuer: row.issuer,
    clientId: row.client_id,
    clientSecretSet: row.client_secret_ciphertext !== null,
    allowedDomains: JSON.parse(row.allowed_domains) as string[],
    defaultRole: row.default_role as Role,
    signInUrl: `${origin}/api/v1/auth/sso/${slug}/start`,
    redirectUri: ssoRedirectUri(origin, slug),
    updatedAt: row.updated_at,
  };
}

export async function getSsoConfig(deps: Deps, principal: Principal, origin: string) {
  const row = await findSsoConfig(deps.store.db, principal.orgId);
  if (!row) throw notFound('SSO configuration');
  return toSsoConfig(row, origin, principal.orgSlug);
}

export function configureSso(deps: Deps, principal: Principal, actor: Actor, input: SsoConfigInput, origin: string) {
  const { db, dialect } = deps.store;
  const issuer = input.issuer.replace(/\/+$/, '');
  if (!/^https?:\/\//.test(issuer)) throw invalid('issuer', 'must be an http(s) URL');
  return db.transaction().execute(async (trx) => {
    const existing = await findSsoConfig(trx, principal.orgId);
    if (!existing && input.clientSecret === undefined) throw invalid('clientSecret', 'is required the first time SSO is configured');
    const row: SsoConfigsTable = {
      org_id: principal.orgId,
      preset: input.preset ?? existing?.preset ?? 'generic',
      issuer,
      client_id: input.clientId,
      client_secret_ciphertext: input.clientSecret !== undefined ? deps.secrets.encrypt(input.clientSecret) : existing!.client_secret_ciphertext,
      allowed_domains: JSON.stringify(input.allowedDomains.map((d) => d.toLowerCase())),
      default_role: input.defaultRole ?? existing?.default_role ?? 'viewer',
      updated_at: nowIso(),
    };
    if (existing) await trx.updateTable('sso_configs').set(row).where('org_id', '=', principal.orgId).execute();
    else await trx.insertInto('sso_configs').values(row).execute();
    await insertAuditEntry(trx, dialect, actor, {
      orgId: principal.orgId,
      action: 'auth.sso_configured',
      resourceType: 'sso_config',
      resourceId: principal.orgId,
      details: { preset: row.preset, issuer, clientId: input.clientId, allowedDomains: JSON.parse(row.allowed_domains), defaultRole: row.default_role, clientSecretChanged: input.clientSecret !== undefined },
    });
    return toSsoConfig(row, origin, principal.orgSlug);
  });
}
