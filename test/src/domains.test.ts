import {
  addDomainMember, createApiKey, createDomain, inviteMember, listAuditEntries, listDomainMembers, listDomains, listDomainTemplates,
  listUnits, removeDomainMember, removeMember,
} from '@lemma/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './expect-error.js';
import { dialect, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

const UNIT_TYPES = ['program', 'framework', 'pattern', 'argument', 'protocol'];

describe(`domains [${dialect}]`, () => {
  it('lists the templates: at least six, each covering the five unit types with 4-8 units', async () => {
    const t = await server.newTenant('tpl');
    const { data, meta } = await listDomainTemplates({ client: t.admin, query: { limit: 50 } });
    expect(meta.total).toBe(data.length);
    expect(data.map((d) => d.name)).toEqual(expect.arrayContaining(['Finance', 'Legal', 'Healthcare', 'HR', 'Insurance', 'Tax']));
    for (const template of data) {
      expect(template.units.length, template.id).toBeGreaterThanOrEqual(4);
      expect(template.units.length, template.id).toBeLessThanOrEqual(8);
      expect(new Set(template.units.map((u) => u.unitType)), template.id).toEqual(new Set(UNIT_TYPES));
    }
    const page = await listDomainTemplates({ client: t.admin, query: { limit: 2, offset: 1 } });
    expect(page.data.map((d) => d.id)).toEqual(data.slice(1, 3).map((d) => d.id));
  });

  it('creates domains (admin), slugs unique per org, listed by name with their unit count, audited', async () => {
    const t = await server.newTenant('dom');
    const { data: hr } = await createDomain({ client: t.admin, body: { name: 'Human Resources', description: 'People rules.', jurisdiction: 'US-CA' } });
    expect(hr).toMatchObject({ slug: 'human-resources', name: 'Human Resources', description: 'People rules.', jurisdiction: 'US-CA', unitCount: 0 });
    const { data: again } = await createDomain({ client: t.admin, body: { name: 'Human resources' } });
    expect(again).toMatchObject({ slug: 'human-resources-2', description: null, jurisdiction: null });
    const { data: list, meta } = await listDomains({ client: t.admin });
    expect(list.map((d) => d.slug)).toEqual(['human-resources', 'human-resources-2']);
    expect(meta.total).toBe(2);
    await expectError(createDomain({ client: t.admin, body: { name: '' } }), 400, 'VALIDATION_ERROR', 'name');
    await expectError(createDomain({ client: t.admin, body: { name: 'X', jurisdiction: 'not a code!' } }), 400, 'VALIDATION_ERROR', 'jurisdiction');
    const { data: audit } = await listAuditEntries({ client: t.admin, query: { action: 'domain.created' } });
    expect(audit.map((a) => a.resourceId).sort()).toEqual([hr.id, again.id].sort());
    // Another organization sees none of them.
    const other = await server.newTenant('dom-other');
    expect((await listDomains({ client: other.admin })).data).toEqual([]);
  });

  it('creates a domain from a template with its units as candidates authored by the caller', async () => {
    const t = await server.newTenant('from-tpl');
    const { data: templates } = await listDomainTemplates({ client: t.admin });
    const hrTemplate = templates.find((x) => x.id === 'hr')!;
    const { data: domain } = await createDomain({ client: t.admin, body: { name: 'HR', templateId: 'hr' } });
    expect(domain).toMatchObject({ unitCount: hrTemplate.units.length, description: hrTemplate.description, jurisdiction: hrTemplate.jurisdiction });
    const { data: units } = await listUnits({ client: t.admin, query: { domainId: domain.id, limit: 50 } });
    expect(units.map((u) => u.name).sort()).toEqual(hrTemplate.units.map((u) => u.name).sort());
    for (const unit of units) {
      expect(unit).toMatchObject({ status: 'candidate', version: 1, authorId: t.adminUserId, domainId: domain.id });
      // Every template unit's examples pass through the executor.
      expect(unit.exampleResults.failing, `${unit.name}: ${JSON.stringify(unit.exampleResults.failures)}`).toBe(0);
    }
    const { data: audit } = await listAuditEntries({ client: t.admin, query: { action: 'unit.created', limit: 50 } });
    expect(audit).toHaveLength(hrTemplate.units.length);
    await expectError(createDomain({ client: t.admin, body: { name: 'Nope', templateId: 'astrology' } }), 404, 'NOT_FOUND', 'templateId');
    expect((await listDomains({ client: t.admin })).meta.total).toBe(1);
  });

  it('manages domain members: add org members with a domain role, list, remove; audited', async () => {
    const t = await server.newTenant('dm');
    const { data: domain } = await createDomain({ client: t.admin, body: { name: 'Tax' } });
    const { data: ann } = await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: `ann@${t.slug}.test`, role: 'reviewer' } });
    const { data: bob } = await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: `bob@${t.slug}.test`, role: 'author' } });
    const { data: added } = await addDomainMember({ client: t.admin, path: { slug: domain.slug }, body: { userId: ann.userId, role: 'reviewer' } });
    expect(added).toMatchObject({ domainId: domain.id, userId: ann.userId, email: `ann@${t.slug}.test`, role: 'reviewer' });
    await addDomainMember({ client: t.admin, path: { slug: domain.slug }, body: { userId: bob.userId, role: 'viewer' } });
    await expectError(addDomainMember({ client: t.admin, path: { slug: domain.slug }, body: { userId: ann.userId, role: 'admin' } }), 409, 'CONFLICT', 'userId');
    const outsider = await server.newTenant('dm-out');
    await expectError(addDomainMember({ client: t.admin, path: { slug: domain.slug }, body: { userId: outsider.adminUserId, role: 'viewer' } }), 404, 'NOT_FOUND', 'userId');
    await expectError(addDomainMember({ client: t.admin, path: { slug: domain.slug }, body: { userId: bob.userId, role: 'owner' as 'admin' } }), 400, 'VALIDATION_ERROR', 'role');
    await expectError(addDomainMember({ client: t.admin, path: { slug: 'no-such-domain' }, body: { userId: bob.userId, role: 'viewer' } }), 404, 'NOT_FOUND');

    const { data: members, meta } = await listDomainMembers({ client: t.admin, path: { slug: domain.slug } });
    expect(members.map((m) => [m.userId, m.role])).toEqual([[ann.userId, 'reviewer'], [bob.userId, 'viewer']]);
    expect(meta.total).toBe(2);
    const { data: removed } = await removeDomainMember({ client: t.admin, path: { slug: domain.slug, userId: bob.userId } });
    expect(removed.userId).toBe(bob.userId);
    await expectError(removeDomainMember({ client: t.admin, path: { slug: domain.slug, userId: bob.userId } }), 404, 'NOT_FOUND');
    expect((await listDomainMembers({ client: t.admin, path: { slug: domain.slug } })).data.map((m) => m.userId)).toEqual([ann.userId]);

    // Another organization: the domain does not exist for it.
    await expectError(listDomainMembers({ client: outsider.admin, path: { slug: domain.slug } }), 404, 'NOT_FOUND');
    const { data: audit } = await listAuditEntries({ client: t.admin, query: { resourceId: domain.id } });
    expect(audit.map((a) => a.action)).toEqual(['domain.member_removed', 'domain.member_added', 'domain.member_added', 'domain.created']);
  });

  it('domain members need admin to change, any member to read', async () => {
    const t = await server.newTenant('dm-roles');
    const { data: domain } = await createDomain({ client: t.admin, body: { name: 'Legal' } });
    const { data: m } = await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: `au@${t.slug}.test`, role: 'author' } });
    const { data: k } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'author', role: 'author', userId: m.userId } });
    const author = server.client(k.key);
    await expectError(addDomainMember({ client: author, path: { slug: domain.slug }, body: { userId: m.userId, role: 'viewer' } }), 403, 'FORBIDDEN');
    await expectError(removeDomainMember({ client: author, path: { slug: domain.slug, userId: m.userId } }), 403, 'FORBIDDEN');
    expect((await listDomainMembers({ client: author, path: { slug: domain.slug } })).data).toEqual([]);
    expect((await listDomains({ client: author })).data.map((d) => d.id)).toEqual([domain.id]);
    await listDomainTemplates({ client: author });
  });

  it('a member who leaves the organization leaves its domains', async () => {
    const t = await server.newTenant('dm-leave');
    const { data: domain } = await createDomain({ client: t.admin, body: { name: 'Insurance' } });
    const { data: m } = await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: `gone@${t.slug}.test`, role: 'reviewer' } });
    await addDomainMember({ client: t.admin, path: { slug: domain.slug }, body: { userId: m.userId, role: 'reviewer' } });
    await removeMember({ client: t.admin, path: { slug: t.slug, id: m.id } });
    expect((await listDomainMembers({ client: t.admin, path: { slug: domain.slug } })).data).toEqual([]);
  });
});
