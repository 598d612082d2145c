#!/usr/bin/env node
// Benchmark (not a timed test): latency of the full stack's local `POST /api/v1/inference` on
// SQLite when one organization holds 1,000, 10,000 and 100,000 verified units: p50/p99 of
// sequential requests per size, requests/s under concurrent load (autocannon) at 10,000 units,
// and the targets p50 < 10 ms at 10,000 units and p50(100,000)/p50(10,000) < 2x. One run prints
// everything; see docs/PERFORMANCE.md ("Inference latency at 1k, 10k and 100k units").
//
//   node test/scripts/bench-inference.mjs [--sizes 1000,10000,100000] [--requests 300] [--warmup 50]
//                                         [--load-sizes 10000] [--load-seconds 10] [--load-warmup 2]
//                                         [--connections 10] [--seed 1] [--sql-reps 30] [--no-sql]
//                                         [--apply-sql "<statement>"]... [--keep <dir>]
//                                         [--profile <dir>] [--server-main <path/to/main.js>]
//
// How: a temp data dir, `lemma-server init` (org + admin key with the `inference` permission;
// migrates), the server started once to create 12 domains, the four "target" units of
// test/src/inference.test.ts (vacation accrual, mortgage credit risk, overtime eligibility,
// contract enforceability) and the first 12 generated units through the API (so the server
// validates the generator's definitions and runs its examples). Every generated unit of the
// smallest size is also compiled and its example run in process with server/dist's executor. The
// rest of the units go straight into the SQLite file (better-sqlite3, one transaction, one prepared
// INSERT over the table's own columns; the content columns and `search_text` come from
// server/dist's own `contentColumns`, and the FTS5 index `units_fts` is filled by the units
// triggers). All units are verified (verification_score 1, approval_rate 1, version 1).
//
// Generated units are programs with 1-2 numeric inputs and a valid CEL definition, their text
// (name, description, GIVEN/WHEN/THEN, input names, titles and aliases) drawn from a seeded PRNG
// over ~3,500 words in a Zipf-like distribution: ~45 common words of the domain (employee, year,
// service, hour, credit, contract…) in 5-50 % of units each, ~350 domain words (vacation, overtime,
// mortgage, pension, invoice, tariff…) in a few percent each, ~100 rare terms of art and ~3,000
// made-up words (product names, jargon) in a few units each. Each larger size is a copy of the
// smaller file extended by the same generator (the smaller set is a prefix of the larger one).
//
// Then one server per size (child processes on 127.0.0.1, LOG_LEVEL=warn, rate limits far above
// what a run sends). Each question is asked once of every size and its answer checked (the target
// unit answers with a verified segment; the two unmatched questions, one of words no unit has and
// one of words many units have, get none; the two-part question gets both). Then sequential
// requests (one keep-alive connection, one request in flight), cycling over the questions and
// alternating between the sizes request by request so all sizes see the same machine noise, with
// each server's CPU time per request (from /proc: less sensitive than latency to other load on
// the machine); then autocannon (--connections, cycling over the same questions) against each of
// --load-sizes for --load-seconds after --load-warmup.
//
// --no-sql: skip the in-process part (per size and question: the words the search picked and
//   their document frequencies, the FTS rows the OR match reads, the median time of each statement
//   server/dist's `searchUnits` runs (captured over a logging Kysely) and of `searchUnits` and
//   `parseQuery` themselves, and the match statement's EXPLAIN QUERY PLAN).
// --apply-sql: SQL run on every size's database after seeding, before the servers start.
// --profile <dir>: the servers run under `node --cpu-prof` (units-<size>.cpuprofile in <dir>); the
//   top functions of the measured windows are printed (the profiler slows the figures).
// --server-main: another build of the server, e.g. an older commit's server/dist/main.js.
// --keep <dir>: copy the seeded databases there (inference-<size>.db) before the temp dir goes.
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
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { summarizeProfile } from './cpuprofile-summary.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
let SERVER_MAIN = path.resolve(here, '../../server/dist/main.js');
const HOST = '127.0.0.1';
const SLUG = 'bench';
const TARGET_P50_MS = 10; // at 10,000 units
const TARGET_P50_AT = 10_000;
const TARGET_GROWTH = 2; // p50(100,000) / p50(10,000)
const TARGET_GROWTH_AT = 100_000;
const CLOCK_TICKS = clockTicks();

const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    requests: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '50' },
    'load-sizes': { type: 'string', default: '10000' },
    'load-seconds': { type: 'string', default: '10' },
    'load-warmup': { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    seed: { type: 'string', default: '1' },
    'sql-reps': { type: 'string', default: '30' },
    'no-sql': { type: 'boolean', default: false },
    'apply-sql': { type: 'string', multiple: true, default: [] },
    profile: { type: 'string' },
    'server-main': { type: 'string' },
    keep: { type: 'string' },
  },
});
if (opts['server-main']) SERVER_MAIN = path.resolve(opts['server-main']);
const SIZES = opts.sizes.split(',').map((s) => Number(s.trim()));
const LOAD_SIZES = opts['load-sizes'].trim() === '' ? [] : opts['load-sizes'].split(',').map((s) => Number(s.trim()));
const REQUESTS = Number(opts.requests);
const WARMUP = Number(opts.warmup);
const LOAD_SECONDS = Number(opts['load-seconds']);
const LOAD_WARMUP = Number(opts['load-warmup']);
const CONNECTIONS = Number(opts.connections);
const SEED = Number(opts.seed);
const SQL_REPS = Number(opts['sql-reps']);
const APPLY_SQL = opts['apply-sql'];

if (!SIZES.length || SIZES.some((n) => !Number.isInteger(n) || n < 100) || SIZES.some((n, i) => i > 0 && n <= SIZES[i - 1])) {
  usage(`--sizes must be increasing integers of at least 100, got "${opts.sizes}"`);
}
if (LOAD_SIZES.some((n) => !SIZES.includes(n))) usage(`--load-sizes must be among --sizes, got "${opts['load-sizes']}"`);
for (const [name, n, min] of [['requests', REQUESTS, 1], ['warmup', WARMUP, 0], ['load-seconds', LOAD_SECONDS, 1], ['load-warmup', LOAD_WARMUP, 0], ['connections', CONNECTIONS, 1], ['seed', SEED, 1], ['sql-reps', SQL_REPS, 1]]) {
  if (!Number.isInteger(n) || n < min) usage(`--${name} must be an integer >= ${min}`);
}
if (!fs.existsSync(SERVER_MAIN)) usage(`${SERVER_MAIN} is missing: build the server first (npx turbo run build)`);
const SERVER_DIST = path.dirname(SERVER_MAIN);
const distUrl = (file) => pathToFileURL(path.join(SERVER_DIST, file)).href;

// --- the target units and the questions ----------------------------------------------------------

// As in test/src/inference.test.ts (all four verified here).
const TARGET_UNITS = {
  vacation: {
    name: 'Vacation accrual',
    unitType: 'program',
    description: 'Annual vacation days by years of service.',
    then: 'An employee with {{years_of_service}} years of service accrues {{vacation_days}} vacation days per year.',
    inputSchema: { type: 'object', properties: { years_of_service: { type: 'number', title: 'Years of service', 'x-aliases': ['tenure'] } }, required: ['years_of_service'] },
    outputSchema: { type: 'object', properties: { vacation_days: { type: 'integer' } } },
    definition: {
      steps: [
        { id: 'base', set: 'vacation_days', expr: '10' },
        { id: 'senior', if: 'years_of_service >= 5', set: 'vacation_days', expr: '15' },
        { id: 'veteran', if: 'years_of_service >= 10', set: 'vacation_days', expr: '20' },
      ],
    },
  },
  mortgage: {
    name: 'Mortgage credit risk',
    unitType: 'framework',
    description: 'Credit risk of a mortgage applicant from credit score and years employed.',
    inputSchema: {
      type: 'object',
      properties: { credit_score: { type: 'integer', title: 'Credit score' }, years_employed: { type: 'number', title: 'Years employed' } },
      required: ['credit_score', 'years_employed'],
    },
    definition: {
      elements: [
        { id: 'good_score', label: 'Credit score of 680 or more', weight: 2, when: 'credit_score >= 680' },
        { id: 'stable_job', label: 'Employed two years or more', weight: 1, when: 'years_employed >= 2' },
      ],
      threshold: 3,
      outcomes: { pass: 'The mortgage credit risk is low (score {{score}} of {{threshold}}).', fail: 'The mortgage credit risk is high (score {{score}} of {{threshold}}).' },
    },
  },
  overtime: {
    name: 'Overtime eligibility',
    unitType: 'pattern',
    description: 'Non-exempt employees who work more than 40 hours in a week are owed overtime.',
    inputSchema: {
      type: 'object',
      properties: { hours_worked: { type: 'number', title: 'Hours worked', 'x-aliases': ['hours'] }, exempt: { type: 'boolean', title: 'Exempt' } },
      required: ['hours_worked', 'exempt'],
    },
    definition: {
      elements: [
        { id: 'over_forty', kind: 'condition', when: 'hours_worked > 40.0' },
        { id: 'not_exempt', kind: 'condition', when: '!exempt' },
        { id: 'owed', kind: 'conclusion', text: 'An employee who worked {{hours_worked}} hours and is not exempt is owed overtime pay.' },
      ],
    },
  },
  contract: {
    name: 'Contract enforceability',
    unitType: 'argument',
    description: 'Whether a signed contract is enforceable, unless a party is a minor.',
    inputSchema: {
      type: 'object',
      properties: { signed: { type: 'boolean', title: 'Signed', 'x-aliases': ['signed contract'] }, party_age: { type: 'integer', title: 'Party age', 'x-aliases': ['age'] } },
      required: ['signed', 'party_age'],
    },
    definition: {
      elements: [
        { id: 'signed_premise', kind: 'premise', text: 'The contract was signed.', when: 'signed' },
        { id: 'minor', kind: 'rebuttal', text: 'A party aged {{party_age}} is a minor, who may void the contract.', when: 'party_age < 18' },
        { id: 'enforceable', kind: 'conclusion', text: 'The signed contract is enforceable.' },
      ],
    },
  },
};

/** `answers`: the target units that must each answer with a verified segment (none: no unit may run). */
const QUESTIONS = [
  { name: 'vacation (program)', text: 'How many vacation days does an employee with 12 years of service accrue?', answers: ['vacation'], expect: 'accrues 20 vacation days' },
  { name: 'mortgage (framework)', text: 'What is the mortgage credit risk for an applicant with a credit score of 720 who has been employed for 3 years?', answers: ['mortgage'], expect: 'risk is low' },
  { name: 'overtime (pattern)', text: 'Is an employee who is not exempt and worked 45 hours owed overtime?', answers: ['overtime'], expect: 'owed overtime pay' },
  { name: 'contract (argument)', text: 'Is a signed contract enforceable when the party age is 30?', answers: ['contract'], expect: 'is enforceable' },
  { name: 'no match (unknown words)', text: 'What is the boiling point of mercury?', answers: [] },
  // Its words are in the corpus ("annual" in most units, "board" in a few percent): searched, no unit answers.
  { name: 'no match (known words)', text: 'What is the dress code for the annual board meeting?', answers: [] },
  {
    name: 'two parts',
    text: 'How many vacation days does an employee with 6 years of service accrue? Is an employee who is not exempt and worked 45 hours owed overtime?',
    answers: ['vacation', 'overtime'],
  },
];
// The statuses a request without includeUnverified searches (server/src/inference/inference.service.ts).
const SEARCHED_STATUSES = ['verified', 'partial_verified'];
const API_SAMPLE = 12; // generated units created through the API (validated by the server)

// --- the generated corpus --------------------------------------------------------------------------

const words = (s) => s.trim().split(/\s+/);
// In most units (several are words of the questions: the search must skip them).
const COMMON = words(`
  employee amount year month day week rate payment period policy account customer total annual fee cost
  limit balance income service plan benefit tax claim contract hour percent value date notice record request
  member employer company state loss interest credit price age risk score work`);
// In a few percent of units each.
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
  scholarship tuition enrollment semester transcript student faculty professor research laboratory specimen
  vaccine screening exposure radiation emissions carbon offset energy electricity gas water waste recycling
  fleet vehicle fuel toll parking commute relocation housing uniform equipment laptop device software
  maintenance repair outage incident ticket escalation response resolution uptime availability latency
  bandwidth storage backup encryption password access firewall vulnerability patch employment exempt party
  applicant hire onboarding payout cashout overpayment underpayment garnish wellness childcare eldercare
  pregnancy adoption military reservist union bargaining strike lockout layoff furlough rehire transfer
  secondment expatriate visa sponsorship immigration citizenship residency domicile nexus apportion sourcing
  exemptions credits withholding estimated quarterly penalty waiver abatement installment`);
// Terms of art: in few units each.
const RARE = words(`
  demurrage subrogation escheatment garnishment arbitration novation usufruct easement encumbrance fiduciary
  rescission estoppel tortfeasor remittance clawback drawdown tranche arrears surety bailment laches accretion
  actuarial bancassurance cedent debenture endowment factoring gilt haircut indemnitee lapse moratorium
  netting overdraft quittance reinsurance salvage tontine underinsured yield zakat agio apportionment
  attestation bordereau capitation coterminous defeasance emolument forbearance gratuity hypothecation
  interpleader jobber kickback lessor mortmain nonforfeiture obligor perquisite quantum recoupment sinecure
  tithe usury vicarious warrantor stevedore wharfage lighterage cabotage pilotage dockage primage signed
  enforceable enforceability solatium tantieme viaticum prorogation`);
const MADE_UP = 3000;
const KINDS = words(`allowance eligibility accrual threshold limit adjustment calculation rebate surcharge penalty
  entitlement reimbursement credit cap rate fee schedule estimate allocation premium payout deduction`);
// The second word of an input's name: what it measures.
const MEASURES = ['amount', 'years', 'hours', 'days', 'months', 'weeks', 'count', 'rate', 'balance', 'score', 'value', 'total'];
const VERBS = ['accrues', 'earns', 'owes', 'receives', 'pays', 'qualifies for', 'is entitled to', 'is charged'];
const COEFFICIENTS = [0.05, 0.1, 0.15, 0.2, 0.25, 0.5, 1.5, 2, 3];
const JURISDICTIONS = ['US-CA', 'US-NY', 'US-TX', 'US-FL', 'GB', 'DE', 'FR', 'CA-ON'];
const NO_JURISDICTION = 0.4;
const DOMAIN_NAMES = [
  'Human Resources', 'Payroll', 'Benefits', 'Income Tax', 'Mortgage Lending', 'Consumer Credit',
  'Claims', 'Underwriting', 'Procurement', 'Travel and Expenses', 'Contracts', 'Clinical Dosing',
];
const DOMAIN_WEIGHTS = DOMAIN_NAMES.map((_, i) => 1 / (i + 1) ** 0.8);
const START_MS = Date.parse('2024-01-01T00:00:00.000Z');

// --- run ----------------------------------------------------------------------------------------

const loadBefore = os.loadavg();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lemma-bench-inference-'));
const children = new Set();
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
let cleanedUp = false;

async function cleanup() {
  if (cleanedUp) return;
  cleanedUp = true;
  agent.destroy();
  await Promise.all([...children].map((c) => stop(c)));
  fs.rmSync(tmp, { recursive: true, force: true });
}
let interrupted;
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
  process.stderr.write(`\nbench-inference: FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

async function main() {
  const { contentColumns } = await import(distUrl('units/unit-record.js'));
  const { compileUnit, runExamples } = await import(distUrl('units/executor.js'));
  const baseEnv = {
    ...process.env,
    HOST,
    LOG_LEVEL: 'warn',
    // Far above what a run can send: the limiter still counts every request, never refuses one.
    LEMMA_RATE_LIMIT_READ: '100000000',
    LEMMA_RATE_LIMIT_WRITE: '100000000',
  };
  const dirOf = (size) => path.join(tmp, `inference-${size}`);
  const dbOf = (size) => path.join(dirOf(size), 'lemma.db');
  const envOf = (size) => ({ ...baseEnv, LEMMA_DATA_DIR: dirOf(size), DATABASE_URL: `sqlite:${dbOf(size)}` });

  // The organization, its domains, the target units and a sample of generated units, through the API.
  const first = SIZES[0];
  fs.mkdirSync(dirOf(first));
  const init = JSON.parse(
    execFileSync(process.execPath, [SERVER_MAIN, 'init', '--org', SLUG, '--org-name', 'Bench', '--email', 'admin@bench.test', '--json'], {
      env: envOf(first),
      encoding: 'utf8',
    }),
  );
  const auth = { authorization: `Bearer ${init.apiKey}` };
  const orgId = init.org.id;
  process.stderr.write(`setup: ${DOMAIN_NAMES.length} domains, ${Object.keys(TARGET_UNITS).length} target units and ${API_SAMPLE} generated units through the API\n`);
  const setup = await startServer('setup', envOf(first));
  const domainIds = [];
  for (const name of DOMAIN_NAMES) domainIds.push((await postJson(setup.url, '/api/v1/domains', auth, { name })).id);
  const targetIds = {};
  for (const [key, unit] of Object.entries(TARGET_UNITS)) {
    targetIds[key] = (await postJson(setup.url, '/api/v1/units', auth, { ...unit, domainId: domainIds[0] })).id;
  }
  const gen = generator(SEED, domainIds);
  const apiIds = [];
  for (let n = 0; n < API_SAMPLE; n++) {
    const u = gen.next();
    const body = Object.fromEntries(Object.entries(u.content).filter(([, v]) => v !== null));
    const created = await postJson(setup.url, '/api/v1/units', auth, body);
    if (created.exampleResults?.failing !== 0 || created.exampleResults?.passing !== 1) {
      fail(`generated unit "${u.content.name}": examples ${JSON.stringify(created.exampleResults)}`);
    }
    apiIds.push(created.id);
  }
  await stop(setup.child);
  const apiCount = Object.keys(targetIds).length + API_SAMPLE;
  if (apiCount >= first) fail(`--sizes: the smallest must exceed the ${apiCount} units created through the API`);

  // Seed: the smallest size, then each larger one as a copy extended by the same generator.
  const seeding = [];
  let template;
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
      // The API-created units become verified like the rest; one of them is the row template.
      const verify = db.prepare(`update units set status = 'verified', verification_score = 1, approval_rate = 1 where org_id = ? and id = ?`);
      for (const id of [...Object.values(targetIds), ...apiIds]) if (verify.run(orgId, id).changes !== 1) fail(`unit ${id} not found`);
      template = db.prepare('select * from units where org_id = ? and id = ?').get(orgId, apiIds[0]);
    }
    const columns = db.prepare('select name from pragma_table_info(?)').pluck().all('units');
    const insert = db.prepare(`insert into units (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`);
    const from = i === 0 ? apiCount : SIZES[i - 1];
    let checkMs = 0;
    db.transaction(() => {
      for (let n = from; n < size; n++) {
        const u = gen.next();
        if (i === 0) {
          // The whole smallest set is checked as the server would: compiles, its example passes.
          const c0 = performance.now();
          const results = runExamples(compileUnit({ ...u.content, id: u.id, version: 1 }), u.content.examples);
          if (results.failing !== 0) fail(`generated unit "${u.content.name}": ${JSON.stringify(results)}`);
          checkMs += performance.now() - c0;
        }
        insert.run({
          ...template,
          ...contentColumns(u.content),
          id: u.id,
          org_id: orgId,
          slug: `${slugOf(u.content.name)}-${n + 1}`,
          status: 'verified',
          version: 1,
          verification_score: 1,
          approval_rate: 1,
          author_id: init.user.id,
          reviewers: '[]',
          example_results: JSON.stringify({ passing: 1, failing: 0, failures: [] }),
          created_at: u.createdAt,
          updated_at: u.createdAt,
        });
      }
    })();
    const counts = db.prepare(`select count(*) as n, sum(status = 'verified') as verified from units where org_id = ?`).get(orgId);
    if (counts.n !== size || counts.verified !== size) fail(`${dbOf(size)}: ${counts.n} units (${counts.verified} verified), expected ${size}`);
    const indexed = db.prepare(`select count(*) from units_fts`).pluck().get();
    if (indexed !== size) fail(`${dbOf(size)}: ${indexed} rows in units_fts, expected ${size}`);
    const seconds = (performance.now() - t0) / 1000;
    // What the full-text index holds (after the timing: counting the vocabulary reads the index).
    const corpus = db.prepare(`select count(*) as terms, sum(cnt) as tokens from units_fts_vocab`).get();
    db.close();
    const mb = fs.statSync(dbOf(size)).size / 2 ** 20;
    seeding.push({ size, added: size - (i === 0 ? apiCount : SIZES[i - 1]), seconds, checkSeconds: checkMs / 1000, mb, terms: corpus.terms, tokens: corpus.tokens });
    process.stderr.write(`seeded ${fmt(size)} units in ${seconds.toFixed(1)} s (database ${mb.toFixed(0)} MiB)\n`);
  }

  for (const size of APPLY_SQL.length ? SIZES : []) {
    const db = new Database(dbOf(size));
    for (const sql of APPLY_SQL) db.exec(sql);
    db.close();
  }

  // One server per size, every answer checked before anything is measured.
  const servers = [];
  for (const size of SIZES) servers.push({ size, ...(await startServer(`inference-${size}`, envOf(size), profileArgs(size))) });
  const checks = [];
  for (const q of QUESTIONS) {
    for (const server of servers) checks.push(await verify(server, q, auth, targetIds));
  }

  // Sequential requests, cycling over the questions, alternating between the sizes.
  process.stderr.write(`measuring: ${WARMUP} warm-up + ${REQUESTS} sequential requests per size\n`);
  const samples = servers.map(() => []);
  const perQuestion = servers.map(() => QUESTIONS.map(() => []));
  const windows = servers.map(() => []);
  const seqFrom = hrtimeUs();
  let cpuFrom;
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    if (i === WARMUP) cpuFrom = servers.map((s) => cpuSeconds(s.child.pid));
    const q = i % QUESTIONS.length;
    const order = i % 2 === 0 ? servers.keys() : [...servers.keys()].reverse();
    for (const s of order) {
      const ms = await timedPost(servers[s].url, auth, QUESTIONS[q].text);
      if (i >= WARMUP) {
        samples[s].push(ms);
        perQuestion[s][q].push(ms);
      }
    }
  }
  const seqTo = hrtimeUs();
  // Server CPU per measured request: each server only works on its own requests (the others wait
  // their turn), so this is less sensitive than latency to other load on the machine.
  const cpuMs = servers.map((s, i) => {
    const to = cpuSeconds(s.child.pid);
    return to === undefined || cpuFrom[i] === undefined ? undefined : (1000 * (to - cpuFrom[i])) / REQUESTS;
  });
  for (const w of windows) w.push([seqFrom, seqTo]);

  // Concurrent load.
  const load = new Map();
  for (const size of LOAD_SIZES) {
    const s = SIZES.indexOf(size);
    process.stderr.write(`load: ${fmt(size)} units, ${CONNECTIONS} connections, warm-up ${LOAD_WARMUP} s, measured ${LOAD_SECONDS} s\n`);
    if (LOAD_WARMUP > 0) await loadRun(servers[s], auth, LOAD_WARMUP);
    const from = hrtimeUs();
    load.set(size, await loadRun(servers[s], auth, LOAD_SECONDS));
    windows[s].push([from, hrtimeUs()]);
  }

  await Promise.all(servers.map((s) => stop(s.child)));
  let profileSummary = '';
  if (opts.profile) {
    for (const [s, size] of SIZES.entries()) {
      const file = path.join(opts.profile, `units-${size}.cpuprofile`);
      fs.writeFileSync(`${file}.windows.json`, JSON.stringify(windows[s]));
      profileSummary += `\n${fmt(size)} units: ${summarizeProfile(file, { windows: windows[s], top: 20 })}\n`;
    }
  }
  if (opts.keep) {
    fs.mkdirSync(opts.keep, { recursive: true });
    for (const size of SIZES) fs.copyFileSync(dbOf(size), path.join(opts.keep, `inference-${size}.db`)); // servers stopped: checkpointed
  }

  const stats = samples.map((xs, s) => ({ p50: percentile(xs, 50), p99: percentile(xs, 99), mean: xs.reduce((a, b) => a + b, 0) / xs.length, cpuMs: cpuMs[s] }));
  const questionStats = perQuestion.map((byQ) => byQ.map((xs) => ({ p50: percentile(xs, 50), p99: percentile(xs, 99), n: xs.length })));
  const sqlReport = opts['no-sql'] ? null : await explainSearch(dbOf, orgId);
  report({ seeding, checks, stats, questionStats, load, sqlReport, profileSummary });
}

// --- seeding ------------------------------------------------------------------------------------

/**
 * An endless, deterministic sequence of generated units: programs with 1-2 numeric inputs, a
 * valid definition and one passing example, their text drawn from the Zipf-like vocabulary.
 */
function generator(seed, domainIds) {
  const rand = mulberry32(seed);
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
  const known = new Set([...COMMON, ...DOMAIN, ...RARE]);
  const madeUp = madeUpWords(rand, MADE_UP, known);
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
  const cap = (s) => s[0].toUpperCase() + s.slice(1);
  const domains = domainIds.map((id, i) => [id, DOMAIN_WEIGHTS[i]]);
  const pick = (entries) => {
    const sum = entries.reduce((s, [, w]) => s + w, 0);
    let r = rand() * sum;
    for (const [value, w] of entries) if ((r -= w) < 0) return value;
    return entries[entries.length - 1][0];
  };
  let ms = START_MS;
  return {
    ranked,
    next() {
      ms += 1 + int(600_000);
      const kind = one(KINDS);
      const name = `${cap(word())} ${word()} ${kind}`;
      // Inputs: `<word>_<measure>`, distinct.
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
      return { id: `unit_${ulid(ms, rand)}`, content, createdAt: new Date(ms).toISOString() };
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

function profileArgs(size) {
  if (!opts.profile) return [];
  fs.mkdirSync(opts.profile, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${path.resolve(opts.profile)}`, `--cpu-prof-name=units-${size}.cpuprofile`];
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

/**
 * The question's answer on one size: each target unit it aims at answers with a verified segment
 * (and nothing else runs); a question aimed at none runs no unit.
 */
async function verify(server, q, headers, targetIds) {
  const { status, body: text } = await post(server.url, headers, q.text);
  const where = `${fmt(server.size)} units: "${q.text}"`;
  if (status !== 200) fail(`${where} answered ${status}: ${text.slice(0, 400)}`);
  const data = JSON.parse(text).data;
  const used = data.unitsUsed.map((u) => u.id).sort();
  const want = q.answers.map((k) => targetIds[k]).sort();
  const explain = () => `${where}: ${JSON.stringify({ unitsUsed: data.unitsUsed.map((u) => u.name), segments: data.segments, mode: data.mode }).slice(0, 800)}`;
  if (JSON.stringify(used) !== JSON.stringify(want)) fail(`units used ${JSON.stringify(used)}, expected ${JSON.stringify(want)} — ${explain()}`);
  for (const id of want) {
    const segment = data.segments.find((s) => s.unitId === id && s.trustLevel === 'verified');
    if (!segment) fail(`no verified segment from ${id} — ${explain()}`);
    if (q.expect && !segment.text.includes(q.expect)) fail(`segment "${segment.text}" does not say "${q.expect}" — ${explain()}`);
  }
  if (want.length === 0 && data.segments.some((s) => s.trustLevel === 'verified' || s.trustLevel === 'expert_reviewed')) fail(`unexpected unit segment — ${explain()}`);
  const expectedCoverage = want.length === 0 ? 0 : 100;
  if (data.coveragePercent !== expectedCoverage) fail(`coverage ${data.coveragePercent} %, expected ${expectedCoverage} % — ${explain()}`);
  return { size: server.size, question: q.name, mode: data.mode, segments: data.segments.length, verified: data.trustSummary.verified };
}

/** One POST /inference on the shared keep-alive connection; milliseconds from sending to the last byte. */
async function timedPost(url, headers, query) {
  const t0 = process.hrtime.bigint();
  const { status, body } = await post(url, headers, query);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (status !== 200) fail(`POST /api/v1/inference answered ${status}: ${body.slice(0, 400)}`);
  return ms;
}

function post(url, headers, query) {
  const payload = JSON.stringify({ query });
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/api/v1/inference`,
      { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** One autocannon run over the questions; fails on any error, timeout or non-2xx answer. */
async function loadRun(server, headers, seconds) {
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: QUESTIONS.map((q) => ({
      method: 'POST',
      path: '/api/v1/inference',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query: q.text }),
    })),
  });
  if (result.errors || result.timeouts || result.non2xx) {
    fail(`load on ${fmt(server.size)} units: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`);
  }
  return { rps: result.requests.total / result.duration, requests: result.requests.total, p50: result.latency.p50, p99: result.latency.p99 };
}

// --- in process: where the search's time goes -----------------------------------------------------

/**
 * Per size and question: server/dist's `parseQuery` keywords, the statements its `searchUnits`
 * runs (captured over a logging Kysely) timed with better-sqlite3, the words searched with their
 * document frequencies, the number of FTS rows the OR match reads, and the match's query plan.
 */
async function explainSearch(dbOf, orgId) {
  process.stderr.write(`in-process: statements of searchUnits, ${SQL_REPS} timed runs each per size and question\n`);
  const { searchUnits } = await import(distUrl('inference/match/unit-search.js'));
  const { parseQuery } = await import(distUrl('inference/parse/index.js'));
  const handles = SIZES.map((size) => new Database(dbOf(size), { readonly: true }));
  const median = (f) => {
    f();
    const xs = [];
    for (let i = 0; i < SQL_REPS; i++) {
      const t0 = process.hrtime.bigint();
      f();
      xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    return percentile(xs, 50);
  };
  const medianAsync = async (f) => {
    await f();
    const xs = [];
    for (let i = 0; i < SQL_REPS; i++) {
      const t0 = process.hrtime.bigint();
      await f();
      xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    return percentile(xs, 50);
  };
  const rows = [];
  const plans = new Set();
  try {
    for (const [s, size] of SIZES.entries()) {
      const db = handles[s];
      let captured = [];
      const kysely = new Kysely({ dialect: new SqliteDialect({ database: db }), log: (e) => e.level === 'query' && captured.push(e.query) });
      const countMs = median(() => db.prepare('SELECT count(*) AS n FROM units').get());
      for (const q of QUESTIONS) {
        const parsed = parseQuery(q.text);
        const parseMs = median(() => parseQuery(q.text));
        const filters = { orgId, statuses: SEARCHED_STATUSES };
        captured = [];
        await searchUnits(kysely, 'sqlite', parsed.keywords, filters);
        const statements = captured.filter((c) => !/count\(\*\) AS n FROM units$/i.test(c.sql.trim()));
        const searchMs = await medianAsync(() => searchUnits(kysely, 'sqlite', parsed.keywords, filters));
        const vocab = statements.find((c) => /units_fts_vocab/.test(c.sql));
        const match = statements.find((c) => /MATCH/.test(c.sql));
        const vocabRows = vocab ? db.prepare(vocab.sql).all(...vocab.parameters) : [];
        const row = {
          size,
          question: q.name,
          keywords: parsed.keywords,
          vocab: vocabRows.map((r) => `${r.term}:${r.doc}`).sort((a, b) => Number(a.split(':')[1]) - Number(b.split(':')[1])),
          parseMs,
          searchMs,
          countMs,
          vocabMs: vocab ? median(() => db.prepare(vocab.sql).all(...vocab.parameters)) : 0,
          matchMs: null,
          matchExpr: null,
          ftsRows: 0,
          candidates: 0,
        };
        if (match) {
          const expr = match.parameters[0];
          row.matchExpr = expr;
          row.matchMs = median(() => db.prepare(match.sql).all(...match.parameters));
          row.candidates = db.prepare(match.sql).all(...match.parameters).length;
          row.ftsRows = db.prepare('SELECT count(*) FROM units_fts WHERE units_fts MATCH ?').pluck().get(expr);
          const plan = db.prepare(`EXPLAIN QUERY PLAN ${match.sql}`).all(...match.parameters).map((r) => r.detail).join('; ');
          plans.add(`${plan}\n    ${match.sql.replace(/\s+/g, ' ').trim()}`);
        }
        rows.push(row);
      }
      await kysely.destroy(); // closes the handle
    }
  } finally {
    for (const db of handles) if (db.open) db.close();
  }
  return { rows, plans: [...plans] };
}

// --- report -------------------------------------------------------------------------------------

function report({ seeding, checks, stats, questionStats, load, sqlReport, profileSummary }) {
  const cpus = os.cpus();
  const flags = [
    `--sizes ${SIZES.join(',')}`, `--requests ${REQUESTS}`, `--warmup ${WARMUP}`,
    `--load-sizes ${LOAD_SIZES.join(',')}`, `--load-seconds ${LOAD_SECONDS}`, `--load-warmup ${LOAD_WARMUP}`, `--connections ${CONNECTIONS}`,
    `--seed ${SEED}`, ...(opts['no-sql'] ? ['--no-sql'] : [`--sql-reps ${SQL_REPS}`]),
    ...APPLY_SQL.map((s) => `--apply-sql ${JSON.stringify(s)}`),
    ...(opts.profile ? [`--profile ${opts.profile}`] : []),
    ...(opts['server-main'] ? [`--server-main ${SERVER_MAIN}`] : []),
  ];
  const table = (header, rows) => {
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
    const line = (cols) => cols.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ').trimEnd();
    return [line(header), ...rows.map(line)];
  };
  const at = (size) => SIZES.indexOf(size);
  const lines = [
    '',
    `Lemma benchmark: POST /api/v1/inference (local models), ${SIZES.map(fmt).join(' / ')} verified units in one organization, SQLite`,
    `command: node test/scripts/bench-inference.mjs ${flags.join(' ')}`,
    ...(opts['server-main'] ? [`server: ${SERVER_MAIN}`] : []),
    `machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.platform()} ${os.release()}`,
    `node ${process.version}; date ${new Date().toISOString()}`,
    `one server per size; sequential requests on one keep-alive connection, cycling over ${QUESTIONS.length} questions and alternating between the sizes; ${WARMUP} warm-up + ${REQUESTS} measured per size; autocannon ${CONNECTIONS} connections, ${LOAD_WARMUP} s warm-up + ${LOAD_SECONDS} s measured`,
    `load average before: ${loadBefore.map((l) => l.toFixed(2)).join(' ')}; after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    ...(APPLY_SQL.length ? [`applied to every database after seeding: ${APPLY_SQL.join('; ')}`] : []),
    ...(opts.profile ? ['NOTE: the servers ran under --cpu-prof: these figures are slowed by the profiler.'] : []),
    '',
    'seeding (one transaction, FTS5 triggers on):',
    ...seeding.map((s) => `  ${fmt(s.size).padStart(7)} units: +${fmt(s.added)} in ${s.seconds.toFixed(1)} s${s.checkSeconds ? ` (of which ${s.checkSeconds.toFixed(1)} s compiling and running each unit's example)` : ''}, database ${s.mb.toFixed(0)} MiB; index: ${fmt(s.terms)} distinct terms, ${(s.tokens / s.size).toFixed(0)} tokens per unit`),
    'questions (cycled in this order):',
    ...QUESTIONS.map((q) => `  ${q.name}: "${q.text}"${q.answers.length ? ` -> ${q.answers.map((k) => TARGET_UNITS[k].name).join(' + ')}` : ' -> no unit'}`),
    `answers checked on every size before measuring: ${checks.length} (every target question answered by its unit with a verified segment, the unmatched ones by none)`,
    '',
    'latency in ms (send to last byte), all questions together; CPU/req = server CPU ms (user + system) per measured sequential request; req/s and load p50/p99 (ms) under concurrent load',
    '',
    ...table(
      ['units', 'p50', 'p99', 'mean', 'CPU/req', 'req/s', `load p50`, `load p99`],
      SIZES.map((size, s) => {
        const l = load.get(size);
        const cpu = stats[s].cpuMs === undefined ? '-' : stats[s].cpuMs.toFixed(2);
        return [fmt(size), stats[s].p50.toFixed(2), stats[s].p99.toFixed(2), stats[s].mean.toFixed(2), cpu, l ? fmt(l.rps) : '-', l ? String(l.p50) : '-', l ? String(l.p99) : '-'];
      }),
    ),
    '',
    'p50 / p99 per question (ms):',
    '',
    ...table(
      ['question', ...SIZES.map((n) => `@${short(n)}`)],
      QUESTIONS.map((q, i) => [q.name, ...SIZES.map((_, s) => `${questionStats[s][i].p50.toFixed(2)} / ${questionStats[s][i].p99.toFixed(2)}`)]),
    ),
    '',
  ];
  const p50At = at(TARGET_P50_AT) >= 0 ? stats[at(TARGET_P50_AT)].p50 : null;
  lines.push(p50At === null
    ? `target p50 < ${TARGET_P50_MS} ms at ${fmt(TARGET_P50_AT)} units: n/a (size not run)`
    : `target p50 < ${TARGET_P50_MS} ms at ${fmt(TARGET_P50_AT)} units: ${p50At.toFixed(2)} ms  ${p50At < TARGET_P50_MS ? 'MET' : 'MISSED'}`);
  const big = at(TARGET_GROWTH_AT);
  const ratio = p50At !== null && big >= 0 ? stats[big].p50 / p50At : null;
  lines.push(ratio === null
    ? `target p50(${fmt(TARGET_GROWTH_AT)}) / p50(${fmt(TARGET_P50_AT)}) < ${TARGET_GROWTH}x: n/a (size not run)`
    : `target p50(${fmt(TARGET_GROWTH_AT)}) / p50(${fmt(TARGET_P50_AT)}) < ${TARGET_GROWTH}x: ${ratio.toFixed(2)}x  ${ratio < TARGET_GROWTH ? 'MET' : 'MISSED'}`);
  for (const size of LOAD_SIZES) lines.push(`requests/s at ${fmt(size)} units (${CONNECTIONS} connections): ${fmt(load.get(size).rps)}`);

  if (sqlReport) {
    lines.push(
      '',
      `In process (server/dist searchUnits over better-sqlite3, median of ${SQL_REPS} runs, ms): parse = parseQuery; search = the whole searchUnits;`,
      'vocab / match = its two statements alone; fts rows = documents the OR match reads; count = SELECT count(*) FROM units (cached 10 s by the server)',
      '',
      ...table(
        ['units', 'question', 'parse', 'search', 'vocab', 'match', 'fts rows', 'cand', 'count', 'searched (rarest present, :doc freq)'],
        sqlReport.rows.map((r) => [
          fmt(r.size), r.question, r.parseMs.toFixed(2), r.searchMs.toFixed(2), r.vocabMs.toFixed(2), r.matchMs === null ? '-' : r.matchMs.toFixed(2),
          fmt(r.ftsRows), String(r.candidates), r.countMs.toFixed(2), r.matchExpr === null ? '(nothing searched)' : `${r.matchExpr}   [${r.vocab.join(' ')}]`,
        ]),
      ),
      '',
      'match statement plan(s):',
      ...sqlReport.plans.map((p) => `  ${p}`),
    );
  }
  if (profileSummary) lines.push(profileSummary);
  process.stdout.write(lines.join('\n') + '\n');
}

/** User + system CPU seconds of a process so far, from /proc (undefined elsewhere). */
function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime (proc(5) fields 14, 15)
  } catch {
    return undefined;
  }
}

function clockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

function hrtimeUs() {
  return Number(process.hrtime.bigint() / 1000n);
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
  process.stderr.write(`bench-inference: ${message}\n`);
  process.exit(2);
}
