import { revokeKeysOfUser } from '../api-keys/api-keys.repository.js';
import { type Actor, insertAuditEntry } from '../audit/audit.repository.js';
import type { Principal } from '../auth/principal.js';
import type { Role } from '../auth/roles.js';
import { isUniqueViolation } from '../db/errors.js';
import { removeUserFromDomains } from '../domains/domains.repository.js';
import { lockOrganization } from '../db/locks.js';
import type { Deps } from '../deps.js';
import { conflict, forbidden, notFound } from '../shared/errors.js';
import { newId, nowIso } from '../shared/ids.js';
import * as repo from './members.repository.js';

export interface Member {
  id: string;
  userId: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export const toMember = (row: repo.MemberRow): Member => ({
  id: row.id,
  userId: row.user_id,
  email: row.email,
  role: row.role as Role,
  invitedBy: row.invited_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export async function listMembers(deps: Deps, principal: Principal, page: { limit: number; offset: number }) {
  const [rows, count] = await repo.listMembers(deps.store.db, principal.orgId, page);
  return { members: rows.map(toMember), total: Number(count.n) };
}

export async function inviteMember(deps: Deps, principal: Principal, actor: Actor, input: { email: string; role: Role }): Promise<Member> {
  const { db, dialect } = deps.store;
  const member = await db
    .transaction()
    .execute(async (trx) => {
      const user = await repo.findOrCreateUser(trx, input.email);
      if (await repo.findMemberByUser(trx, principal.orgId, user.id)) {
        throw conflict('This person is already a member', { field: 'email' });
      }
      const at = nowIso();
      const row = { id: newId('mem'), org_id: principal.orgId, user_id: user.id, role: input.role, invited_by: principal.userId, created_at: at, updated_at: at };
      await repo.insertMember(trx, row);
      await insertAuditEntry(trx, dialect, actor, {
        orgId: principal.orgId,
        action: 'member.invited',
        resourceType: 'member',
        resourceId: row.id,
        details: { email: user.email, role: input.role },
      });
      return toMember({ ...row, email: user.email });
    })
    .catch((err: unknown) => {
      // Two invitations of the same new email racing: the loser sees the unique constraint.
      if (isUniqueViolation(err)) throw conflict('This person is already a member', { field: 'email' });
      throw err;
    });

  // Sent after commit: a mail failure must not undo the membership; it is logged instead.
  const link = `${deps.publicOrigin}/signin`;
  await deps.mailer
    .send({
      to: member.email,
      subject: `You have been invited to ${principal.orgSlug} on Lemma`,
      text: `You have been added to the organization "${principal.orgSlug}" on Lemma as ${member.role}.\n\nSign in at ${link} with this email address.\n`,
    })
    .catch((err: unknown) => deps.logger.error({ err, memberId: member.id }, 'invitation email could not be sent'));
  return member;
}

/** Loads a member of the caller's organization with the organization locked (last-admin rule). */
async function lockedMember(trx: Deps['store']['db'], deps: Deps, principal: Principal, memberId: string) {
  await lockOrganization(trx, deps.store.dialect, principal.orgId);
  const row = await repo.findMember(trx, principal.orgId, memberId);
  if (!row) throw notFound('Member');
  return row;
}

export function updateMemberRole(deps: Deps, principal: Principal, actor: Actor, memberId: string, role: Role): Promise<Member> {
  const { db, dialect } = deps.store;
  return db.transaction().execute(async (trx) => {
    const row = await lockedMember(trx, deps, principal, memberId);
    if (row.role === role) return toMember(row);
    if (row.role === 'admin' && (await repo.countAdmins(trx, principal.orgId)) <= 1) {
      throw conflict('An organization needs at least one admin: promote someone else first', { rule: 'last_admin' });
    }
    const at = nowIso();
    await repo.setMemberRole(trx, row.id, role, at);
    await insertAuditEntry(trx, dialect, actor, {
      orgId: principal.orgId,
      action: 'member.role_updated',
      resourceType: 'member',
      resourceId: row.id,
      details: { email: row.email, from: row.role, to: role },
    });
    return toMember({ ...row, role, updated_at: at });
  });
}

/** Admins remove anyone; any member may remove themselves (leave). Their keys are revoked too. */
export function removeMember(deps: Deps, principal: Principal, actor: Actor, memberId: string): Promise<Member> {
  const { db, dialect } = deps.store;
  return db.transaction().execute(async (trx) => {
    const row = await lockedMember(trx, deps, principal, memberId);
    if (row.user_id !== principal.userId && principal.role !== 'admin') {
      throw forbidden('Only admins may remove other members', { requiredRole: 'admin' });
    }
    if (row.role === 'admin' && (await repo.countAdmins(trx, principal.orgId)) <= 1) {
      throw conflict('An organization needs at least one admin: promote someone else first', { rule: 'last_admin' });
    }
    const at = nowIso();
    const keysRevoked = await revokeKeysOfUser(trx, principal.orgId, row.user_id, at);
    const domainsLeft = await removeUserFromDomains(trx, principal.orgId, row.user_id);
    await repo.deleteMember(trx, row.id);
    await insertAuditEntry(trx, dialect, actor, {
      orgId: principal.orgId,
      action: 'member.removed',
      resourceType: 'member',
      resourceId: row.id,
      details: { email: row.email, role: row.role, keysRevoked, domainsLeft, left: row.user_id === principal.userId },
    });
    return toMember(row);
  });
}
