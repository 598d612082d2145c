import { type Actor, insertAuditEntry } from '../audit/audit.repository.js';
import type { Principal } from '../auth/principal.js';
import type { Role } from '../auth/roles.js';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import { lockOrganization } from '../db/locks.js';
import { slugsLike } from '../db/slug-queries.js';
import type { Deps } from '../deps.js';
import { findMemberByUser } from '../members/members.repository.js';
import { conflict, notFound } from '../shared/errors.js';
import { newId, nowIso } from '../shared/ids.js';
import { firstFreeSlug, slugOf } from '../shared/slugs.js';
import { contentFromInput, insertNewUnit } from '../units/units.service.js';
import * as repo from './domains.repository.js';
import { findDomainTemplate } from './templates/index.js';

export interface Domain {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  jurisdiction: string | null;
  unitCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface DomainMember {
  domainId: string;
  userId: string;
  email: string;
  role: Role;
  createdAt: string;
}

const toDomain = (row: repo.DomainRow): Domain => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  description: row.description,
  jurisdiction: row.jurisdiction,
  unitCount: Number(row.unit_count),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toDomainMember = (row: repo.DomainMemberRow): DomainMember => ({
  domainId: row.domain_id,
  userId: row.user_id,
  email: row.email,
  role: row.role as Role,
  createdAt: row.created_at,
});

export async function listDomains(deps: Deps, principal: Principal, page: { limit: number; offset: number }) {
  const { rows, total } = await repo.listDomains(deps.store.db, principal.orgId, page);
  return { domains: rows.map(toDomain), total };
}

export interface DomainInput {
  name: string;
  description?: string;
  jurisdiction?: string;
  templateId?: string;
}

/** Creates a domain; from a template, also its example units as candidates authored by the caller. */
export function createDomain(deps: Deps, principal: Principal, actor: Actor, input: DomainInput): Promise<Domain> {
  const template = input.templateId === undefined ? undefined : findDomainTemplate(input.templateId);
  if (input.templateId !== undefined && !template) throw notFound('Domain template', { field: 'templateId' });
  const { db, dialect } = deps.store;
  return db.transaction().execute(async (trx) => {
    await lockOrganization(trx, dialect, principal.orgId);
    const base = slugOf(input.name, 'domain');
    const at = nowIso();
    const row = {
      id: newId('dom'),
      org_id: principal.orgId,
      slug: firstFreeSlug(base, await slugsLike(trx, 'domains', principal.orgId, base)),
      name: input.name,
      description: input.description ?? template?.description ?? null,
      jurisdiction: input.jurisdiction ?? template?.jurisdiction ?? null,
      created_at: at,
      updated_at: at,
    };
    await repo.insertDomain(trx, row);
    await insertAuditEntry(trx, dialect, actor, {
      orgId: principal.orgId,
      action: 'domain.created',
      resourceType: 'domain',
      resourceId: row.id,
      details: { slug: row.slug, name: row.name, templateId: input.templateId ?? null, units: template?.units.length ?? 0 },
    });
    for (const unit of template?.units ?? []) {
      await insertNewUnit(trx, deps, principal, actor, contentFromInput({ ...structuredClone(unit), domainId: row.id }), { details: { templateId: template!.id } });
    }
    return toDomain({ ...row, unit_count: template?.units.length ?? 0 });
  });
}

async function domainBySlug(db: Db, principal: Principal, slug: string) {
  const domain = await repo.findDomain(db, principal.orgId, { slug });
  if (!domain) throw notFound('Domain');
  return domain;
}

export async function listDomainMembers(deps: Deps, principal: Principal, slug: string, page: { limit: number; offset: number }) {
  const domain = await domainBySlug(deps.store.db, principal, slug);
  const { rows, total } = await repo.listDomainMembers(deps.store.db, principal.orgId, domain.id, page);
  return { members: rows.map(toDomainMember), total };
}

/** Adds an organization member to the domain with a domain role. */
export async function addDomainMember(deps: Deps, principal: Principal, actor: Actor, slug: string, input: { userId: string; role: Role }): Promise<DomainMember> {
  const { db, dialect } = deps.store;
  const duplicate = () => conflict('This user is already a member of the domain', { field: 'userId' });
  return db
    .transaction()
    .execute(async (trx) => {
      const domain = await domainBySlug(trx, principal, slug);
      const member = await findMemberByUser(trx, principal.orgId, input.userId);
      if (!member) throw notFound('Member of this organization', { field: 'userId' });
      if (await repo.findDomainMember(trx, principal.orgId, domain.id, input.userId)) throw duplicate();
      const row = { domain_id: domain.id, org_id: principal.orgId, user_id: input.userId, role: input.role, created_at: nowIso() };
      await repo.insertDomainMember(trx, row);
      await insertAuditEntry(trx, dialect, actor, {
        orgId: principal.orgId,
        action: 'domain.member_added',
        resourceType: 'domain',
        resourceId: domain.id,
        details: { userId: input.userId, email: member.email, role: input.role },
      });
      return toDomainMember({ ...row, email: member.email });
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw duplicate();
      throw err;
    });
}

export function removeDomainMember(deps: Deps, principal: Principal, actor: Actor, slug: string, userId: string): Promise<DomainMember> {
  const { db, dialect } = deps.store;
  return db.transaction().execute(async (trx) => {
    const domain = await domainBySlug(trx, principal, slug);
    const row = await repo.findDomainMember(trx, principal.orgId, domain.id, userId);
    if (!row) throw notFound('Domain member');
    await repo.deleteDomainMember(trx, domain.id, userId);
    await insertAuditEntry(trx, dialect, actor, {
      orgId: principal.orgId,
      action: 'domain.member_removed',
      resourceType: 'domain',
      resourceId: domain.id,
      details: { userId, email: row.email, role: row.role },
    });
    return toDomainMember(row);
  });
}
