#!/usr/bin/env node
// Benchmark (not a timed test): latency of the full stack's `GET /api/v1/units` with filters on
// SQLite when one organization holds 10,000 and 100,000 units: p50/p99 per filter combination and
// size, and the ratio p50(largest)/p50(smallest) against the target < 1.5x (a list served from
// indexes stays flat; one that scans grows with the table). One run prints everything; see
// docs/PERFORMANCE.md ("Units list at 10k and 100k units").
//
//   node test/scripts/bench-units.mjs [--sizes 10000,100000] [--requests 300] [--warmup 50]
//                                     [--seed 1] [--sql-reps 30] [--no-sql] [--keep <dir>]
//                                     [--apply-sql "<statement>"]... [--server-main <path/to/main.js>]
//
// How: a temp data dir, `lemma-server init` (org + admin key; migrates), the server started once
// to create 20 domains and one small, valid unit per unit type through the API (the server
// validates them and runs their examples). Those five rows, as the server wrote them, are the
// templates of the seeded rows and are then deleted. Units are seeded straight into the SQLite
// file (better-sqlite3, one transaction, one prepared INSERT over the table's own columns) from
// a seeded PRNG: 20 domains (skewed), 5 types, statuses verified 30 % / candidate 40 % /
// in_review 20 % / partial_verified 10 %, 11 jurisdictions (US and 5 states, 5 others) + 20 %
// none, created_at increasing.
// Each larger size is a copy of the smaller file with the same generator continued, so the
// smaller set is a prefix of the larger one and both have the same distribution. Then one server
// per size (child processes on 127.0.0.1), each answer checked (status, meta.total against the
// generator's own count, page length, newest-first order), and for every filter combination
// sequential requests (one keep-alive connection, one request in flight) alternating between the
// sizes, so that both sizes see the same machine noise.
//
// --requests: measured requests per combination and size (after --warmup ones).
// --no-sql: skip the in-process part (the exact SQL the server runs for each combination, captured
//   by running the server's own `listUnits` from server/dist over a logging Kysely, its EXPLAIN
//   QUERY PLAN and the median time of each statement over --sql-reps runs, per size).
// --apply-sql: SQL run on every size's database after seeding, before the servers start (repeat
//   the flag for several statements), e.g. to measure an index before proposing it.
// --server-main: another build of the server, e.g. an older commit's server/dist/main.js.
// --keep <dir>: copy the seeded databases there (units-<size>.db) before the temp dir goes, to
//   try queries or indexes on them by hand.
//
// Only 127.0.0.1; the servers are child processes stopped (and the temp dir removed) at the end,
// on failure and on Ctrl-C.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';

const here = path.dirname(fileURLToPath(import.meta.url));
let SERVER_MAIN = path.resolve(here, '../../server/dist/main.js');
const HOST = '127.0.0.1';
const SLUG = 'bench';
const TARGET_RATIO = 1.5;

const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    requests: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '50' },
    seed: { type: 'string', default: '1' },
    'sql-reps': { type: 'string', default: '30' },
    'no-sql': { type: 'boolean', default: false },
    'apply-sql': { type: 'string', multiple: true, default: [] },
    'server-main': { type: 'string' },
    keep: { type: 'string' },
  },
});
if (opts['server-main']) SERVER_MAIN = path.resolve(opts['server-main']);
const SIZES = opts.sizes.split(',').map((s) => Number(s.trim()));
const REQUESTS = Number(opts.requests);
const WARMUP = Number(opts.warmup);
const SEED = Number(opts.seed);
const SQL_REPS = Number(opts['sql-reps']);
const APPLY_SQL = opts['apply-sql'];

if (!SIZES.length || SIZES.some((n) => !Number.isInteger(n) || n < 1) || SIZES.some((n, i) => i > 0 && n <= SIZES[i - 1])) {
  usage(`--sizes must be increasing positive integers, got "${opts.sizes}"`);
}
for (const [name, n] of [['requests', REQUESTS], ['warmup', WARMUP], ['seed', SEED], ['sql-reps', SQL_REPS]]) {
  if (!Number.isInteger(n) || n < (name === 'warmup' ? 0 : 1)) usage(`--${name} must be a ${name === 'warmup' ? 'non-negative' : 'positive'} integer`);
}
if (!fs.existsSync(SERVER_MAIN)) usage(`${SERVER_MAIN} is missing: build the server first (npx turbo run build)`);
const SERVER_DIST = path.dirname(SERVER_MAIN);

// --- what is seeded ---------------------------------------------------------------------------

const STATUSES = [['verified', 30], ['candidate', 40], ['in_review', 20], ['partial_verified', 10]];
const UNIT_TYPES = [['program', 40], ['framework', 20], ['pattern', 15], ['argument', 10], ['protocol', 15]];
// Non-null jurisdictions; 20 % of units have none (they apply everywhere). Federal (US) units
// apply in every state: a jurisdiction=US-CA filter also returns them.
const JURISDICTIONS = [['US', 10], ['US-CA', 18], ['US-NY', 12], ['US-TX', 11], ['US-FL', 7], ['US-WA', 5], ['GB', 11], ['DE', 9], ['FR', 7], ['CA-ON', 5], ['AU-NSW', 5]];
const NO_JURISDICTION = 0.2;
const DOMAIN_NAMES = [
  'Human Resources', 'Payroll', 'Benefits', 'Income Tax', 'Sales Tax', 'Mortgage Lending', 'Consumer Credit', 'Anti-Money Laundering',
  'Claims', 'Underwriting', 'Privacy', 'Employment Law', 'Contracts', 'Clinical Dosing', 'Patient Consent', 'Procurement',
  'Travel and Expenses', 'Information Security', 'Export Control', 'Facilities',
];
// Domain sizes fall off like 1/(rank+1)^0.8 (the first holds ~12 % of the units, the last ~2 %).
const DOMAIN_WEIGHTS = DOMAIN_NAMES.map((_, i) => 1 / (i + 1) ** 0.8);
const START_MS = Date.parse('2024-01-01T00:00:00.000Z');

// Small, valid units, one per type (program and framework as in test/src/units.test.ts).
const TEMPLATE_UNITS = {
  program: {
    name: 'Vacation accrual',
    description: 'Annual vacation days by years of service.',
    given: 'An employee with a known length of service.',
    when: 'The employee asks how many vacation days they accrue.',
    then: 'The employee accrues {{vacation_days}} vacation days per year.',
    inputSchema: { type: 'object', properties: { years_of_service: { type: 'number', 'x-aliases': ['tenure'] } }, required: ['years_of_service'] },
    outputSchema: { type: 'object', properties: { vacation_days: { type: 'integer' } } },
    jurisdiction: 'US-CA',
    definition: {
      steps: [
        { id: 'base', set: 'vacation_days', expr: '10' },
        { id: 'senior', if: 'years_of_service >= 5', set: 'vacation_days', expr: '15' },
        { id: 'veteran', if: 'years_of_service >= 10', set: 'vacation_days', expr: '20' },
      ],
    },
    examples: [
      { name: 'twelve years', inputs: { years_of_service: 12 }, expected: { vacation_days: 20 } },
      { name: 'new hire', inputs: { years_of_service: 0 }, expected: { vacation_days: 10 } },
    ],
  },
  framework: {
    name: 'Credit risk',
    description: 'Screens a consumer loan application.',
    inputSchema: { type: 'object', properties: { credit_score: { type: 'integer' }, dti: { type: 'number' } }, required: ['credit_score', 'dti'] },
    outputSchema: { type: 'object', properties: { passed: { type: 'boolean' } } },
    definition: {
      elements: [
        { id: 'good_score', label: 'Credit score of 680 or more', weight: 2, when: 'credit_score >= 680' },
        { id: 'low_dti', label: 'Debt-to-income under 0.4', weight: 1, when: 'dti < 0.4' },
      ],
      threshold: 2,
      outcomes: { pass: 'Low risk.', fail: 'High risk.' },
    },
    examples: [{ name: 'good borrower', inputs: { credit_score: 720, dti: 0.3 }, expected: { passed: true } }],
  },
  pattern: {
    name: 'Overtime owed',
    description: 'Overtime for non-exempt employees over 40 hours a week.',
    inputSchema: { type: 'object', properties: { hours: { type: 'number' }, exempt: { type: 'boolean' } }, required: ['hours'] },
    outputSchema: { type: 'object', properties: { fires: { type: 'boolean' } } },
    definition: {
      elements: [
        { id: 'over', kind: 'condition', when: 'hours > 40' },
        { id: 'ot', kind: 'conclusion', text: 'Overtime is owed for {{hours}} hours.' },
      ],
    },
    examples: [{ name: 'long week', inputs: { hours: 45 }, expected: { fires: true } }],
  },
  argument: {
    name: 'Overtime claim',
    description: 'Whether an overtime claim stands.',
    inputSchema: { type: 'object', properties: { hours: { type: 'number' }, exempt: { type: 'boolean' } }, required: ['hours', 'exempt'] },
    definition: {
      elements: [
        { id: 'p1', kind: 'premise', text: 'Worked {{hours}} hours.', when: 'hours > 40' },
        { id: 'p2', kind: 'premise', text: 'The wage law applies.' },
        { id: 'r1', kind: 'rebuttal', text: 'The employee is exempt.', when: 'exempt' },
        { id: 'c', kind: 'conclusion', text: 'Overtime is owed.' },
      ],
    },
  },
  protocol: {
    name: 'Separation agreement',
    description: 'Steps to obtain consent to a separation agreement.',
    then: 'Done ({{consent}}).',
    inputSchema: { type: 'object', properties: { employee: { type: 'string' } }, required: ['employee'] },
    outputSchema: { type: 'object', properties: { consent: { type: 'string' } } },
    definition: {
      steps: [
        { id: 'notify', text: 'Notify {{employee}}.' },
        { id: 'ask', gate: { name: 'consent', question: 'Does {{employee}} consent?', options: ['yes', 'no'] } },
        { id: 'after', if: 'consent == "yes"', text: 'Consent ({{consent}}) recorded.' },
      ],
    },
    examples: [{ name: 'yes', inputs: { employee: 'Ann', consent: 'yes' }, expected: { texts: ['Notify Ann.', 'Consent (yes) recorded.', 'Done (yes).'] } }],
  },
};

/**
 * The filter combinations measured. `domain` is an index into the created domains (0: the
 * largest); `match` re-implements the filter on a generated row, to check meta.total.
 */
const COMBINATIONS = [
  { name: 'no filter', query: {} },
  { name: 'status=verified', query: { status: 'verified' } },
  { name: 'unitType=framework&domainId=D', query: { unitType: 'framework', domain: 0 } },
  { name: 'status=candidate&jurisdiction=US-CA', query: { status: 'candidate', jurisdiction: 'US-CA' } },
  { name: 'domainId=D&status=verified&unitType=program', query: { domain: 0, status: 'verified', unitType: 'program' } },
  { name: 'offset=1000 (deep page)', query: { offset: 1000 } },
];
const LIMIT = 20; // the server's default

// --- run ----------------------------------------------------------------------------------------

const loadBefore = os.loadavg();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lemma-bench-units-'));
const children = new Set();
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
let cleaning;

/** Once; every caller waits for the same clean-up (a signal's and the failure it causes). */
function cleanup() {
  cleaning ??= (async () => {
    agent.destroy();
    await Promise.all([...children].map((c) => stop(c)));
    fs.rmSync(tmp, { recursive: true, force: true });
  })();
  return cleaning;
}
let interrupted; // the exit code once a signal has arrived: what then fails is its consequence
process.on('SIGINT', () => interrupt(130));
process.on('SIGTERM', () => interrupt(143));
function interrupt(code) {
  interrupted ??= code;
  cleanup().finally(() => process.exit(interrupted));
}

try {
  await main();
  await cleanup();
} catch (err) {
  await cleanup();
  if (interrupted) process.exit(interrupted);
  process.stderr.write(`\nbench-units: FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

async function main() {
  const { slugOf } = await import(pathToFileURL(path.join(SERVER_DIST, 'shared/slugs.js')).href);
  // The jurisdictions a filter matches besides "none", as the server under test has them (older
  // builds matched the code alone).
  const jurisdictionsFile = path.join(SERVER_DIST, 'shared/jurisdictions.js');
  const applicable = fs.existsSync(jurisdictionsFile)
    ? (await import(pathToFileURL(jurisdictionsFile).href)).applicableJurisdictions
    : (code) => [code];
  const baseEnv = {
    ...process.env,
    HOST,
    LOG_LEVEL: 'warn',
    // Far above what a run can send: the limiter still counts every request, never refuses one.
    LEMMA_RATE_LIMIT_READ: '100000000',
    LEMMA_RATE_LIMIT_WRITE: '100000000',
  };
  const dirOf = (size) => path.join(tmp, `units-${size}`);
  const dbOf = (size) => path.join(dirOf(size), 'lemma.db');
  const envOf = (size) => ({ ...baseEnv, LEMMA_DATA_DIR: dirOf(size), DATABASE_URL: `sqlite:${dbOf(size)}` });

  // The organization, its domains and the five template units, in the smallest size's database.
  const first = SIZES[0];
  fs.mkdirSync(dirOf(first));
  const init = JSON.parse(
    execFileSync(process.execPath, [SERVER_MAIN, 'init', '--org', SLUG, '--org-name', 'Bench', '--email', 'admin@bench.test', '--json'], {
      env: envOf(first),
      encoding: 'utf8',
    }),
  );
  const auth = { authorization: `Bearer ${init.apiKey}` };
  process.stderr.write(`setup: 20 domains and 5 template units through the API\n`);
  const setup = await startServer('setup', envOf(first));
  const domainIds = [];
  for (const [i, name] of DOMAIN_NAMES.entries()) {
    const body = { name, ...(i % 3 === 0 ? { jurisdiction: JURISDICTIONS[i % JURISDICTIONS.length][0] } : {}) };
    domainIds.push((await postJson(setup.url, '/api/v1/domains', auth, body)).id);
  }
  const templateIds = {};
  for (const [unitType, unit] of Object.entries(TEMPLATE_UNITS)) {
    templateIds[unitType] = (await postJson(setup.url, '/api/v1/units', auth, { ...unit, unitType, domainId: domainIds[0] })).id;
  }
  await stop(setup.child);

  // Seed: the smallest size, then each larger one as a copy extended by the same generator.
  const gen = generator(SEED, domainIds);
  const expected = []; // per size: meta.total expected for each combination
  const counts = COMBINATIONS.map(() => 0);
  let templates;
  for (const [i, size] of SIZES.entries()) {
    if (i > 0) {
      fs.mkdirSync(dirOf(size));
      fs.copyFileSync(dbOf(SIZES[i - 1]), dbOf(size)); // closed, so checkpointed: no -wal file
    }
    const t0 = performance.now();
    const db = new Database(dbOf(size));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    if (i === 0) {
      templates = takeTemplates(db, init.org.id, templateIds);
      // The server's slugOf (slugify) costs ~0.7 ms a call: for these ASCII names it is the
      // template's slug plus `-n`, checked here once per type.
      for (const t of Object.values(templates)) {
        t.slugBase = slugOf(t.name, 'unit');
        if (slugOf(`${t.name} 12345`, 'unit') !== `${t.slugBase}-12345`) fail(`unexpected slug for "${t.name} 12345"`);
      }
    }
    const columns = db.prepare('select name from pragma_table_info(?)').pluck().all('units');
    const insert = db.prepare(`insert into units (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`);
    const from = i === 0 ? 0 : SIZES[i - 1];
    db.transaction(() => {
      for (let n = from; n < size; n++) {
        const u = gen.next();
        const { slugBase, ...template } = templates[u.unitType];
        const row = {
          ...template,
          id: u.id,
          org_id: init.org.id,
          name: `${template.name} ${n + 1}`,
          slug: `${slugBase}-${n + 1}`,
          domain_id: u.domainId,
          jurisdiction: u.jurisdiction,
          status: u.status,
          version: u.version,
          verification_score: u.status === 'verified' ? 1 : u.status === 'partial_verified' ? 0.5 : 0,
          approval_rate: u.status === 'verified' ? 1 : u.status === 'partial_verified' ? 0.6 : 0,
          author_id: init.user.id,
          reviewers: '[]',
          created_at: u.createdAt,
          updated_at: u.updatedAt,
        };
        insert.run(row);
        for (const [c, combo] of COMBINATIONS.entries()) if (matches(combo.query, row, domainIds, applicable)) counts[c]++;
      }
    })();
    const stored = db.prepare('select count(*) from units where org_id = ?').pluck().get(init.org.id);
    if (stored !== size) fail(`${dbOf(size)}: ${stored} units stored, expected ${size}`);
    db.close();
    expected.push([...counts]);
    const mb = fs.statSync(dbOf(size)).size / 2 ** 20;
    process.stderr.write(`seeded ${fmt(size)} units in ${((performance.now() - t0) / 1000).toFixed(1)} s (database ${mb.toFixed(0)} MiB)\n`);
  }

  // Only once every size is seeded: each larger size starts as a copy of the smaller one.
  for (const size of APPLY_SQL.length ? SIZES : []) {
    const db = new Database(dbOf(size));
    for (const sql of APPLY_SQL) db.exec(sql);
    db.close();
  }

  // One server per size, each answer checked before anything is measured.
  const servers = [];
  for (const size of SIZES) servers.push({ size, ...(await startServer(`units-${size}`, envOf(size))) });
  const targets = COMBINATIONS.map((combo, c) => {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(combo.query)) {
      if (k === 'domain') query.set('domainId', domainIds[v]);
      else query.set(k, String(v));
    }
    return { combo, path: `/api/v1/units${query.size ? `?${query}` : ''}`, totals: SIZES.map((_, s) => expected[s][c]) };
  });
  for (const target of targets) {
    for (const [s, server] of servers.entries()) await verify(server, target, auth, target.totals[s]);
  }

  // Sequential requests, alternating between the sizes (and which size goes first).
  const results = [];
  for (const target of targets) {
    process.stderr.write(`measuring ${target.combo.name}: ${WARMUP} warm-up + ${REQUESTS} requests per size\n`);
    const samples = servers.map(() => []);
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      const order = i % 2 === 0 ? servers.keys() : [...servers.keys()].reverse();
      for (const s of order) {
        const ms = await timedGet(servers[s].url + target.path, auth);
        if (i >= WARMUP) samples[s].push(ms);
      }
    }
    results.push({ target, stats: samples.map((xs) => ({ p50: percentile(xs, 50), p99: percentile(xs, 99) })) });
  }
  await Promise.all(servers.map((s) => stop(s.child)));
  if (opts.keep) {
    fs.mkdirSync(opts.keep, { recursive: true });
    for (const size of SIZES) fs.copyFileSync(dbOf(size), path.join(opts.keep, `units-${size}.db`)); // servers stopped: checkpointed
  }

  const sqlReport = opts['no-sql'] ? '' : await explainSql(dbOf, init.org.id, domainIds);
  report(results, sqlReport);
}

// --- seeding ------------------------------------------------------------------------------------

/** The five API-created units' rows (content columns as the server wrote them), then deleted. */
function takeTemplates(db, orgId, templateIds) {
  const templates = {};
  for (const [unitType, id] of Object.entries(templateIds)) {
    const row = db.prepare('select * from units where org_id = ? and id = ?').get(orgId, id);
    if (!row) fail(`template unit ${id} not found in the database`);
    const results = JSON.parse(row.example_results);
    if (results.failing) fail(`the ${unitType} template's examples fail: ${row.example_results}`);
    templates[unitType] = row;
  }
  const reviews = db.prepare(`select count(*) from unit_reviews where unit_id in (${Object.values(templateIds).map(() => '?').join(', ')})`).pluck().get(...Object.values(templateIds));
  if (reviews) fail('template units unexpectedly have reviews');
  const del = db.prepare('delete from units where id = ?');
  for (const id of Object.values(templateIds)) del.run(id);
  return templates;
}

/** An endless, deterministic sequence of generated units (see the header for the distribution). */
function generator(seed, domainIds) {
  const rand = mulberry32(seed);
  const pick = (entries) => {
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = rand() * total;
    for (const [value, w] of entries) if ((r -= w) < 0) return value;
    return entries[entries.length - 1][0];
  };
  const domains = domainIds.map((id, i) => [id, DOMAIN_WEIGHTS[i]]);
  let ms = START_MS;
  return {
    next() {
      ms += 1 + Math.floor(rand() * 600_000); // up to 10 minutes apart, strictly increasing
      const status = pick(STATUSES);
      return {
        id: `unit_${ulid(ms, rand)}`,
        unitType: pick(UNIT_TYPES),
        domainId: pick(domains),
        jurisdiction: rand() < NO_JURISDICTION ? null : pick(JURISDICTIONS),
        status,
        version: status === 'candidate' && rand() < 0.7 ? 1 : 1 + Math.floor(rand() * 3),
        createdAt: new Date(ms).toISOString(),
        updatedAt: new Date(ms + (status === 'candidate' ? 0 : Math.floor(rand() * 30 * 86_400_000))).toISOString(),
      };
    },
  };
}

/** Whether a row matches a combination's filters (as server/src/units/units.repository.ts). */
function matches(query, row, domainIds, applicable) {
  if (query.status !== undefined && row.status !== query.status) return false;
  if (query.unitType !== undefined && row.unit_type !== query.unitType) return false;
  if (query.domain !== undefined && row.domain_id !== domainIds[query.domain]) return false;
  if (query.jurisdiction !== undefined && row.jurisdiction !== null && !applicable(query.jurisdiction).includes(row.jurisdiction)) return false;
  return true;
}

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A lower-case ULID (as server/src/shared/ids.ts makes them) for a time, from the seeded PRNG. */
function ulid(ms, rand) {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  let time = '';
  for (let t = ms, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = alphabet[t % 32] + time;
  let random = '';
  for (let i = 0; i < 16; i++) random += alphabet[Math.floor(rand() * 32)];
  return time + random;
}

// --- HTTP -------------------------------------------------------------------------------------

async function startServer(name, env) {
  const port = await freePort();
  const logFile = path.join(tmp, `${name}.log`);
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [SERVER_MAIN, 'start'], { env: { ...env, PORT: String(port) }, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  children.add(child);
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.once('exit', () => children.delete(child));
  const url = `http://${HOST}:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      fail(`${name} server exited during start-up:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    }
    try {
      const res = await fetch(`${url}/readyz`);
      await res.arrayBuffer();
      if (res.status === 200) return { child, url };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) fail(`${name} server not ready after 30 s:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGTERM, then SIGKILL if it has not exited within 10 s. */
async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await child.exited;
  clearTimeout(timer);
}

async function postJson(url, apiPath, headers, body) {
  const res = await fetch(url + apiPath, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 201) fail(`POST ${apiPath}: ${res.status} ${text.slice(0, 600)}`);
  return JSON.parse(text).data;
}

/** 200, meta.total as generated, a full page (or the rest), newest first. */
async function verify(server, target, headers, total) {
  const { status, body: text } = await get(server.url + target.path, headers);
  const where = `${fmt(server.size)} units: GET ${target.path}`;
  if (status !== 200) fail(`${where} answered ${status}: ${text.slice(0, 400)}`);
  const body = JSON.parse(text);
  const offset = target.combo.query.offset ?? 0;
  if (body.meta?.total !== total) fail(`${where}: meta.total ${body.meta?.total}, expected ${total}`);
  const length = Math.max(0, Math.min(LIMIT, total - offset));
  if (!Array.isArray(body.data) || body.data.length !== length) fail(`${where}: ${body.data?.length} units, expected ${length}`);
  if (length === 0) fail(`${where}: the combination selects nothing to list`);
  for (let i = 1; i < body.data.length; i++) {
    if (body.data[i - 1].createdAt < body.data[i].createdAt) fail(`${where}: not newest first at ${i}`);
  }
}

/** One GET on the shared keep-alive connection; milliseconds from sending to the last byte. */
async function timedGet(url, headers) {
  const t0 = process.hrtime.bigint();
  const { status, body } = await get(url, headers);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (status !== 200) fail(`GET ${url} answered ${status}: ${body.slice(0, 400)}`);
  return ms;
}

function get(url, headers) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

// --- the SQL behind each combination --------------------------------------------------------------

/**
 * Runs server/dist's own `listUnits` repository function over a logging Kysely to capture the
 * exact statements (page and count) for each combination, then prints their plans and times them
 * with better-sqlite3 on every size's database.
 */
async function explainSql(dbOf, orgId, domainIds) {
  process.stderr.write(`in-process: EXPLAIN QUERY PLAN and ${SQL_REPS} timed runs of each statement per size\n`);
  const repo = await import(pathToFileURL(path.join(SERVER_DIST, 'units/units.repository.js')).href);
  const handles = SIZES.map((size) => new Database(dbOf(size), { readonly: true }));
  let captured = [];
  const kysely = new Kysely({
    dialect: new SqliteDialect({ database: new Database(dbOf(SIZES[0]), { readonly: true }) }),
    log: (e) => e.level === 'query' && captured.push(e.query),
  });
  const lines = ['', `The SQL behind each combination (server/dist units.repository.js listUnits, captured), run in-process with better-sqlite3,`, `median of ${SQL_REPS} runs in ms per size (${SIZES.map(fmt).join(' / ')}):`];
  try {
    for (const combo of COMBINATIONS) {
      const q = combo.query;
      const filters = {
        status: q.status,
        unitType: q.unitType,
        domainId: q.domain === undefined ? undefined : domainIds[q.domain],
        jurisdiction: q.jurisdiction,
      };
      captured = [];
      await repo.listUnits(kysely, orgId, filters, { limit: LIMIT, offset: q.offset ?? 0 });
      lines.push('', `${combo.name}`);
      for (const query of captured) {
        const kind = /count\(/i.test(query.sql) ? 'count' : 'page';
        const times = handles.map((db) => {
          const stmt = db.prepare(query.sql);
          stmt.all(...query.parameters);
          const xs = [];
          for (let i = 0; i < SQL_REPS; i++) {
            const t0 = process.hrtime.bigint();
            stmt.all(...query.parameters);
            xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
          }
          return percentile(xs, 50);
        });
        lines.push(`  ${kind}: ${times.map((t) => t.toFixed(2)).join(' / ')} ms   ${query.sql}`);
        const plans = handles.map((db) => db.prepare(`explain query plan ${query.sql}`).all(...query.parameters).map((r) => r.detail).join('; '));
        for (const [s, plan] of plans.entries()) {
          if (s === 0 || plan !== plans[0]) lines.push(`    plan${plans.every((p) => p === plans[0]) ? '' : ` (${fmt(SIZES[s])})`}: ${plan}`);
        }
      }
    }
  } finally {
    await kysely.destroy();
    for (const db of handles) db.close();
  }
  return lines.join('\n');
}

// --- report -------------------------------------------------------------------------------------

function report(results, sqlReport) {
  const cpus = os.cpus();
  const small = 0;
  const large = SIZES.length - 1;
  const flags = [
    `--sizes ${SIZES.join(',')}`, `--requests ${REQUESTS}`, `--warmup ${WARMUP}`, `--seed ${SEED}`,
    ...(opts['no-sql'] ? ['--no-sql'] : [`--sql-reps ${SQL_REPS}`]),
    ...APPLY_SQL.map((s) => `--apply-sql ${JSON.stringify(s)}`),
    ...(opts['server-main'] ? [`--server-main ${SERVER_MAIN}`] : []),
  ];
  const header = ['combination', ...SIZES.flatMap((n) => [`total @${short(n)}`, `p50 @${short(n)}`, `p99 @${short(n)}`]), `p50 ${short(SIZES[large])}/${short(SIZES[small])}`, ''];
  const rows = results.map(({ target, stats }) => {
    const ratio = stats[large].p50 / stats[small].p50;
    return [
      target.combo.name,
      ...stats.flatMap((st, s) => [fmt(target.totals[s]), st.p50.toFixed(2), st.p99.toFixed(2)]),
      `${ratio.toFixed(2)}x`,
      SIZES.length > 1 ? (ratio < TARGET_RATIO ? 'MET' : 'MISSED') : '',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cols) => cols.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  const missed = rows.filter((r) => r[r.length - 1] === 'MISSED').length;
  const lines = [
    '',
    `Lemma benchmark: GET /api/v1/units (limit ${LIMIT}) with filters, ${SIZES.map(fmt).join(' and ')} units in one organization, SQLite`,
    `command: node test/scripts/bench-units.mjs ${flags.join(' ')}`,
    ...(opts['server-main'] ? [`server: ${SERVER_MAIN}`] : []),
    `machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.platform()} ${os.release()}`,
    `node ${process.version}; date ${new Date().toISOString()}`,
    `one server per size; sequential requests on one keep-alive connection, alternating between the sizes; ${WARMUP} warm-up + ${REQUESTS} measured per combination and size`,
    `load average before: ${loadBefore.map((l) => l.toFixed(2)).join(' ')}; after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    ...(APPLY_SQL.length ? [`applied to every database after seeding: ${APPLY_SQL.join('; ')}`] : []),
    '',
    'latency in ms (send to last byte); D = the largest of the 20 domains; total = meta.total',
    '',
    line(header),
    ...rows.map(line),
    '',
    SIZES.length > 1
      ? `target: p50(${fmt(SIZES[large])}) / p50(${fmt(SIZES[small])}) < ${TARGET_RATIO}x: ${rows.length - missed} of ${rows.length} combinations MET${missed ? `, ${missed} MISSED` : ''}`
      : 'one size only: no ratio',
  ];
  if (sqlReport) lines.push(sqlReport);
  process.stdout.write(lines.join('\n') + '\n');
}

function short(n) {
  return n % 1000 === 0 ? `${n / 1000}k` : String(n);
}
function fmt(n) {
  return Math.round(n).toLocaleString('en-US');
}
/** Nearest-rank percentile. */
function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, HOST, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function fail(message) {
  throw new Error(message);
}

/** Before anything is started: nothing to clean up. */
function usage(message) {
  process.stderr.write(`bench-units: ${message}\n`);
  process.exit(2);
}
