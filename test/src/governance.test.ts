import {
  createApiKey, createOrg, getCurrentPrincipal, inviteMember, listApiKeys, listMembers, listOrgs, removeMember, revokeApiKey, updateMemberRole, updateOrg,
} from '@lemma/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './expect-error.js';
import { dialect, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

describe(`organizations [${dialect}]`, () => {
  it('says who is calling: user, organization, effective role and key', async () => {
    const t = await server.newTenant();
    const { data } = await getCurrentPrincipal({ client: t.admin });
    expect(data).toMatchObject({ user: { id: t.adminUserId, email: `admin@${t.slug}.test` }, organization: { id: t.orgId, slug: t.slug }, role: 'admin', permissions: ['inference'] });
    expect(data.apiKey).toMatchObject({ name: 'bootstrap admin', start: t.adminKey.slice(0, 12), expiresAt: null });
    const { data: k } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'reader', role: 'viewer', permissions: [] } });
    const { data: reader } = await getCurrentPrincipal({ client: server.client(k.key) });
    expect(reader).toMatchObject({ role: 'viewer', permissions: [], apiKey: { name: 'reader' } });
  });

  it('lists the caller\'s organization with its role', async () => {
    const t = await server.newTenant();
    const { data, meta } = await listOrgs({ client: t.admin });
    expect(meta).toEqual({ total: 1, limit: 20, offset: 0 });
    expect(data[0]).toMatchObject({ slug: t.slug, role: 'admin', plan: 'free', settings: {} });
  });

  it('creates an organization with the caller as admin and a key for it', async () => {
    const t = await server.newTenant();
    const slug = `${t.slug}-new`;
    const { data } = await createOrg({ client: t.admin, body: { name: 'New Org', slug } });
    expect(data).toMatchObject({ slug, name: 'New Org', role: 'admin' });
    expect(data.apiKey?.key).toMatch(/^lemma_pk_[0-9a-f]{32}$/);
    // The returned key reaches the new organization, where the caller is its only admin.
    const members = await listMembers({ client: server.client(data.apiKey!.key), path: { slug } });
    expect(members.data.map((m) => [m.userId, m.role])).toEqual([[t.adminUserId, 'admin']]);
  });

  it('refuses a duplicate slug with 409 and a bad slug with 400', async () => {
    const t = await server.newTenant();
    await expectError(createOrg({ client: t.admin, body: { name: 'Dup', slug: t.slug } }), 409, 'CONFLICT');
    await expectError(createOrg({ client: t.admin, body: { name: 'Bad', slug: 'Not A Slug' } }), 400, 'VALIDATION_ERROR', 'slug');
    await expectError(createOrg({ client: t.admin, body: { name: '', slug: `${t.slug}-x` } }), 400, 'VALIDATION_ERROR', 'name');
    await expectError(createOrg({ client: t.admin, body: { name: 'x'.repeat(201), slug: `${t.slug}-y` } }), 400, 'VALIDATION_ERROR', 'name');
  });

  it('updates name, plan and settings; provider keys are stored encrypted and shown redacted', async () => {
    const t = await server.newTenant();
    const { data } = await updateOrg({
      client: t.admin,
      path: { slug: t.slug },
      body: {
        name: 'Renamed',
        plan: 'team',
        settings: {
          verification: { minApprovals: 2 },
          llm: { prose: { provider: 'openai', model: 'gpt-4o-mini' }, providers: { openai: { apiKey: 'sk-test-secret-9876', baseUrl: 'http://127.0.0.1:9/v1' } } },
        },
      },
    });
    expect(data).toMatchObject({ name: 'Renamed', plan: 'team' });
    expect(data.settings.verification).toEqual({ minApprovals: 2 });
    expect(data.settings.llm?.providers?.openai).toEqual({ apiKey: '…9876', baseUrl: 'http://127.0.0.1:9/v1' });
    const stored = await server.deps.store.db.selectFrom('organizations').select('settings').where('id', '=', t.orgId).executeTakeFirstOrThrow();
    expect(stored.settings).not.toContain('sk-test-secret');
    const cipher = (JSON.parse(stored.settings) as { llm: { providers: { openai: { apiKeyCiphertext: string } } } }).llm.providers.openai.apiKeyCiphertext;
    expect(server.deps.secrets.decrypt(cipher)).toBe('sk-test-secret-9876');
    // A merge patch: null removes, other keys stay.
    const again = await updateOrg({ client: t.admin, path: { slug: t.slug }, body: { settings: { llm: { providers: { openai: null } } } } });
    expect(again.data.settings.llm).toEqual({ prose: { provider: 'openai', model: 'gpt-4o-mini' } });
    expect(again.data.settings.verification).toEqual({ minApprovals: 2 });
    // The secret never reaches the log.
    expect(JSON.stringify(server.logs)).not.toContain('sk-test-secret');
  });

  it('rejects bad updates naming the field and changes nothing', async () => {
    const t = await server.newTenant();
    await expectError(updateOrg({ client: t.admin, path: { slug: t.slug }, body: {} }), 400, 'VALIDATION_ERROR');
    await expectError(updateOrg({ client: t.admin, path: { slug: t.slug }, body: { plan: 'gold' as never } }), 400, 'VALIDATION_ERROR', 'plan');
    await expectError(
      updateOrg({ client: t.admin, path: { slug: t.slug }, body: { settings: { verification: { minApprovals: 0 } } } }),
      400, 'VALIDATION_ERROR', 'settings.verification.minApprovals',
    );
    await expectError(
      updateOrg({ client: t.admin, path: { slug: t.slug }, body: { settings: { colour: 'red' } as never } }),
      400, 'VALIDATION_ERROR', 'settings.colour',
    );
    const { data } = await listOrgs({ client: t.admin });
    expect(data[0]).toMatchObject({ plan: 'free', settings: {} });
  });
});

describe(`members [${dialect}]`, () => {
  it('invites a member, sends the invitation to the dev outbox, and lists them', async () => {
    const t = await server.newTenant();
    const { data: member } = await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: 'Ada@Example.com', role: 'reviewer' } });
    expect(member).toMatchObject({ email: 'ada@example.com', role: 'reviewer', invitedBy: t.adminUserId });
    const mail = server.logs.find((l) => (l.outbox as { to?: string } | undefined)?.to === 'ada@example.com');
    expect(mail?.outbox).toMatchObject({ subject: expect.stringContaining(t.slug) as string });
    const { data, meta } = await listMembers({ client: t.admin, path: { slug: t.slug } });
    expect(meta.total).toBe(2);
    expect(data.map((m) => m.email)).toEqual([`admin@${t.slug}.test`, 'ada@example.com']);
    await expectError(inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: 'ada@example.com', role: 'author' } }), 409, 'CONFLICT');
    await expectError(inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: 'not-an-email', role: 'author' } }), 400, 'VALIDATION_ERROR', 'email');
    await expectError(inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: 'b@example.com', role: 'owner' as never } }), 400, 'VALIDATION_ERROR', 'role');
  });

  it('paginates members and refuses limits out of range', async () => {
    const t = await server.newTenant();
    for (let i = 0; i < 4; i++) await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: `m${i}@example.com`, role: 'viewer' } });
    const page = await listMembers({ client: t.admin, path: { slug: t.slug }, query: { limit: 2, offset: 2 } });
    expect(page.meta).toEqual({ total: 5, limit: 2, offset: 2 });
    expect(page.data.map((m) => m.email)).toEqual(['m1@example.com', 'm2@example.com']);
    await expectError(listMembers({ client: t.admin, path: { slug: t.slug }, query: { limit: 201 } }), 400, 'VALIDATION_ERROR', 'limit');
    await expectError(listMembers({ client: t.admin, path: { slug: t.slug }, query: { limit: 0 } }), 400, 'VALIDATION_ERROR', 'limit');
    await expectError(listMembers({ client: t.admin, path: { slug: t.slug }, query: { offset: -1 } }), 400, 'VALIDATION_ERROR', 'offset');
  });

  it('changes roles, and a demoted member\'s keys are demoted with them', async () => {
    const t = await server.newTenant();
    const { data: m } = await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: 'ed@example.com', role: 'admin' } });
    const { data: key } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'ed', role: 'admin', userId: m.userId } });
    const ed = server.client(key.key);
    expect((await listApiKeys({ client: ed, path: { slug: t.slug } })).meta.total).toBe(2);
    const { data: demoted } = await updateMemberRole({ client: t.admin, path: { slug: t.slug, id: m.id }, body: { role: 'viewer' } });
    expect(demoted.role).toBe('viewer');
    await expectError(listApiKeys({ client: ed, path: { slug: t.slug } }), 403, 'FORBIDDEN');
    expect((await listOrgs({ client: ed })).data[0]?.role).toBe('viewer');
  });

  it('never removes or demotes the last admin', async () => {
    const t = await server.newTenant();
    const { data: members } = await listMembers({ client: t.admin, path: { slug: t.slug } });
    const self = members[0]!;
    await expectError(updateMemberRole({ client: t.admin, path: { slug: t.slug, id: self.id }, body: { role: 'author' } }), 409, 'CONFLICT');
    await expectError(removeMember({ client: t.admin, path: { slug: t.slug, id: self.id } }), 409, 'CONFLICT');
    // With a second admin, the first may step down (and their key steps down with them).
    await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: 'second@example.com', role: 'admin' } });
    await updateMemberRole({ client: t.admin, path: { slug: t.slug, id: self.id }, body: { role: 'author' } });
    await expectError(listApiKeys({ client: t.admin, path: { slug: t.slug } }), 403, 'FORBIDDEN');
  });

  it('removes a member and revokes their keys; a member may leave', async () => {
    const t = await server.newTenant();
    const { data: m } = await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: 'gone@example.com', role: 'author' } });
    const { data: key } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'gone', userId: m.userId } });
    const gone = server.client(key.key);
    // A non-admin may not remove someone else…
    await expectError(removeMember({ client: gone, path: { slug: t.slug, id: (await listMembers({ client: gone, path: { slug: t.slug } })).data[0]!.id } }), 403, 'FORBIDDEN');
    // …but may leave.
    const { data: removed } = await removeMember({ client: gone, path: { slug: t.slug, id: m.id } });
    expect(removed.email).toBe('gone@example.com');
    await expectError(listOrgs({ client: gone }), 401, 'UNAUTHORIZED');
    const { data: keys } = await listApiKeys({ client: t.admin, path: { slug: t.slug } });
    expect(keys.find((k) => k.id === key.id)?.revokedAt).not.toBeNull();
    await expectError(removeMember({ client: t.admin, path: { slug: t.slug, id: m.id } }), 404, 'NOT_FOUND');
  });
});

describe(`API keys [${dialect}]`, () => {
  it('creates a key shown once, stores only its digest, and lists it without the secret', async () => {
    const t = await server.newTenant();
    const { data: created } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'ci' } });
    expect(created).toMatchObject({ name: 'ci', role: 'author', permissions: ['inference'], userId: t.adminUserId, expiresAt: null, revokedAt: null });
    expect(created.key).toMatch(/^lemma_pk_[0-9a-f]{32}$/);
    expect(created.start).toBe(created.key.slice(0, 12));
    const row = await server.deps.store.db.selectFrom('api_keys').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.key);
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    const { data: keys } = await listApiKeys({ client: t.admin, path: { slug: t.slug } });
    expect(keys[0]).not.toHaveProperty('key');
    expect(JSON.stringify(keys)).not.toContain(created.key);
    // The new key works, with its own (lower) role.
    const { data: orgs } = await listOrgs({ client: server.client(created.key) });
    expect(orgs[0]?.role).toBe('author');
  });

  it('revocation takes effect on the very next request', async () => {
    const t = await server.newTenant();
    const { data: created } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'short-lived', role: 'viewer' } });
    const c = server.client(created.key);
    await listOrgs({ client: c });
    const { data: revoked } = await revokeApiKey({ client: t.admin, path: { slug: t.slug, id: created.id } });
    expect(revoked.revokedAt).not.toBeNull();
    const err = await expectError(listOrgs({ client: c }), 401, 'UNAUTHORIZED');
    expect(err.message).toMatch(/revoked/);
    await expectError(revokeApiKey({ client: t.admin, path: { slug: t.slug, id: created.id } }), 409, 'CONFLICT');
  });

  it('expired keys are refused', async () => {
    const t = await server.newTenant();
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const { data: created } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'brief', expiresAt } });
    await listOrgs({ client: server.client(created.key) });
    await new Promise((r) => setTimeout(r, 1600));
    const err = await expectError(listOrgs({ client: server.client(created.key) }), 401, 'UNAUTHORIZED');
    expect(err.message).toMatch(/expired/);
  });

  it('validates role, permissions, expiry and the member a key acts for', async () => {
    const t = await server.newTenant();
    const body = (b: object) => createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'k', ...b } });
    await expectError(body({ expiresAt: '2020-01-01T00:00:00Z' }), 400, 'VALIDATION_ERROR', 'expiresAt');
    await expectError(body({ expiresAt: 'tomorrow' }), 400, 'VALIDATION_ERROR', 'expiresAt');
    await expectError(body({ permissions: ['everything'] }), 400, 'VALIDATION_ERROR', 'permissions[0]');
    await expectError(body({ role: 'root' }), 400, 'VALIDATION_ERROR', 'role');
    await expectError(body({ userId: 'usr_nobody' }), 400, 'VALIDATION_ERROR', 'userId');
    await expectError(createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: '' } }), 400, 'VALIDATION_ERROR', 'name');
    const { data: m } = await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: 'v@example.com', role: 'viewer' } });
    await expectError(body({ userId: m.userId, role: 'admin' }), 400, 'VALIDATION_ERROR', 'role');
    // Without a role, a viewer's key is a viewer key (the default author is capped).
    const { data: k } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'v', userId: m.userId } });
    expect(k.role).toBe('viewer');
    expect((await listApiKeys({ client: t.admin, path: { slug: t.slug } })).meta.total).toBe(2);
  });
});
