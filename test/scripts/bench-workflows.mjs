#!/usr/bin/env node
// Benchmark (not a timed test): latency of the full stack's `GET /api/v1/workflows/{slug}` and
// `POST /api/v1/workflows/compose` for a 50-unit workflow in an organization of 10,000 units on
// SQLite: p50/p99 of sequential requests. No target is set; the numbers are reported as they are.
// See docs/PERFORMANCE.md ("Workflows: 50-unit get and compose in an org of 10,000 units").
//
//   node test/scripts/bench-workflows.mjs [--units 10000] [--chain 50] [--domains 8] [--requests 200]
//                                         [--warmup 30] [--seed 1] [--profile <dir>] [--keep <dir>]
//                                         [--apply-sql "<statement>"]... [--server-main <path/to/main.js>]
//
// How: a temp data dir, `lemma-server init` (org + admin key; migrates), the server started once
// to create --domains domains, the chain and a few generated filler units through the API (so the
// server validates them and runs their examples). The chain, in the largest domain: unit k
// (1..--chain) is a program taking `v{k-1}` (number; unit 1's comes from the question) and
// producing `v{k}` (number) with the CEL step `v{k-1} + 1.0`, each named by two made-up words
// found nowhere else (e.g. "Brauntix plorv"), so a description naming them all can find them. The
// chain units are then marked verified in the database. The rest of the --units are filler, seeded
// straight into the SQLite file (better-sqlite3, one transaction, one prepared INSERT over the
// table's own columns; content columns and `search_text` from server/dist's own `contentColumns`;
// the `units` triggers fill `units_fts` and `unit_counts`): programs with 1-2 numeric inputs and a
// valid CEL definition, their text from a seeded PRNG over ~2,000 words in a Zipf-like
// distribution (as bench-inference.mjs), domains skewed (1/rank^0.8), statuses verified 30 %,
// candidate 40 %, in_review 20 %, partial_verified 10 %.
//
// Then one server (a child process on 127.0.0.1, LOG_LEVEL=warn, rate limits far above what a run
// sends): `POST /workflows` with the chain's ids (checked: 201, --chain nodes in order, --chain - 1
// `io` edges unit k-1 -> unit k on v{k-1}, one input v0, verified), `GET /workflows/{slug}`
// (checked the same), `POST /workflows/compose` with a description naming every chain unit in
// order ("Apply the Brauntix plorv, then the Quelm dravin, then the …"; checked: the
// draft's units are the chain in order, --chain - 1 edges, `unmatched` empty). Then, per endpoint,
// --warmup + --requests sequential requests (one keep-alive connection, one request in flight),
// every answer checked (200, and the same units as the first). Latency is from sending to the last
// byte; the server's CPU time per request (user + system, from /proc/<pid>/stat over the measured
// requests, Linux only) is printed beside it, as it moves less than latency when the machine is
// busy. A wrong compose draft does not stop the run: both endpoints are measured and reported, and
// the script then exits 1 naming what was wrong.
//
// --profile <dir>: the server runs under `node --cpu-prof` (workflows.cpuprofile in <dir>); the top
//   functions of each endpoint's measured window are printed (the profiler slows the figures).
// --apply-sql: SQL run on the database after seeding, before the server starts (repeat the flag
//   for several statements), e.g. `--apply-sql analyze` to measure with planner statistics.
// --server-main: another build of the server, e.g. an older commit's server/dist/main.js.
// --keep <dir>: copy the seeded database there (workflows-<units>.db) before the temp dir goes.
//
// Only 127.0.0.1; the server is a child process stopped (and the temp dir removed) at the end, on
// failure and on Ctrl-C.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { summarizeProfile } from './cpuprofile-summary.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
let SERVER_MAIN = path.resolve(here, '../../server/dist/main.js');
const HOST = '127.0.0.1';
const SLUG = 'bench';

const { values: opts } = parseArgs({
  options: {
    units: { type: 'string', default: '10000' },
    chain: { type: 'string', default: '50' },
    domains: { type: 'string', default: '8' },
    requests: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '30' },
    seed: { type: 'string', default: '1' },
    profile: { type: 'string' },
    'apply-sql': { type: 'string', multiple: true, default: [] },
    'server-main': { type: 'string' },
    keep: { type: 'string' },
  },
});
if (opts['server-main']) SERVER_MAIN = path.resolve(opts['server-main']);
const UNITS = Number(opts.units);
const CHAIN = Number(opts.chain);
const DOMAINS = Number(opts.domains);
const REQUESTS = Number(opts.requests);
const WARMUP = Number(opts.warmup);
const SEED = Number(opts.seed);
const APPLY_SQL = opts['apply-sql'];
const API_SAMPLE = 5;
const CLOCK_TICKS = 100; // USER_HZ of /proc/<pid>/stat on Linux // filler units created through the API (validated by the server)

// POST /workflows takes at most 100 units (openapi.yaml: WorkflowCreate.units.maxItems).
for (const [name, n, min, max] of [['chain', CHAIN, 2, 100], ['domains', DOMAINS, 1, 20], ['requests', REQUESTS, 1, Infinity], ['warmup', WARMUP, 0, Infinity], ['seed', SEED, 1, Infinity]]) {
  if (!Number.isInteger(n) || n < min || n > max) usage(`--${name} must be an integer in [${min}, ${max}]`);
}
if (!Number.isInteger(UNITS) || UNITS < CHAIN + API_SAMPLE + 1) usage(`--units must be an integer above --chain + ${API_SAMPLE}`);
if (!fs.existsSync(SERVER_MAIN)) usage(`${SERVER_MAIN} is missing: build the server first (npx turbo run build)`);
const SERVER_DIST = path.dirname(SERVER_MAIN);
const distUrl = (file) => pathToFileURL(path.join(SERVER_DIST, file)).href;

// --- the filler's vocabulary (a subset of bench-inference.mjs's) ---------------------------------

const words = (s) => s.trim().split(/\s+/);
const COMMON = words(`
  employee amount year month day week rate payment period policy account customer total annual fee cost
  limit balance income service plan benefit tax claim contract hour percent value date notice record request
  member employer company state loss interest credit price age risk score work`);
const DOMAIN = words(`
  leave overtime premium deductible mortgage pension invoice tariff vacation sick parental maternity paternity
  bonus commission salary wage payroll withholding allowance reimbursement expense mileage travel lodging meal
  severance termination probation tenure seniority promotion grievance disciplinary harassment training
  certification license audit compliance disclosure consent privacy breach retention archive shipment freight
  customs duty import export vendor supplier procurement tender bid purchase order warranty refund chargeback
  dispute collection delinquency default foreclosure escrow appraisal underwriting lien collateral loan
  borrower lender applicant installment amortization principal repayment prepayment refinance equity dividend
  capital asset liability depreciation inventory revenue margin discount rebate surcharge penalty fine levy
  excise deduction exemption dependent spouse household filing bracket threshold ceiling quota shift roster
  schedule timesheet attendance absence holiday sabbatical jury bereavement accrual carryover forfeiture
  vesting annuity beneficiary copay coinsurance coverage policyholder insured insurer adjuster hazard flood
  fire theft collision injury disability compensation medical dental vision pharmacy prescription dosage
  patient clinic hospital referral diagnosis treatment therapy contractor consultant intern apprentice
  manager supervisor director executive board shareholder investor trustee guardian minor tenant landlord
  lease rent deposit utility property parcel zoning permit inspection violation citation appeal hearing
  settlement judgment verdict damages remedy renewal extension amendment clause indemnity carrier broker
  agent franchise royalty subscription membership loyalty voucher coupon gift donation grant subsidy stipend
  fleet vehicle fuel toll parking commute relocation housing uniform equipment laptop device software
  maintenance repair outage incident ticket escalation response resolution uptime availability latency`);
const RARE = words(`
  demurrage subrogation escheatment garnishment arbitration novation usufruct easement encumbrance fiduciary
  rescission estoppel tortfeasor remittance clawback drawdown tranche arrears surety bailment laches accretion
  actuarial bancassurance cedent debenture endowment factoring gilt haircut indemnitee lapse moratorium
  netting overdraft quittance reinsurance salvage tontine underinsured yield zakat agio apportionment`);
const MADE_UP = 1500;
const KINDS = words(`allowance eligibility accrual threshold limit adjustment calculation rebate surcharge penalty
  entitlement reimbursement credit cap rate fee schedule estimate allocation premium payout deduction`);
const MEASURES = ['amount', 'years', 'hours', 'days', 'months', 'weeks', 'count', 'rate', 'balance', 'score', 'value', 'total'];
const VERBS = ['accrues', 'earns', 'owes', 'receives', 'pays', 'qualifies for', 'is entitled to', 'is charged'];
const COEFFICIENTS = [0.05, 0.1, 0.15, 0.2, 0.25, 0.5, 1.5, 2, 3];
const JURISDICTIONS = ['US-CA', 'US-NY', 'US-TX', 'US-FL', 'GB', 'DE', 'FR', 'CA-ON'];
const NO_JURISDICTION = 0.4;
const STATUSES = [['verified', 30], ['candidate', 40], ['in_review', 20], ['partial_verified', 10]];
const DOMAIN_NAMES = [
  'Payroll', 'Human Resources', 'Benefits', 'Income Tax', 'Mortgage Lending', 'Consumer Credit', 'Claims', 'Underwriting',
  'Procurement', 'Travel and Expenses', 'Contracts', 'Clinical Dosing', 'Privacy', 'Employment Law', 'Sales Tax',
  'Patient Consent', 'Information Security', 'Export Control', 'Facilities', 'Anti-Money Laundering',
].slice(0, DOMAINS);
// Domain sizes fall off like 1/(rank+1)^0.8; the chain lives in the largest.
const DOMAIN_WEIGHTS = DOMAIN_NAMES.map((_, i) => 1 / (i + 1) ** 0.8);
const START_MS = Date.parse('2024-01-01T00:00:00.000Z');

// --- run ----------------------------------------------------------------------------------------

const loadBefore = os.loadavg();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lemma-bench-workflows-'));
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

let wrong = [];
try {
  wrong = await main();
  await cleanup();
} catch (err) {
  await cleanup();
  if (interrupted) process.exit(interrupted);
  process.stderr.write(`\nbench-workflows: FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
if (wrong.length) {
  process.stderr.write(`\nbench-workflows: FAILED: ${wrong.join('; ')}\n`);
  process.exit(1);
}

async function main() {
  const { contentColumns } = await import(distUrl('units/unit-record.js'));
  const { stemsOf } = await import(distUrl('inference/match/unit-search.js'));
  const { parseQuery } = await import(distUrl('inference/parse/index.js'));
  const baseEnv = {
    ...process.env,
    HOST,
    LOG_LEVEL: 'warn',
    // Far above what a run can send: the limiter still counts every request, never refuses one.
    LEMMA_RATE_LIMIT_READ: '100000000',
    LEMMA_RATE_LIMIT_WRITE: '100000000',
  };
  const dataDir = path.join(tmp, 'data');
  const dbFile = path.join(dataDir, 'lemma.db');
  const env = { ...baseEnv, LEMMA_DATA_DIR: dataDir, DATABASE_URL: `sqlite:${dbFile}` };
  fs.mkdirSync(dataDir);

  // The chain's names: two made-up words each that the search sees as they are (the server's
  // stemmer and parser leave them alone), and that no filler unit uses.
  const rand = mulberry32(SEED);
  const known = new Set([...COMMON, ...DOMAIN, ...RARE]);
  const pool = madeUpWords(rand, MADE_UP + 20 * CHAIN, known);
  const chainWords = [];
  let used = 0;
  while (chainWords.length < 2 * CHAIN) {
    if (used >= pool.length) fail('not enough made-up words for the chain names');
    const w = pool[used++];
    const stems = [...stemsOf(w)];
    if (stems.length === 1 && stems[0] === w && parseQuery(`the ${w}`).keywords.join() === w) chainWords.push(w);
  }
  const fillerWords = pool.slice(used, used + MADE_UP);
  if (fillerWords.length < MADE_UP) fail('not enough made-up words for the filler');
  const chain = Array.from({ length: CHAIN }, (_, i) => chainUnit(i + 1, `${cap(chainWords[2 * i])} ${chainWords[2 * i + 1]}`));
  const description = `Apply the ${chain.map((u) => u.name).join(', then the ')}.`;
  if (description.length > 4000) fail(`the compose description is ${description.length} characters, over the contract's 4,000`);

  const init = JSON.parse(
    execFileSync(process.execPath, [SERVER_MAIN, 'init', '--org', SLUG, '--org-name', 'Bench', '--email', 'admin@bench.test', '--json'], { env, encoding: 'utf8' }),
  );
  const auth = { authorization: `Bearer ${init.apiKey}` };
  const orgId = init.org.id;
  process.stderr.write(`setup: ${DOMAINS} domains, ${CHAIN} chain units and ${API_SAMPLE} filler units through the API\n`);
  const setup = await startServer('setup', env);
  const domainIds = [];
  for (const name of DOMAIN_NAMES) domainIds.push((await postJson(setup.url, '/api/v1/domains', auth, { name })).id);
  const chainDomain = domainIds[0];
  const chainIds = [];
  for (const unit of chain) {
    const created = await postJson(setup.url, '/api/v1/units', auth, { ...unit, domainId: chainDomain });
    if (created.exampleResults?.failing !== 0 || created.exampleResults?.passing !== 1) fail(`chain unit "${unit.name}": examples ${JSON.stringify(created.exampleResults)}`);
    chainIds.push(created.id);
  }
  const gen = generator(rand, domainIds, fillerWords);
  const apiIds = [];
  for (let n = 0; n < API_SAMPLE; n++) {
    const u = gen.next();
    const body = Object.fromEntries(Object.entries(u.content).filter(([, v]) => v !== null));
    const created = await postJson(setup.url, '/api/v1/units', auth, body);
    if (created.exampleResults?.failing !== 0 || created.exampleResults?.passing !== 1) fail(`filler unit "${u.content.name}": examples ${JSON.stringify(created.exampleResults)}`);
    apiIds.push(created.id);
  }
  await stop(setup.child);

  // Seed the filler; the chain becomes verified.
  const t0 = performance.now();
  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const verify = db.prepare(`update units set status = 'verified', verification_score = 1, approval_rate = 1 where org_id = ? and id = ?`);
  for (const id of chainIds) if (verify.run(orgId, id).changes !== 1) fail(`unit ${id} not found`);
  const template = db.prepare('select * from units where org_id = ? and id = ?').get(orgId, apiIds[0]);
  const columns = db.prepare('select name from pragma_table_info(?)').pluck().all('units');
  const insert = db.prepare(`insert into units (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`);
  const seeded = CHAIN + API_SAMPLE;
  db.transaction(() => {
    for (let n = seeded; n < UNITS; n++) {
      const u = gen.next();
      insert.run({
        ...template,
        ...contentColumns(u.content),
        id: u.id,
        org_id: orgId,
        slug: `${slugOf(u.content.name)}-${n + 1}`,
        status: u.status,
        version: 1,
        verification_score: u.status === 'verified' ? 1 : u.status === 'partial_verified' ? 0.5 : 0,
        approval_rate: u.status === 'verified' ? 1 : u.status === 'partial_verified' ? 0.6 : 0,
        author_id: init.user.id,
        reviewers: '[]',
        example_results: JSON.stringify({ passing: 1, failing: 0, failures: [] }),
        created_at: u.createdAt,
        updated_at: u.createdAt,
      });
    }
  })();
  const stored = db.prepare('select count(*) from units where org_id = ?').pluck().get(orgId);
  if (stored !== UNITS) fail(`${stored} units stored, expected ${UNITS}`);
  const indexed = db.prepare('select count(*) from units_fts').pluck().get();
  if (indexed !== UNITS) fail(`${indexed} rows in units_fts, expected ${UNITS}`);
  const counted = db.prepare('select coalesce(sum(n), 0) from unit_counts where org_id = ?').pluck().get(orgId);
  if (counted !== UNITS) fail(`unit_counts sums to ${counted}, expected ${UNITS}`);
  const inChainDomain = db.prepare('select count(*) from units where org_id = ? and domain_id = ?').pluck().get(orgId, chainDomain);
  // Each chain name word is in exactly one unit (its own).
  const vocab = db.prepare(`select term, doc from units_fts_vocab where term in (${chainWords.map(() => '?').join(', ')})`).all(...chainWords);
  if (vocab.length !== chainWords.length || vocab.some((r) => r.doc !== 1)) fail(`chain words in the FTS vocabulary: ${JSON.stringify(vocab.filter((r) => r.doc !== 1))}, ${vocab.length} of ${chainWords.length} present`);
  for (const statement of APPLY_SQL) db.exec(statement);
  db.close();
  const seeding = { seconds: (performance.now() - t0) / 1000, mb: fs.statSync(dbFile).size / 2 ** 20, inChainDomain };
  process.stderr.write(`seeded ${fmt(UNITS - seeded)} filler units in ${seeding.seconds.toFixed(1)} s (database ${seeding.mb.toFixed(0)} MiB; ${fmt(inChainDomain)} units in the chain's domain)\n`);

  // The server, the workflow created and every answer checked before anything is measured.
  const server = await startServer('workflows', env, profileArgs());
  const t1 = process.hrtime.bigint();
  const created = await request(server.url, 'POST', '/api/v1/workflows', auth, { name: 'Bench chain', domainId: chainDomain, units: chainIds, description });
  const createMs = Number(process.hrtime.bigint() - t1) / 1e6;
  if (created.status !== 201) fail(`POST /workflows answered ${created.status}: ${created.body.slice(0, 600)}`);
  const workflow = JSON.parse(created.body).data;
  checkWorkflow('POST /workflows', workflow, chainIds);
  const getPath = `/api/v1/workflows/${workflow.slug}`;
  const got = await request(server.url, 'GET', getPath, auth);
  if (got.status !== 200) fail(`GET ${getPath} answered ${got.status}: ${got.body.slice(0, 600)}`);
  checkWorkflow(`GET ${getPath}`, JSON.parse(got.body).data, chainIds);
  const composeBody = { description, domainId: chainDomain };
  const composed = await request(server.url, 'POST', '/api/v1/workflows/compose', auth, composeBody);
  if (composed.status !== 200) fail(`POST /workflows/compose answered ${composed.status}: ${composed.body.slice(0, 600)}`);
  const draft = JSON.parse(composed.body).data;
  const composeWrong = checkDraft(draft, chainIds, chain);

  const targets = [
    { name: `GET /workflows/{slug}`, method: 'GET', path: getPath, body: undefined, units: workflow.units.join(), bytes: got.body.length },
    { name: `POST /workflows/compose`, method: 'POST', path: '/api/v1/workflows/compose', body: composeBody, units: draft.units.join(), bytes: composed.body.length },
  ];
  const results = [];
  for (const target of targets) {
    process.stderr.write(`measuring ${target.name}: ${WARMUP} warm-up + ${REQUESTS} sequential requests\n`);
    const samples = [];
    let from = 0;
    let cpuFrom = null;
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      if (i === WARMUP) {
        from = hrtimeUs();
        cpuFrom = cpuMsOf(server.child.pid);
      }
      const t = process.hrtime.bigint();
      const res = await request(server.url, target.method, target.path, auth, target.body);
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (res.status !== 200) fail(`${target.name} answered ${res.status}: ${res.body.slice(0, 400)}`);
      if (JSON.parse(res.body).data.units.join() !== target.units) fail(`${target.name}: the units differ from the first answer's`);
      if (i >= WARMUP) samples.push(ms);
    }
    const cpuTo = cpuMsOf(server.child.pid);
    const cpu = cpuFrom === null || cpuTo === null ? null : (cpuTo - cpuFrom) / REQUESTS;
    results.push({ target, cpu, window: [from, hrtimeUs()], p50: percentile(samples, 50), p99: percentile(samples, 99), mean: samples.reduce((a, b) => a + b, 0) / samples.length });
  }
  await stop(server.child);

  let profileSummary = '';
  if (opts.profile) {
    const file = path.join(opts.profile, 'workflows.cpuprofile');
    fs.writeFileSync(`${file}.windows.json`, JSON.stringify(results.map((r) => r.window)));
    for (const r of results) profileSummary += `\n${r.target.name}: ${summarizeProfile(file, { windows: [r.window], top: 20 })}\n`;
  }
  if (opts.keep) {
    fs.mkdirSync(opts.keep, { recursive: true });
    fs.copyFileSync(dbFile, path.join(opts.keep, `workflows-${UNITS}.db`)); // server stopped: checkpointed
  }

  report({ seeding, createMs, results, draft, composeWrong, description, profileSummary });
  return composeWrong.length ? [`POST /workflows/compose: ${composeWrong.join(', ')}`] : [];
}

// --- the chain and the checks ----------------------------------------------------------------------

/** Chain unit k: v{k-1} -> v{k} = v{k-1} + 1.0. */
function chainUnit(k, name) {
  const input = `v${k - 1}`;
  const output = `v${k}`;
  return {
    name,
    unitType: 'program',
    description: `Step ${k} of the running value: adds one to the value from ${k === 1 ? 'the question' : 'the step before'}.`,
    then: `The ${name} gives {{${output}}}.`,
    inputSchema: { type: 'object', properties: { [input]: { type: 'number', title: `Value ${k - 1}` } }, required: [input] },
    outputSchema: { type: 'object', properties: { [output]: { type: 'number', title: `Value ${k}` } } },
    definition: { steps: [{ id: 'add', set: output, expr: `${input} + 1.0` }] },
    examples: [{ name: 'one more', inputs: { [input]: k }, expected: { [output]: k + 1 } }],
  };
}

/** The DAG of the chain: nodes in order, io edges k-1 -> k on v{k-1}, input v0, all verified. */
function checkWorkflow(where, wf, ids) {
  const problems = dagProblems(wf, ids);
  if (wf.verification?.status !== 'verified' || wf.verification?.verifiedUnits !== ids.length) problems.push(`verification ${JSON.stringify(wf.verification)}`);
  if (JSON.stringify(wf.units) !== JSON.stringify(ids)) problems.push('units not the chain in order');
  if (problems.length) fail(`${where}: ${problems.join(', ')}`);
}

function dagProblems(wf, ids) {
  const problems = [];
  const nodes = wf.dag?.nodes ?? [];
  if (nodes.length !== ids.length || nodes.some((n, i) => n.unitId !== ids[i])) problems.push(`${nodes.length} nodes, expected the ${ids.length} chain units in order`);
  const edges = wf.dag?.edges ?? [];
  const expected = ids.slice(1).map((id, i) => ({ from: ids[i], to: id, variable: `v${i + 1}`, kind: 'io' }));
  if (edges.length !== expected.length) problems.push(`${edges.length} edges, expected ${expected.length}`);
  else if (edges.some((e, i) => JSON.stringify(e) !== JSON.stringify(expected[i]))) problems.push('edges not io k-1 -> k on v{k-1}');
  if (JSON.stringify((wf.inputs ?? []).map((v) => v.name)) !== '["v0"]') problems.push(`inputs ${JSON.stringify((wf.inputs ?? []).map((v) => v.name))}, expected ["v0"]`);
  return problems;
}

/** What is wrong with the compose draft (nothing: []). */
function checkDraft(draft, ids, chain) {
  const problems = [];
  if (JSON.stringify(draft.units) !== JSON.stringify(ids)) {
    const found = draft.units.filter((id) => ids.includes(id));
    problems.push(`${draft.units.length} units (${found.length} of the ${ids.length} chain units${found.length ? `: ${found.map((id) => chain[ids.indexOf(id)].name).join(', ')}` : ''}), expected the ${ids.length} in chain order`);
    const edges = draft.dag?.edges?.length ?? 0;
    if (edges !== ids.length - 1) problems.push(`${edges} edges, expected ${ids.length - 1}`);
  } else {
    problems.push(...dagProblems(draft, ids));
  }
  if (draft.unmatched?.length) problems.push(`${draft.unmatched.length} parts unmatched (e.g. ${JSON.stringify(draft.unmatched.slice(0, 3))}), expected none`);
  return problems;
}

// --- the filler -----------------------------------------------------------------------------------

/**
 * An endless, deterministic sequence of filler units: programs with 1-2 numeric inputs, a valid
 * definition and one passing example, their text drawn from the Zipf-like vocabulary.
 */
function generator(rand, domainIds, madeUp) {
  const int = (n) => Math.floor(rand() * n);
  const one = (xs) => xs[int(xs.length)];
  const shuffled = (xs) => {
    const a = [...new Set(xs)];
    for (let i = a.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  };
  // Ranked: the common words first, then the domain words, the rare terms and the made-up words.
  const ranked = [...new Set([...shuffled(COMMON), ...shuffled(DOMAIN), ...shuffled(RARE), ...madeUp])];
  const cumulative = [];
  let total = 0;
  for (let r = 0; r < ranked.length; r++) cumulative.push((total += 1 / (r + 4)));
  const word = () => {
    const x = rand() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return ranked[lo];
  };
  const phrase = (n) => Array.from({ length: n }, word).join(' ');
  const pick = (entries) => {
    const sum = entries.reduce((s, [, w]) => s + w, 0);
    let r = rand() * sum;
    for (const [value, w] of entries) if ((r -= w) < 0) return value;
    return entries[entries.length - 1][0];
  };
  const domains = domainIds.map((id, i) => [id, DOMAIN_WEIGHTS[i]]);
  let ms = START_MS;
  return {
    next() {
      ms += 1 + int(600_000);
      const kind = one(KINDS);
      const name = `${cap(word())} ${word()} ${kind}`;
      const inputs = [];
      const nInputs = 1 + int(2);
      while (inputs.length < nInputs) {
        const w = word();
        const measure = one(MEASURES);
        const id = rand() < 0.2 ? `${measure}_of_${w}` : `${w}_${measure}`;
        if (!inputs.some((x) => x.id === id)) inputs.push({ id, label: id.replace(/_/g, ' ') });
      }
      let output = `${word()}_${kind}`;
      while (inputs.some((x) => x.id === output)) output = `${word()}_${kind}`;
      const properties = {};
      for (const input of inputs) {
        const schema = { type: 'number' };
        if (rand() < 0.5) schema.title = cap(input.label);
        if (rand() < 0.25) schema['x-aliases'] = [word()];
        properties[input.id] = schema;
      }
      const [a, b] = inputs;
      const c1 = one(COEFFICIENTS);
      const c2 = one(COEFFICIENTS);
      const steps = [{ id: 'base', set: output, expr: b ? `${a.id} * ${lit(c1)} + ${b.id} * ${lit(c2)}` : `${a.id} * ${lit(c1)}` }];
      const capAt = rand() < 0.5 ? (1 + int(20)) * 10 : null;
      if (capAt !== null) steps.push({ id: 'capped', if: `${a.id} > ${lit(capAt)}`, set: output, expr: `${lit(capAt)} * ${lit(c1)}` });
      const x = 1 + int(300);
      const y = 1 + int(50);
      const expected = capAt !== null && x > capAt ? capAt * c1 : b ? x * c1 + y * c2 : x * c1;
      const description = one([
        () => `${cap(kind)} of the ${phrase(2)} for ${phrase(2)}, by ${a.label}${b ? ` and ${b.label}` : ''}.`,
        () => `Computes the ${word()} ${kind} owed to a ${phrase(2)} from the ${a.label}.`,
        () => `How much ${phrase(2)} a ${word()} receives under the ${phrase(2)} policy.`,
        () => `The ${phrase(3)} ${kind} that applies to ${phrase(2)} after ${phrase(2)}.`,
      ])();
      const content = {
        name,
        unitType: 'program',
        domainId: pick(domains),
        description,
        given: rand() < 0.6 ? `A ${phrase(2)} with a known ${a.label}${rand() < 0.5 ? ` and ${phrase(2)}` : ''}.` : null,
        when: rand() < 0.6 ? `The ${word()} asks about the ${phrase(3)}.` : null,
        then: `The ${phrase(2)} ${one(VERBS)} {{${output}}} ${word()} for {{${a.id}}} ${a.label}${b ? ` and {{${b.id}}} ${b.label}` : ''}.`,
        inputSchema: { type: 'object', properties, required: inputs.map((i) => i.id) },
        outputSchema: { type: 'object', properties: { [output]: { type: 'number' } } },
        jurisdiction: rand() < NO_JURISDICTION ? null : one(JURISDICTIONS),
        definition: { steps },
        examples: [{ name: 'example', inputs: Object.fromEntries([[a.id, x], ...(b ? [[b.id, y]] : [])]), expected: { [output]: expected } }],
      };
      return { id: `unit_${ulid(ms, rand)}`, content, status: pick(STATUSES), createdAt: new Date(ms).toISOString() };
    },
  };
}

/** A CEL double literal. */
function lit(x) {
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}

/** Pronounceable made-up words (product names, jargon), distinct and not among `known`. */
function madeUpWords(rand, n, known) {
  const onsets = ['b', 'br', 'c', 'cl', 'd', 'dr', 'f', 'fl', 'g', 'gr', 'k', 'l', 'm', 'n', 'p', 'pl', 'qu', 'r', 's', 'st', 't', 'tr', 'v', 'z', 'sh', 'th'];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou'];
  const codas = ['', '', 'n', 'r', 'l', 's', 'm', 'x', 'nt', 'rd', 'st'];
  const out = new Set();
  while (out.size < n) {
    const syllables = 2 + Math.floor(rand() * 2);
    let w = '';
    for (let i = 0; i < syllables; i++) {
      w += onsets[Math.floor(rand() * onsets.length)] + vowels[Math.floor(rand() * vowels.length)];
      if (i === syllables - 1 || rand() < 0.3) w += codas[Math.floor(rand() * codas.length)];
    }
    if (!known.has(w)) out.add(w);
  }
  return [...out];
}

function cap(s) {
  return s[0].toUpperCase() + s.slice(1);
}

function slugOf(name) {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
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

function profileArgs() {
  if (!opts.profile) return [];
  fs.mkdirSync(opts.profile, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${path.resolve(opts.profile)}`, '--cpu-prof-name=workflows.cpuprofile'];
}

async function startServer(name, env, nodeArgs = []) {
  const port = await freePort();
  const logFile = path.join(tmp, `${name}.log`);
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeArgs, SERVER_MAIN, 'start'], { env: { ...env, PORT: String(port) }, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  children.add(child);
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.once('exit', () => children.delete(child));
  const url = `http://${HOST}:${port}`;
  const deadline = Date.now() + 60_000;
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
    if (Date.now() > deadline) fail(`${name} server not ready after 60 s:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
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

/** One request on the shared keep-alive connection. */
function request(url, method, apiPath, headers, body) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const allHeaders = payload === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
  return new Promise((resolve, reject) => {
    const req = http.request(url + apiPath, { method, agent, headers: allHeaders }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

// --- report -------------------------------------------------------------------------------------

function report({ seeding, createMs, results, draft, composeWrong, description, profileSummary }) {
  const cpus = os.cpus();
  const flags = [
    `--units ${UNITS}`, `--chain ${CHAIN}`, `--domains ${DOMAINS}`, `--requests ${REQUESTS}`, `--warmup ${WARMUP}`, `--seed ${SEED}`,
    ...(opts.profile ? [`--profile ${opts.profile}`] : []),
    ...APPLY_SQL.map((s) => `--apply-sql ${JSON.stringify(s)}`),
    ...(opts['server-main'] ? [`--server-main ${SERVER_MAIN}`] : []),
  ];
  const header = ['endpoint', 'p50', 'p99', 'mean', 'server CPU/req', 'response', 'answer'];
  const rows = results.map((r, i) => [
    r.target.name, r.p50.toFixed(2), r.p99.toFixed(2), r.mean.toFixed(2), r.cpu === null ? '-' : r.cpu.toFixed(2), `${(r.target.bytes / 1024).toFixed(0)} KiB`,
    i === 0 ? 'OK' : composeWrong.length ? `WRONG (${draft.units.length} of ${CHAIN} units)` : 'OK',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cols) => cols.map((c, i) => (i === 0 || i === cols.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  const lines = [
    '',
    `Lemma benchmark: GET /api/v1/workflows/{slug} and POST /api/v1/workflows/compose, a ${CHAIN}-unit workflow in an organization of ${fmt(UNITS)} units, SQLite`,
    `command: node test/scripts/bench-workflows.mjs ${flags.join(' ')}`,
    ...(opts['server-main'] ? [`server: ${SERVER_MAIN}`] : []),
    `machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.platform()} ${os.release()}`,
    `node ${process.version}; date ${new Date().toISOString()}`,
    `${fmt(UNITS)} units in ${DOMAINS} domains (${fmt(seeding.inChainDomain)} in the chain's domain, ${CHAIN} of them the chain); database ${seeding.mb.toFixed(0)} MiB; filler seeded in ${seeding.seconds.toFixed(1)} s`,
    `one server; sequential requests on one keep-alive connection; ${WARMUP} warm-up + ${REQUESTS} measured per endpoint${opts.profile ? '; under --cpu-prof' : ''}`,
    `load average before: ${loadBefore.map((l) => l.toFixed(2)).join(' ')}; after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    ...(APPLY_SQL.length ? [`applied to the database after seeding: ${APPLY_SQL.join('; ')}`] : []),
    `POST /workflows (${CHAIN} units, once, not warmed up): ${createMs.toFixed(1)} ms`,
    `compose description: ${description.length} characters, ${CHAIN} parts naming the units in chain order`,
    '',
    'latency in ms (send to last byte); server CPU/req: user + system CPU ms of the server process per measured request',
    '',
    line(header),
    ...rows.map(line),
    '',
    composeWrong.length
      ? `compose draft WRONG: ${composeWrong.join('; ')}`
      : `compose draft OK: the ${CHAIN} chain units in order, ${CHAIN - 1} io edges, nothing unmatched`,
  ];
  if (profileSummary) lines.push(profileSummary);
  process.stdout.write(lines.join('\n') + '\n');
}

function fmt(n) {
  return Math.round(n).toLocaleString('en-US');
}
/** Nearest-rank percentile. */
function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
/** User + system CPU time of a process in ms, from /proc (Linux; null elsewhere). */
function cpuMsOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS; // utime, stime (fields 14, 15)
  } catch {
    return null;
  }
}
/** process.hrtime in microseconds (the clock of V8's profile timestamps on Linux). */
function hrtimeUs() {
  return Number(process.hrtime.bigint() / 1000n);
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
  process.stderr.write(`bench-workflows: ${message}\n`);
  process.exit(2);
}
