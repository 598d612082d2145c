import fs from 'node:fs';
import path from 'node:path';
import { createLemmaClient, listDomains, listMembers, listOrgs, listUnits } from '@lemma/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractCheckingFetch } from './contract-check.js';
import { dialect, freshDatabase, type TestDatabase } from './harness.js';
import { runServerCommand, spawnServer } from './processes.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db.drop());

describe(`lemma-server commands [${dialect}]`, () => {
  it('migrate runs the migrations, and again finds nothing to do', () => {
    const first = runServerCommand(['migrate'], db.env);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/Applied: .*governance/);
    const second = runServerCommand(['migrate'], db.env);
    expect(second.stdout).toMatch(/up to date/);
  });

  it('init creates the organization, its admin and a key printed once; a taken slug fails', async () => {
    const out = runServerCommand(['init', '--org', 'acme', '--org-name', 'Acme', '--email', 'Root@Acme.test', '--json'], db.env);
    expect(out.status, out.stderr).toBe(0);
    const created = JSON.parse(out.stdout) as { org: { id: string; slug: string }; user: { id: string; email: string }; apiKey: string };
    expect(created).toMatchObject({ org: { slug: 'acme' }, user: { email: 'root@acme.test' } });
    expect(created.apiKey).toMatch(/^lemma_pk_[0-9a-f]{32}$/);

    const again = runServerCommand(['init', '--org', 'acme', '--org-name', 'Acme', '--email', 'x@acme.test'], db.env);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/slug exists/);
    const bad = runServerCommand(['init', '--org', 'Bad Slug', '--org-name', 'x', '--email', 'x@acme.test'], db.env);
    expect(bad.status).toBe(1);

    const verify = runServerCommand(['audit', 'verify', '--org', 'acme'], db.env);
    expect(verify.status, verify.stderr).toBe(0);
    expect(JSON.parse(verify.stdout)).toEqual({ ok: true, entries: 2 });

    // The key works against a started server, which stops cleanly on SIGTERM.
    const proc = await spawnServer([], db.env);
    const client = createLemmaClient({ baseUrl: proc.url, apiKey: created.apiKey, fetch: contractCheckingFetch() });
    const { data } = await listMembers({ client, path: { slug: 'acme' } });
    expect(data.map((m) => [m.email, m.role])).toEqual([['root@acme.test', 'admin']]);
    expect(await proc.stop('SIGTERM')).toBe(0);
  });

  it('start --demo bootstraps an empty database once, writing the admin key with mode 0600', async () => {
    const fresh = await freshDatabase();
    try {
      const proc = await spawnServer(['--demo'], fresh.env);
      const keyFile = path.join(fresh.env.LEMMA_DATA_DIR!, 'admin-key.txt');
      const key = fs.readFileSync(keyFile, 'utf8').trim();
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(proc.output()).toContain(key);
      const client = createLemmaClient({ baseUrl: proc.url, apiKey: key, fetch: contractCheckingFetch() });
      const { data } = await listOrgs({ client });
      expect(data.map((o) => o.slug)).toEqual(['demo']);
      // One domain per template, its example units verified by a reviewer other than their author.
      const domains = await listDomains({ client });
      expect(domains.data.map((d) => d.name).sort()).toEqual(['Finance', 'HR', 'Healthcare', 'Insurance', 'Legal', 'Tax']);
      const all = await listUnits({ client, query: { limit: 200 } });
      expect(all.meta.total).toBe(domains.data.reduce((n, d) => n + d.unitCount, 0));
      expect(all.data.every((u) => u.status === 'verified' && u.reviews.every((r) => r.reviewerId !== u.authorId))).toBe(true);
      expect(await proc.stop()).toBe(0);
      // A second start finds the organization and prints no key.
      const again = await spawnServer(['--demo'], fresh.env);
      expect(again.output()).not.toContain('lemma_pk_');
      expect(await again.stop()).toBe(0);
    } finally {
      await fresh.drop();
    }
  });

  it('refuses a bad configuration with a clear message', () => {
    const out = runServerCommand(['migrate'], { ...db.env, DATABASE_URL: 'mysql://nope' });
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/DATABASE_URL must start with postgres:\/\/ or sqlite:/);
  });
});
