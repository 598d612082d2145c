import { createApiKey, inviteMember, listMembers, listOrgs, createLemmaClient } from '@lemma/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './expect-error.js';
import { contractCheckingFetch } from './contract-check.js';
import { dialect, freshDatabase, startTestServer, type TestServer } from './harness.js';
import { runServerCommand, spawnServer, type ServerProcess } from './processes.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LEMMA_RATE_LIMIT_READ: '4', LEMMA_RATE_LIMIT_WRITE: '2', LEMMA_RATE_LIMIT_WINDOW_S: '60' });
});

describe(`rate limits [${dialect}]`, () => {
  it('reports the budget on every response and answers 429 with Retry-After when it is spent', async () => {
    const t = await server.newTenant('rl');
    const remaining: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await server.fetch(`/orgs/${t.slug}/members`, { apiKey: t.adminKey });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('4');
      remaining.push(res.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['3', '2', '1', '0']);
    const res = await server.fetch(`/orgs/${t.slug}/members`, { apiKey: t.adminKey });
    expect(res.status).toBe(429);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await res.json()).toMatchObject({ error: { code: 'RATE_LIMITED', details: { retryAfterSeconds: retryAfter } } });
    // Through the SDK the same refusal is a LemmaError carrying Retry-After.
    const err = await expectError(listOrgs({ client: t.admin }), 429, 'RATE_LIMITED');
    expect(err.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('counts writes apart from reads, and each key apart from the others', async () => {
    const t = await server.newTenant('rlw');
    // The bootstrap key spends its writes…
    const { data: k } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'second', role: 'admin' } });
    await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: 'w1@example.com', role: 'viewer' } });
    await expectError(inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: 'w2@example.com', role: 'viewer' } }), 429, 'RATE_LIMITED');
    // …but may still read, and another key has its own budget.
    await listMembers({ client: t.admin, path: { slug: t.slug } });
    const second = server.client(k.key);
    await inviteMember({ client: second, path: { slug: t.slug }, body: { email: 'w2@example.com', role: 'viewer' } });
    // The refused write changed nothing.
    const { meta } = await listMembers({ client: second, path: { slug: t.slug } });
    expect(meta.total).toBe(3);
  });

  it('limits unauthenticated callers by address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await server.fetch('/orgs')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });
});

describe.runIf(dialect === 'postgres')('rate limits across server processes [postgres]', () => {
  const procs: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
  });

  it('two processes on one Postgres share one budget per key', async () => {
    const db = await freshDatabase();
    try {
      const env = { ...db.env, LEMMA_RATE_LIMIT_READ: '6', LEMMA_ENCRYPTION_KEY: 'a'.repeat(64) };
      const init = runServerCommand(['init', '--org', 'shared', '--org-name', 'Shared', '--email', 'ops@shared.test', '--json'], env);
      expect(init.status, init.stderr).toBe(0);
      const { apiKey } = JSON.parse(init.stdout) as { apiKey: string };
      procs.push(await spawnServer([], env), await spawnServer([], env));
      const [a, b] = procs.map((p) => createLemmaClient({ baseUrl: p.url, apiKey, fetch: contractCheckingFetch() }));
      // Alternate between the processes: 6 reads in all are allowed, the 7th is refused by either.
      for (let i = 0; i < 3; i++) {
        await listOrgs({ client: a! });
        await listOrgs({ client: b! });
      }
      await expectError(listOrgs({ client: a! }), 429, 'RATE_LIMITED');
      await expectError(listOrgs({ client: b! }), 429, 'RATE_LIMITED');
    } finally {
      await Promise.all(procs.splice(0).map((p) => p.stop()));
      await db.drop();
    }
  });
});
