import {
  createApiKey, createOrg, inviteMember, listApiKeys, listAuditEntries, listMembers, listOrgs, removeMember, revokeApiKey,
  updateMemberRole, updateOrg, type LemmaClient,
} from '@lemma/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './expect-error.js';
import { dialect, startTestServer, type Tenant, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

type Role = 'viewer' | 'reviewer' | 'author' | 'admin';
const ROLES: Role[] = ['viewer', 'reviewer', 'author', 'admin'];
const RANK: Record<Role, number> = { viewer: 0, reviewer: 1, author: 2, admin: 3 };

/** A tenant with one member (and key) per role, plus a spare member to act on. */
async function tenantWithRoles(): Promise<Tenant & { as: Record<Role, LemmaClient>; spare: { id: string } }> {
  const t = await server.newTenant('roles');
  const as = {} as Record<Role, LemmaClient>;
  for (const role of ROLES) {
    const { data: m } = await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: `as-${role}@${t.slug}.test`, role } });
    const { data: k } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: role, role, userId: m.userId } });
    as[role] = server.client(k.key);
  }
  const { data: spare } = await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: `spare@${t.slug}.test`, role: 'viewer' } });
  return { ...t, as, spare };
}

/** Each governance operation with the lowest role DESIGN.md §4 allows. */
const MATRIX: { op: string; min: Role; call: (c: LemmaClient, t: Tenant & { spare: { id: string } }) => Promise<unknown> }[] = [
  { op: 'listOrgs', min: 'viewer', call: (c) => listOrgs({ client: c }) },
  { op: 'createOrg', min: 'viewer', call: (c, t) => createOrg({ client: c, body: { name: 'x', slug: `${t.slug}-${Math.random().toString(16).slice(2, 8)}` } }) },
  { op: 'updateOrg', min: 'admin', call: (c, t) => updateOrg({ client: c, path: { slug: t.slug }, body: { name: 'Renamed' } }) },
  { op: 'listMembers', min: 'viewer', call: (c, t) => listMembers({ client: c, path: { slug: t.slug } }) },
  { op: 'inviteMember', min: 'admin', call: (c, t) => inviteMember({ client: c, path: { slug: t.slug }, body: { email: `${Math.random().toString(16).slice(2)}@x.test`, role: 'viewer' } }) },
  { op: 'updateMemberRole', min: 'admin', call: (c, t) => updateMemberRole({ client: c, path: { slug: t.slug, id: t.spare.id }, body: { role: 'reviewer' } }) },
  { op: 'removeMember (another)', min: 'admin', call: (c, t) => removeMember({ client: c, path: { slug: t.slug, id: t.spare.id } }) },
  { op: 'listApiKeys', min: 'admin', call: (c, t) => listApiKeys({ client: c, path: { slug: t.slug } }) },
  { op: 'createApiKey', min: 'admin', call: (c, t) => createApiKey({ client: c, path: { slug: t.slug }, body: { name: 'k', role: 'viewer' } }) },
  { op: 'listAuditEntries (json)', min: 'viewer', call: (c) => listAuditEntries({ client: c }) },
];

describe(`role matrix [${dialect}]`, () => {
  let t: Awaited<ReturnType<typeof tenantWithRoles>>;
  beforeAll(async () => {
    t = await tenantWithRoles();
  });

  const cases = MATRIX.flatMap((m) => ROLES.map((role) => ({ ...m, role, allowed: RANK[role] >= RANK[m.min] })));
  it.each(cases)('$op as $role -> allowed: $allowed', async ({ call, role, allowed }) => {
    if (allowed) {
      await expect(call(t.as[role], t)).resolves.toBeDefined();
    } else {
      await expectError(call(t.as[role], t), 403, 'FORBIDDEN');
    }
  });

  it('revokeApiKey needs admin', async () => {
    const { data: k } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'target', role: 'viewer' } });
    for (const role of ['viewer', 'reviewer', 'author'] as const) {
      await expectError(revokeApiKey({ client: t.as[role], path: { slug: t.slug, id: k.id } }), 403, 'FORBIDDEN');
    }
    await revokeApiKey({ client: t.as.admin, path: { slug: t.slug, id: k.id } });
  });

  it('CSV export needs admin', async () => {
    for (const role of ['viewer', 'reviewer', 'author'] as const) {
      await expectError(listAuditEntries({ client: t.as[role], query: { format: 'csv' } }), 403, 'FORBIDDEN');
    }
    const res = await server.fetch('/audit?format=csv', { apiKey: t.adminKey });
    expect(res.status).toBe(200);
  });
});

describe(`authentication [${dialect}]`, () => {
  it.each([
    ['no header', undefined],
    ['not bearer', 'Basic dXNlcjpwYXNz'],
    ['malformed key', 'Bearer lemma_pk_123'],
    ['wrong prefix', 'Bearer other_pk_0123456789abcdef0123456789abcdef'],
    ['upper-case hex', 'Bearer lemma_pk_0123456789ABCDEF0123456789ABCDEF'],
    ['unknown key', 'Bearer lemma_pk_0123456789abcdef0123456789abcdef'],
  ])('%s is 401 UNAUTHORIZED in the envelope', async (_name, authorization) => {
    const res = await server.fetch('/orgs', { headers: authorization ? { authorization } : {} });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: { code: string } };
    expect(body.error.code).toBe('UNAUTHORIZED');
  });

  it('a session cookie alone authenticates nobody yet', async () => {
    const res = await server.fetch('/orgs', { headers: { cookie: 'lemma_session=abc' } });
    expect(res.status).toBe(401);
  });

  it('an inference-only permission list does not widen a key beyond its role', async () => {
    const t = await server.newTenant();
    const { data: k } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'v', role: 'viewer', permissions: [] } });
    await expectError(inviteMember({ client: server.client(k.key), path: { slug: t.slug }, body: { email: 'a@b.test', role: 'viewer' } }), 403, 'FORBIDDEN');
  });
});

describe(`tenant isolation [${dialect}]`, () => {
  it("another organization's slug and IDs are 404, never 403, never data", async () => {
    const a = await server.newTenant('a');
    const b = await server.newTenant('b');
    const { data: bMember } = await inviteMember({ client: b.admin, path: { slug: b.slug }, body: { email: 'x@b.test', role: 'viewer' } });
    const { data: bKey } = await createApiKey({ client: b.admin, path: { slug: b.slug }, body: { name: 'b' } });
    const attempts: (() => Promise<unknown>)[] = [
      () => listMembers({ client: a.admin, path: { slug: b.slug } }),
      () => inviteMember({ client: a.admin, path: { slug: b.slug }, body: { email: 'y@b.test', role: 'admin' } }),
      () => updateOrg({ client: a.admin, path: { slug: b.slug }, body: { name: 'pwned' } }),
      () => listApiKeys({ client: a.admin, path: { slug: b.slug } }),
      () => createApiKey({ client: a.admin, path: { slug: b.slug }, body: { name: 'x' } }),
      () => revokeApiKey({ client: a.admin, path: { slug: b.slug, id: bKey.id } }),
      () => updateMemberRole({ client: a.admin, path: { slug: b.slug, id: bMember.id }, body: { role: 'admin' } }),
      () => removeMember({ client: a.admin, path: { slug: b.slug, id: bMember.id } }),
      // B's IDs through A's own slug.
      () => revokeApiKey({ client: a.admin, path: { slug: a.slug, id: bKey.id } }),
      () => updateMemberRole({ client: a.admin, path: { slug: a.slug, id: bMember.id }, body: { role: 'admin' } }),
      () => removeMember({ client: a.admin, path: { slug: a.slug, id: bMember.id } }),
      // A slug that does not exist reads exactly the same.
      () => listMembers({ client: a.admin, path: { slug: 'no-such-org' } }),
    ];
    for (const attempt of attempts) await expectError(attempt(), 404, 'NOT_FOUND');
    // Nothing of B changed, and A's audit log shows none of B's entries.
    const { data: members } = await listMembers({ client: b.admin, path: { slug: b.slug } });
    expect(members.find((m) => m.id === bMember.id)?.role).toBe('viewer');
    const { data: keys } = await listApiKeys({ client: b.admin, path: { slug: b.slug } });
    expect(keys.find((k) => k.id === bKey.id)?.revokedAt).toBeNull();
    const { data: orgs } = await listOrgs({ client: b.admin });
    expect(orgs[0]?.name).not.toBe('pwned');
    const { data: auditA } = await listAuditEntries({ client: a.admin, query: { limit: 200 } });
    expect(auditA.every((e) => !JSON.stringify(e).includes(b.slug))).toBe(true);
    const { meta } = await listAuditEntries({ client: a.admin, query: { resourceId: bMember.id } });
    expect(meta.total).toBe(0);
  });

  it('a key lists only its own organization even when its user belongs to others', async () => {
    const a = await server.newTenant('multi');
    const { data: created } = await createOrg({ client: a.admin, body: { name: 'Second', slug: `${a.slug}-2` } });
    const { data: orgs } = await listOrgs({ client: a.admin });
    expect(orgs.map((o) => o.slug)).toEqual([a.slug]);
    const { data: orgs2 } = await listOrgs({ client: server.client(created.apiKey!.key) });
    expect(orgs2.map((o) => o.slug)).toEqual([created.slug]);
  });
});
