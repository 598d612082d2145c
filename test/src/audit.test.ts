import {
  createApiKey, createOrg, inviteMember, listAuditEntries, listMembers, removeMember, revokeApiKey, updateMemberRole, updateOrg, paginate,
} from '@lemma/sdk';
import { insertAuditEntry, verifyAuditChain } from '@lemma/server';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './expect-error.js';
import { dialect, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

const UA = 'lemma-test/1.0';

describe(`audit log [${dialect}]`, () => {
  it('records every governance mutation with who, what, where from', async () => {
    const t = await server.newTenant('audit');
    const c = server.client(t.adminKey, { 'User-Agent': UA });
    const slug = { slug: t.slug };
    const { data: m } = await inviteMember({ client: c, path: slug, body: { email: 'ann@example.com', role: 'viewer' } });
    await updateMemberRole({ client: c, path: { ...slug, id: m.id }, body: { role: 'author' } });
    const { data: k } = await createApiKey({ client: c, path: slug, body: { name: 'audit-key', userId: m.userId } });
    await revokeApiKey({ client: c, path: { ...slug, id: k.id } });
    await updateOrg({ client: c, path: slug, body: { plan: 'team', settings: { llm: { providers: { anthropic: { apiKey: 'sk-ant-secret' } } } } } });
    await removeMember({ client: c, path: { ...slug, id: m.id } });
    const { data: org } = await createOrg({ client: c, body: { name: 'Other', slug: `${t.slug}-o` } });

    const { data: entries } = await listAuditEntries({ client: c, query: { limit: 200 } });
    expect(entries.map((e) => e.action)).toEqual([
      'member.removed', 'org.updated', 'api_key.revoked', 'api_key.created', 'member.role_updated', 'member.invited',
      // From the tenant's bootstrap (lemma-server init path).
      'api_key.created', 'org.created',
    ]);
    for (const e of entries.slice(0, 6)) {
      expect(e).toMatchObject({ userId: t.adminUserId, userAgent: UA, ipAddress: expect.stringMatching(/127\.0\.0\.1/) as string });
      expect(Date.parse(e.createdAt)).not.toBeNaN();
    }
    expect(entries[0]).toMatchObject({ resourceType: 'member', resourceId: m.id, details: { email: 'ann@example.com', role: 'author', keysRevoked: 0 } });
    expect(entries[1]?.details).toEqual({ changed: ['plan', 'settings.llm.providers.anthropic.apiKey'], plan: 'team' });
    expect(entries[4]?.details).toMatchObject({ from: 'viewer', to: 'author' });
    expect(JSON.stringify(entries)).not.toContain('sk-ant-secret');
    // The new organization's entries are in its own log.
    const other = server.client(org.apiKey!.key);
    const { data: otherEntries } = await listAuditEntries({ client: other });
    expect(otherEntries.map((e) => e.action)).toEqual(['api_key.created', 'org.created']);
  });

  it('filters by action, resource, user and inclusive dates, newest first, with paging', async () => {
    const t = await server.newTenant('filters');
    const slug = { slug: t.slug };
    // Entries are stamped to the millisecond: keep the bootstrap's entries out of the window.
    await new Promise((r) => setTimeout(r, 5));
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const { data: m1 } = await inviteMember({ client: t.admin, path: slug, body: { email: 'f1@example.com', role: 'viewer' } });
    const { data: m2 } = await inviteMember({ client: t.admin, path: slug, body: { email: 'f2@example.com', role: 'viewer' } });
    await updateMemberRole({ client: t.admin, path: { ...slug, id: m2.id }, body: { role: 'reviewer' } });
    const q = (query: Parameters<typeof listAuditEntries>[0]['query']) => listAuditEntries({ client: t.admin, query });

    const invited = await q({ action: 'member.invited' });
    expect(invited.data.map((e) => e.resourceId)).toEqual([m2.id, m1.id]);
    expect((await q({ resourceType: 'member' })).meta.total).toBe(3);
    expect((await q({ resourceId: m2.id })).data.map((e) => e.action)).toEqual(['member.role_updated', 'member.invited']);
    expect((await q({ userId: t.adminUserId })).meta.total).toBe(5);
    expect((await q({ userId: 'usr_nobody' })).meta.total).toBe(0);
    const window = await q({ startDate: before });
    expect(window.meta.total).toBe(3);
    const last = window.data[0]!;
    // endDate is inclusive: an entry stamped exactly at endDate is in.
    expect((await q({ startDate: last.createdAt, endDate: last.createdAt })).data.map((e) => e.id)).toContain(last.id);
    expect((await q({ endDate: '2000-01-01T00:00:00Z' })).meta.total).toBe(0);
    const page = await q({ limit: 2, offset: 1 });
    expect(page.meta).toEqual({ total: 5, limit: 2, offset: 1 });
    expect(page.data.map((e) => e.action)).toEqual(['member.invited', 'member.invited']);
    const all: string[] = [];
    for await (const e of paginate((p) => q(p), { limit: 2 })) all.push(e.id);
    expect(all).toHaveLength(5);
    expect((await q({})).meta.limit).toBe(50);
    await expectError(q({ limit: 201 }), 400, 'VALIDATION_ERROR', 'limit');
    await expectError(q({ startDate: 'yesterday' }), 400, 'VALIDATION_ERROR', 'startDate');
    await expectError(q({ format: 'xml' as never }), 400, 'VALIDATION_ERROR', 'format');
  });

  it('writes no entry for refused or invalid requests', async () => {
    const t = await server.newTenant('refused');
    const slug = { slug: t.slug };
    const count = async () => (await listAuditEntries({ client: t.admin })).meta.total;
    const start = await count();
    const { data: self } = await listMembers({ client: t.admin, path: slug });
    await expectError(inviteMember({ client: t.admin, path: slug, body: { email: 'bad', role: 'viewer' } }), 400, 'VALIDATION_ERROR');
    await expectError(inviteMember({ client: t.admin, path: slug, body: { email: `admin@${t.slug}.test`, role: 'viewer' } }), 409, 'CONFLICT');
    await expectError(removeMember({ client: t.admin, path: { ...slug, id: self[0]!.id } }), 409, 'CONFLICT');
    await expectError(createOrg({ client: t.admin, body: { name: 'dup', slug: t.slug } }), 409, 'CONFLICT');
    await expectError(createApiKey({ client: t.admin, path: slug, body: { name: 'k', unknown: 1 } as never }), 400, 'VALIDATION_ERROR', 'unknown');
    await expectError(updateOrg({ client: t.admin, path: slug, body: { name: 'x'.repeat(500) } }), 400, 'VALIDATION_ERROR', 'name');
    expect(await count()).toBe(start);
  });

  it('exports CSV (RFC 4180, formula-safe, every row) for admins', async () => {
    const t = await server.newTenant('csv');
    const evil = server.client(t.adminKey, { 'User-Agent': '=HYPERLINK("http://evil.test","x"), with "quotes"' });
    await inviteMember({ client: evil, path: { slug: t.slug }, body: { email: 'csv@example.com', role: 'viewer' } });
    // More rows than one page of the export, appended straight through the repository.
    await server.deps.store.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 1100; i++) {
        await insertAuditEntry(trx, server.deps.store.dialect, { userId: t.adminUserId, ipAddress: null, userAgent: null }, {
          orgId: t.orgId, action: 'org.updated', resourceType: 'organization', resourceId: t.orgId, details: { i },
        });
      }
    });
    const res = await server.fetch('/audit?format=csv', { apiKey: t.adminKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="lemma-audit-csv-.*\.csv"$/);
    const text = await res.text();
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('id,action,userId,resourceType,resourceId,details,ipAddress,userAgent,createdAt');
    expect(lines.at(-1)).toBe('');
    expect(lines.length - 2).toBe(1100 + 3);
    const invited = lines.find((l) => l.includes('member.invited'))!;
    // The formula is neutralised with a leading quote, and the cell is quoted with quotes doubled.
    expect(invited).toContain(`"'=HYPERLINK(""http://evil.test"",""x""), with ""quotes"""`);
    expect(invited).toContain('"{""email"":""csv@example.com"",""role"":""viewer""}"');
    // Filters apply to the export too.
    const filtered = await (await server.fetch('/audit?format=csv&action=member.invited', { apiKey: t.adminKey })).text();
    expect(filtered.split('\r\n').filter(Boolean)).toHaveLength(2);
  });

  it('is append-only in the database: UPDATE and DELETE are refused', async () => {
    const t = await server.newTenant('immutable');
    const { db } = server.deps.store;
    await expect(db.updateTable('audit_log').set({ action: 'forged' }).where('org_id', '=', t.orgId).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('audit_log').where('org_id', '=', t.orgId).execute()).rejects.toThrow(/append-only/);
    if (dialect === 'postgres') await expect(sql`TRUNCATE audit_log`.execute(db)).rejects.toThrow(/append-only/);
    expect((await listAuditEntries({ client: t.admin })).meta.total).toBe(2);
  });

  it('chains entries by hash, and the chain exposes tampering', async () => {
    const t = await server.newTenant('chain');
    for (let i = 0; i < 3; i++) await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: `c${i}@example.com`, role: 'viewer' } });
    expect(await verifyAuditChain(server.deps.store.db, t.orgId)).toEqual({ ok: true, entries: 5 });
    // Tamper as someone with raw database access would: lift the trigger, edit, restore.
    const { db } = server.deps.store;
    await db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') await sql`ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update_delete`.execute(trx);
      else await sql`DROP TRIGGER audit_log_no_update`.execute(trx);
      await trx.updateTable('audit_log').set({ details: '{"email":"someone-else@example.com","role":"admin"}' })
        .where('org_id', '=', t.orgId).where('seq', '=', 4).execute();
      if (dialect === 'postgres') await sql`ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update_delete`.execute(trx);
      else await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only: UPDATE refused'); END`.execute(trx);
    });
    const report = await verifyAuditChain(db, t.orgId);
    expect(report).toMatchObject({ ok: false, brokenAt: { seq: 4, reason: 'content does not match its hash' } });
  });

  it('rolls back the change with its audit entry when the database fails mid-request', async () => {
    const t = await server.newTenant('rollback');
    const { db } = server.deps.store;
    // Make the audit insert of this one invitation fail inside the transaction.
    if (dialect === 'postgres') {
      await sql`CREATE FUNCTION fail_invite() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF NEW.details LIKE '%doomed@example.com%' THEN RAISE EXCEPTION 'simulated failure'; END IF; RETURN NEW; END $$`.execute(db);
      await sql`CREATE TRIGGER fail_invite BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION fail_invite()`.execute(db);
    } else {
      await sql`CREATE TRIGGER fail_invite BEFORE INSERT ON audit_log WHEN NEW.details LIKE '%doomed@example.com%'
        BEGIN SELECT RAISE(ABORT, 'simulated failure'); END`.execute(db);
    }
    try {
      const res = await server.fetch(`/orgs/${t.slug}/members`, {
        method: 'POST', apiKey: t.adminKey, headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'doomed@example.com', role: 'viewer' }),
      });
      expect(res.status).toBe(500);
      const body = await res.text();
      expect(JSON.parse(body)).toMatchObject({ error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } });
      expect(body).not.toMatch(/simulated|audit_log|INSERT|at .*\.js/);
    } finally {
      await sql`DROP TRIGGER fail_invite${sql.raw(dialect === 'postgres' ? ' ON audit_log' : '')}`.execute(db);
      if (dialect === 'postgres') await sql`DROP FUNCTION fail_invite()`.execute(db);
    }
    const members = await db.selectFrom('members').innerJoin('users', 'users.id', 'members.user_id').select('email').where('org_id', '=', t.orgId).execute();
    expect(members.map((m) => m.email)).not.toContain('doomed@example.com');
    expect((await listAuditEntries({ client: t.admin, query: { action: 'member.invited' } })).meta.total).toBe(0);
  });
});
