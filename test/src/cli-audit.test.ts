import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { type AuditEntry, createApiKey, inviteMember, listAuditEntries, paginate, runInference } from '@lemma/sdk';
import { insertAuditEntry, verifyAuditChain } from '@lemma/server';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialect, startTestServer, type Tenant, type TestServer } from './harness.js';

const CLI = fileURLToPath(new URL('../../cli/dist/main.js', import.meta.url));
const BIG = 100_000;

let server: TestServer;
let big: Tenant;
let small: Tenant;
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'lemma-cli-audit-'));
afterAll(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident set size of the CLI process (VmHWM), in bytes; null where /proc is missing. */
  peakRss: number | null;
}

/** Runs the built `lemma` binary (pipes, no terminal), with only these credentials and no config file. */
function lemma(args: string[], opts: { apiKey?: string; baseUrl?: string } = {}): Promise<Run> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LEMMA_')));
  const env = { ...base, NO_COLOR: '1', LEMMA_CONFIG: path.join(tmpRoot, 'no-config.json'), LEMMA_BASE_URL: opts.baseUrl ?? server.url, ...(opts.apiKey ? { LEMMA_API_KEY: opts.apiKey } : {}) };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    let peakRss: number | null = null;
    const status = `/proc/${child.pid}/status`;
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(status, 'utf8'));
        if (m) peakRss = Math.max(peakRss ?? 0, Number(m[1]) * 1024);
      } catch {
        // exited, or no /proc
      }
    }, 20);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      resolve({ status: code, stdout: Buffer.concat(out).toString('utf8'), stderr, peakRss });
    });
  });
}

const sha256 = async (file: string) => {
  const h = createHash('sha256');
  await pipeline(fs.createReadStream(file), h);
  return h.digest('hex');
};

/**
 * The API's CSV, fetched without the CLI and streamed to a file. On a connection of its own
 * (agent: false): a pooled one may have idled past the server's keep-alive timeout meanwhile.
 */
async function apiCsv(t: Tenant, file: string, query = ''): Promise<void> {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get(`${server.url}/api/v1/audit?format=csv${query}`, { agent: false, headers: { authorization: `Bearer ${t.adminKey}` } }, resolve).on('error', reject);
  });
  expect(res.statusCode).toBe(200);
  await pipeline(res, fs.createWriteStream(file));
}

const allEntries = async (t: Tenant, query: Record<string, string> = {}) => {
  const items: AuditEntry[] = [];
  for await (const e of paginate((page) => listAuditEntries({ client: t.admin, query: { ...query, ...page } }), { limit: 200 })) items.push(e);
  return items;
};

const freshDir = (name: string) => fs.mkdtempSync(path.join(tmpRoot, `${name}-`));

/** Mirrors server/src/audit/audit.repository.ts entryHash; verifyAuditChain below proves it does. */
function entryHash(row: Record<string, unknown> & { prev_hash: string }): string {
  const canonical = JSON.stringify([
    row.id, row.org_id, row.seq, row.action, row.user_id, row.resource_type, row.resource_id,
    row.details, row.ip_address, row.user_agent, row.created_at,
  ]);
  return createHash('sha256').update(row.prev_hash).update('\n').update(canonical).digest('hex');
}

/**
 * Appends `n` entries to a tenant's chain straight in the database, in one transaction of
 * multi-row inserts of 1,000: the way the server chains them (seq, prev_hash, hash), far faster
 * than n requests. ~1 KB of details each, with quotes, commas, non-ASCII and formula-like cells.
 */
async function appendEntries(t: Tenant, n: number): Promise<void> {
  const { db } = server.deps.store;
  await db.transaction().execute(async (trx) => {
    const last = await trx.selectFrom('audit_log').select(['seq', 'hash']).where('org_id', '=', t.orgId).orderBy('seq', 'desc').limit(1).executeTakeFirstOrThrow();
    let seq = last.seq;
    let prev = last.hash;
    const started = Date.now();
    const filler = 'Prüfung der Zugriffsrechte, "Vier-Augen-Prinzip" – 😀 ✓ '.repeat(14);
    for (let done = 0; done < n; done += 1000) {
      const rows = [];
      for (let i = done; i < Math.min(n, done + 1000); i++) {
        seq += 1;
        const row = {
          id: `aud_bulk${String(i).padStart(18, '0')}`,
          org_id: t.orgId,
          seq,
          action: i % 3 === 0 ? 'unit.updated' : 'org.updated',
          user_id: i % 10 === 0 ? null : t.adminUserId,
          resource_type: i % 3 === 0 ? 'unit' : 'organization',
          resource_id: i % 3 === 0 ? `unit_${i}` : t.orgId,
          details: JSON.stringify({ i, note: filler, nested: { ok: i % 2 === 0, list: [i, `${i}`] } }),
          ip_address: i % 7 === 0 ? null : `10.0.${(i >> 8) & 255}.${i & 255}`,
          user_agent: i % 1000 === 0 ? '=HYPERLINK("http://evil.test","x")' : 'lemma-bulk/1.0 (test)',
          created_at: new Date(started + Math.floor(i / 1000)).toISOString(),
          prev_hash: prev,
        };
        const hash = entryHash(row);
        rows.push({ ...row, hash });
        prev = hash;
      }
      await trx.insertInto('audit_log').values(rows).execute();
    }
  });
  // As autovacuum would after a bulk load: without fresh statistics Postgres plans the keyset
  // pages of the export and of the chain check as if the table were still empty.
  if (dialect === 'postgres') await sql`ANALYZE audit_log`.execute(db);
}

beforeAll(async () => {
  server = await startTestServer();
  big = await server.newTenant('cliaudit-big');
  small = await server.newTenant('cliaudit-small');
  // 450 entries through the server's own appender (three pages of 200 and a bit), then two invitations.
  await server.deps.store.db.transaction().execute(async (trx) => {
    for (let i = 0; i < 450; i++) {
      await insertAuditEntry(trx, server.deps.store.dialect, { userId: small.adminUserId, ipAddress: '127.0.0.1', userAgent: 'bulk' }, {
        orgId: small.orgId, action: 'org.updated', resourceType: 'organization', resourceId: small.orgId, details: { i, text: 'a,"b"\nc' },
      });
    }
  });
  for (const email of ['ann@example.com', 'bob@example.com']) {
    await inviteMember({ client: small.admin, path: { slug: small.slug }, body: { email, role: 'viewer' } });
  }
});

describe(`lemma audit export [${dialect}]`, () => {
  it(`exports ${BIG.toLocaleString('en-US')}+ entries as CSV byte for byte equal to the API, in constant memory`, async () => {
    const t0 = Date.now();
    await appendEntries(big, BIG);
    const inserted = Date.now();
    expect(await verifyAuditChain(server.deps.store.db, big.orgId)).toEqual({ ok: true, entries: BIG + 2 });
    const verified = Date.now();

    const dir = freshDir('big');
    const viaApi = path.join(dir, 'api.csv');
    const viaCli = path.join(dir, 'audit.csv');
    await apiCsv(big, viaApi);
    const fetched = Date.now();
    const run = await lemma(['audit', 'export', '--format', 'csv', '--out', viaCli], { apiKey: big.adminKey });
    const exported = Date.now();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain(`Exported ${(BIG + 2).toLocaleString('en-US')} audit entries`);
    expect(fs.readdirSync(dir).sort()).toEqual(['api.csv', 'audit.csv']);
    expect(fs.statSync(viaCli).mode & 0o777).toBe(0o600);

    const size = fs.statSync(viaCli).size;
    expect(size).toBe(fs.statSync(viaApi).size);
    expect(await sha256(viaCli)).toBe(await sha256(viaApi));
    // Row for row: the header, then one CRLF-terminated record per entry, newest first.
    let rows = 0;
    let first = '';
    let lastLine = '';
    let pending = '';
    for await (const chunk of fs.createReadStream(viaCli, { encoding: 'utf8' })) {
      const parts = (pending + (chunk as string)).split('\r\n');
      pending = parts.pop()!;
      for (const line of parts) {
        if (rows === 0) first = line;
        else if (rows === 1) expect(line.startsWith(`aud_bulk${String(BIG - 1).padStart(18, '0')},unit.updated,`)).toBe(true);
        lastLine = line;
        rows++;
      }
    }
    expect(pending).toBe('');
    expect(first).toBe('id,action,userId,resourceType,resourceId,details,ipAddress,userAgent,createdAt');
    expect(rows - 1).toBe(BIG + 2);
    expect(lastLine).toMatch(/^aud_\w+,org\.created,/);
    fs.rmSync(viaApi);

    // Constant memory: the export's peak RSS against a `lemma` process that lists one entry.
    const baseline = (await lemma(['audit', 'list', '--limit', '1'], { apiKey: big.adminKey })).peakRss;
    const peak = run.peakRss;
    const mib = (n: number | null) => (n === null ? 'n/a' : `${(n / 2 ** 20).toFixed(1)} MiB`);
    console.log(
      `[${dialect}] CSV export: ${(rows - 1).toLocaleString('en-US')} rows, ${mib(size)}; ` +
        `insert ${inserted - t0} ms, verify ${verified - inserted} ms, API download ${fetched - verified} ms, CLI export ${exported - fetched} ms; ` +
        `CLI peak RSS ${mib(peak)} (a one-entry \`audit list\`: ${mib(baseline)})`,
    );
    expect(size).toBeGreaterThan(100 * 2 ** 20);
    if (peak !== null && baseline !== null) {
      // What the export adds is V8's young generation filling up (a constant: ~25 MiB, ~10 with
      // --max-semi-space-size=1), not the data: a fraction of the file, whatever its size.
      expect(peak - baseline).toBeLessThan(48 * 2 ** 20);
      expect(peak - baseline).toBeLessThan(size / 3);
    }
  }, 240_000);

  it('JSON and JSON Lines exports equal the API pages; --out - writes to stdout; filters apply', async () => {
    const dir = freshDir('json');
    const expected = await allEntries(small);
    expect(expected.length).toBe(454);

    const asJson = path.join(dir, 'audit.json');
    const run = await lemma(['audit', 'export', '--format', 'json', '--out', asJson], { apiKey: small.adminKey });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('Exported 454 audit entries');
    expect(JSON.parse(fs.readFileSync(asJson, 'utf8'))).toEqual(expected);

    const asLines = path.join(dir, 'audit.jsonl');
    const jsonl = await lemma(['audit', 'export', '--format', 'jsonl', '--out', asLines], { apiKey: small.adminKey });
    expect(jsonl.status, jsonl.stderr).toBe(0);
    expect(jsonl.stderr, fs.readdirSync(dir).join(', ')).toContain(`Exported 454 audit entries (`);
    const lines = fs.readFileSync(asLines, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l) as AuditEntry)).toEqual(expected);

    const toStdout = await lemma(['audit', 'export', '--format', 'jsonl', '--out', '-', '--action', 'member.invited'], { apiKey: small.adminKey });
    expect(toStdout.status).toBe(0);
    const invited = toStdout.stdout.trim().split('\n').map((l) => JSON.parse(l) as AuditEntry);
    expect(invited).toEqual(await allEntries(small, { action: 'member.invited' }));
    expect(invited.map((e) => e.details.email)).toEqual(['bob@example.com', 'ann@example.com']);

    const csvToStdout = await lemma(['audit', 'export', '--format', 'csv', '--out', '-'], { apiKey: small.adminKey });
    expect(csvToStdout.status).toBe(0);
    const viaApi = path.join(dir, 'api.csv');
    await apiCsv(small, viaApi);
    expect(csvToStdout.stdout).toBe(fs.readFileSync(viaApi, 'utf8'));

    // Filters map to the API's: CSV with --action/--since equals the API's CSV with the same query.
    const since = expected[1]!.createdAt;
    const filtered = path.join(dir, 'filtered.csv');
    expect((await lemma(['audit', 'export', '--format', 'csv', '--out', filtered, '--action', 'member.invited', '--since', since], { apiKey: small.adminKey })).status).toBe(0);
    await apiCsv(small, viaApi, `&action=member.invited&startDate=${encodeURIComponent(since)}`);
    expect(fs.readFileSync(filtered, 'utf8')).toBe(fs.readFileSync(viaApi, 'utf8'));
    expect(fs.readFileSync(filtered, 'utf8').split('\r\n').filter(Boolean)).toHaveLength(3);

    // Nothing matches: an empty array, still a complete file.
    const none = path.join(dir, 'none.json');
    expect((await lemma(['audit', 'export', '--format', 'json', '--out', none, '--action', 'no.such'], { apiKey: small.adminKey })).status).toBe(0);
    expect(JSON.parse(fs.readFileSync(none, 'utf8'))).toEqual([]);
  });

  it('refuses to replace an existing --out without --force (exit 2), and replaces it with --force', async () => {
    const dir = freshDir('force');
    const out = path.join(dir, 'audit.json');
    fs.writeFileSync(out, 'precious');
    const refused = await lemma(['audit', 'export', '--format', 'json', '--out', out], { apiKey: small.adminKey });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`${out} already exists`);
    expect(refused.stderr).toContain('--force');
    expect(fs.readFileSync(out, 'utf8')).toBe('precious');
    expect(fs.readdirSync(dir)).toEqual(['audit.json']);

    const forced = await lemma(['audit', 'export', '--format', 'json', '--out', out, '--force'], { apiKey: small.adminKey });
    expect(forced.status, forced.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toHaveLength(454);
    expect(fs.readdirSync(dir)).toEqual(['audit.json']);

    // A directory is not a file to write.
    const isDir = await lemma(['audit', 'export', '--format', 'json', '--out', dir, '--force'], { apiKey: small.adminKey });
    expect(isDir.status).toBe(2);
    expect(isDir.stderr).toContain(`cannot write ${dir}: it is a directory`);
  });

  it('an unwritable --out fails with a clear message naming the path and leaves no file', async () => {
    const missing = path.join(tmpRoot, 'no-such-dir', 'audit.csv');
    const run = await lemma(['audit', 'export', '--format', 'csv', '--out', missing], { apiKey: small.adminKey });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`error: cannot write ${missing}: the directory does not exist (ENOENT)`);
    expect(fs.existsSync(path.dirname(missing))).toBe(false);

    // A read-only directory: chmod where permissions apply; as root, a read-only tmpfs if one can be mounted.
    const ro = freshDir('readonly');
    const mounted = process.getuid?.() === 0 && mount(ro, 'ro,size=64k');
    if (!mounted) fs.chmodSync(ro, 0o555);
    try {
      if (mounted || process.getuid?.() !== 0) {
        const out = path.join(ro, 'audit.csv');
        const refused = await lemma(['audit', 'export', '--format', 'csv', '--out', out], { apiKey: small.adminKey });
        expect(refused.status).toBe(1);
        expect(refused.stderr).toMatch(new RegExp(`error: cannot write ${escape(out)}: (permission denied \\(EACCES\\)|the filesystem is read-only \\(EROFS\\))`));
        expect(refused.stderr).toContain(`No file was written to ${out}.`);
        expect(fs.readdirSync(ro)).toEqual([]);
      }
    } finally {
      if (mounted) umount(ro);
      else fs.chmodSync(ro, 0o755);
    }
  });

  it.skipIf(process.getuid?.() !== 0 || process.platform !== 'linux')('a full disk (ENOSPC) mid-export removes the partial file', async (ctx) => {
    const dir = freshDir('full');
    if (!mount(dir, 'size=256k')) return ctx.skip();
    try {
      const out = path.join(dir, 'audit.csv');
      const run = await lemma(['audit', 'export', '--format', 'csv', '--out', out], { apiKey: big.adminKey });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`error: cannot write ${out}: no space left on device (ENOSPC)`);
      expect(run.stderr).toContain(`No file was written to ${out}.`);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      umount(dir);
    }
  });

  it('a server failure mid-download (CSV) or mid-paging (JSON) exits non-zero and leaves no file', async () => {
    // Cuts the CSV download after 16 KiB (before its end); fails the JSON page at offset 200.
    const proxy = await startProxy(async (url, res) => {
      if (url.searchParams.get('offset') !== '200') return false;
      res.writeHead(500, { 'content-type': 'application/json', 'x-request-id': 'req_proxy' });
      res.end(JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'database went away', details: {} } }));
      return true;
    }, 16 * 1024);
    try {
      const dir = freshDir('broken');
      const csv = path.join(dir, 'audit.csv');
      const cut = await lemma(['audit', 'export', '--format', 'csv', '--out', csv], { apiKey: small.adminKey, baseUrl: proxy.url });
      expect(cut.status).toBe(1);
      expect(cut.stderr).toMatch(new RegExp(`error: export to ${escape(csv)} failed: the download broke off after \\d`));
      expect(cut.stderr).toContain(`No file was written to ${csv}.`);
      expect(fs.readdirSync(dir)).toEqual([]);

      const json = path.join(dir, 'audit.json');
      const failed = await lemma(['audit', 'export', '--format', 'json', '--out', json], { apiKey: small.adminKey, baseUrl: proxy.url });
      expect(failed.status).toBe(1);
      expect(failed.stderr).toContain(`error: export to ${json} failed: INTERNAL_ERROR: database went away`);
      expect(failed.stderr).toContain(`No file was written to ${json}.`);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('a JSON export is pinned at its start: entries appended meanwhile neither shift the pages nor appear', async () => {
    const t = await server.newTenant('cliaudit-pinned');
    const append = (count: number, from: number) =>
      server.deps.store.db.transaction().execute(async (trx) => {
        for (let i = from; i < from + count; i++) {
          await insertAuditEntry(trx, server.deps.store.dialect, { userId: t.adminUserId, ipAddress: null, userAgent: null }, {
            orgId: t.orgId, action: 'org.updated', resourceType: 'organization', resourceId: t.orgId, details: { i },
          });
        }
      });
    await append(450, 0);
    const before = await allEntries(t);
    const pages: URLSearchParams[] = [];
    // Once the export has read its first page, five entries are appended.
    const proxy = await startProxy(async (url) => {
      pages.push(url.searchParams);
      if (pages.length === 3) await new Promise((resolve) => setTimeout(resolve, 5)).then(() => append(5, 1000));
      return false;
    });
    try {
      const out = path.join(freshDir('pinned'), 'audit.jsonl');
      const run = await lemma(['audit', 'export', '--format', 'jsonl', '--out', out], { apiKey: t.adminKey, baseUrl: proxy.url });
      expect(run.status, run.stderr).toBe(0);
      const lines = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as AuditEntry);
      expect(lines).toEqual(before);
      // The head (limit 1), then every page with endDate = the newest entry's createdAt.
      expect(pages.map((p) => [p.get('limit'), p.get('offset'), p.get('endDate')])).toEqual([
        ['1', '0', null], ['200', '0', before[0]!.createdAt], ['200', '200', before[0]!.createdAt], ['200', '400', before[0]!.createdAt],
      ]);
      expect((await allEntries(t)).length).toBe(before.length + 5);
    } finally {
      await proxy.close();
    }

    // Should the matching set still move (here: a total that changes between pages), the export fails.
    const liar = await startProxy(async (url, res) => {
      if (url.searchParams.get('offset') !== '200') return false;
      const page = await listAuditEntries({ client: t.admin, query: Object.fromEntries(url.searchParams) as never });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...page, meta: { ...page.meta, total: page.meta.total + 1 } }));
      return true;
    });
    try {
      const dir = freshDir('moved');
      const out = path.join(dir, 'audit.json');
      const run = await lemma(['audit', 'export', '--format', 'json', '--out', out], { apiKey: t.adminKey, baseUrl: liar.url });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`error: the audit log changed during the export (${before.length + 5} matching entries at the start, ${before.length + 6} now)`);
      expect(run.stderr).toContain(`No file was written to ${out}.`);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      await liar.close();
    }
  });

  it('CSV needs the admin role: a viewer gets exit 1 and no file', async () => {
    const { data: key } = await createApiKey({ client: small.admin, path: { slug: small.slug }, body: { name: 'viewer-key', role: 'viewer' } });
    const dir = freshDir('viewer');
    const out = path.join(dir, 'audit.csv');
    const run = await lemma(['audit', 'export', '--format', 'csv', '--out', out], { apiKey: key.key });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`error: export to ${out} failed: FORBIDDEN: CSV export needs the admin role`);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe(`lemma audit list / inference / verify [${dialect}]`, () => {
  it('lists entries newest first with filters, as a table or --json', async () => {
    const page = await lemma(['audit', 'list', '--limit', '3'], { apiKey: small.adminKey });
    expect(page.status).toBe(0);
    const lines = page.stdout.split('\n');
    expect(lines.find((l) => l.includes('createdAt'))).toMatch(/createdAt.*action.*user.*resource.*details/);
    expect(page.stdout).toContain('member.invited');
    expect(page.stdout).toContain('{"email":"bob@example.com"');
    expect(page.stderr).toContain(`Entries 1–3 of ${(await allEntries(small)).length}:`);

    const invited = await lemma(['audit', 'list', '--action', 'member.invited', '--json'], { apiKey: small.adminKey });
    expect(JSON.parse(invited.stdout)).toEqual(await allEntries(small, { action: 'member.invited' }));

    const all = await lemma(['audit', 'list', '--all', '--json', '--resource-type', 'organization', '--user', small.adminUserId], { apiKey: small.adminKey });
    const expected = await allEntries(small, { resourceType: 'organization', userId: small.adminUserId });
    expect(expected.length).toBeGreaterThan(450);
    expect(JSON.parse(all.stdout)).toEqual(expected);

    const offset = await lemma(['audit', 'list', '--json', '--limit', '5', '--offset', '2'], { apiKey: small.adminKey });
    expect(JSON.parse(offset.stdout)).toEqual((await allEntries(small)).slice(2, 7));

    const future = await lemma(['audit', 'list', '--since', '2999-01-01'], { apiKey: small.adminKey });
    expect(future.status).toBe(0);
    expect(future.stdout).toContain('(none)');
    const untilBootstrap = await lemma(['audit', 'list', '--json', '--until', (await allEntries(small)).at(-2)!.createdAt, '--action', 'api_key.created'], { apiKey: small.adminKey });
    expect((JSON.parse(untilBootstrap.stdout) as AuditEntry[]).map((e) => e.action)).toEqual(['api_key.created']);

    const bad = await lemma(['audit', 'list', '--since', 'yesterday'], { apiKey: small.adminKey });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('ISO 8601');
    expect((await lemma(['audit', 'list', '--limit', '500'], { apiKey: small.adminKey })).status).toBe(2);
    expect((await lemma(['audit', 'list'])).status).toBe(3);
  });

  it('lists the inference log after a question', async () => {
    const marker = `cliaudit${Date.now()}`;
    const { data: answer } = await runInference({ client: small.admin, body: { query: `How many vacation days in ${marker}?` } });
    const json = await lemma(['audit', 'inference', '--json'], { apiKey: small.adminKey });
    expect(json.status).toBe(0);
    const entries = JSON.parse(json.stdout) as { id: string; query: string | null; userId: string }[];
    const entry = entries.find((e) => e.id === answer.inferenceLogId);
    expect(entry).toMatchObject({ userId: small.adminUserId });
    expect(entry!.query).toContain(marker);

    const table = await lemma(['audit', 'inference', '--user', small.adminUserId], { apiKey: small.adminKey });
    expect(table.status).toBe(0);
    expect(table.stdout).toContain(answer.inferenceLogId);
    expect(table.stdout).toContain(marker);
    const none = await lemma(['audit', 'inference', '--until', '2000-01-01'], { apiKey: small.adminKey });
    expect(none.stdout).toContain('(none)');
  });

  it('verify is not available through the API: exit 2, naming the server command', async () => {
    const run = await lemma(['audit', 'verify'], { apiKey: small.adminKey });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('lemma-server audit verify --org <slug>');
  });
});

/**
 * An HTTP proxy in front of the test server. `intercept` may answer a request itself (true);
 * `cutCsvAfter` drops the connection once that many bytes of a CSV download went through.
 */
async function startProxy(
  intercept: (url: URL, res: http.ServerResponse) => Promise<boolean>, cutCsvAfter?: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const proxy = http.createServer((req, res) => {
    const url = new URL(req.url!, server.url);
    void intercept(url, res).then((handled) => {
      if (handled) return;
      const upstream = http.request(url, { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode!, up.headers);
        let sent = 0;
        const cut = cutCsvAfter !== undefined && url.searchParams.get('format') === 'csv' ? cutCsvAfter : Infinity;
        up.on('data', (chunk: Buffer) => {
          if (sent + chunk.length <= cut) {
            sent += chunk.length;
            return res.write(chunk);
          }
          // The first `cut` bytes reach the client; a moment later the connection drops.
          res.write(chunk.subarray(0, cut - sent));
          sent = cut;
          up.destroy();
          setTimeout(() => res.socket?.destroy(), 100);
        });
        up.on('end', () => res.end());
      });
      upstream.on('error', () => res.socket?.destroy());
      req.pipe(upstream);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => proxy.close(() => resolve())),
  };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function mount(dir: string, options: string): boolean {
  return spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'ignore' }).status === 0;
}

function umount(dir: string): void {
  spawnSync('umount', [dir], { stdio: 'ignore' });
}
