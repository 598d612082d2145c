#!/usr/bin/env node
// Benchmark (not a timed test): requests/s of the full stack's authenticated, rate-limited,
// validated, enveloped `GET /api/v1/orgs/{slug}/members?limit=20` on SQLite, next to a bare Koa
// handler doing the same query on the same database file (scripts/bare-members-server.mjs), and
// the ratio. One run prints everything; see docs/PERFORMANCE.md.
//
//   npm run bench                       (from the repo root: builds, then runs this)
//   node test/scripts/bench.mjs [--duration 10] [--warmup 2] [--rounds 3] [--connections 10]
//                               [--no-info] [--profile <dir>] [--server-main <path/to/main.js>]
//
// --profile <dir>: both servers run under `node --cpu-prof` (full.cpuprofile, bare.cpuprofile in
// <dir>) and the top functions during the measured runs are printed at the end (the profiler slows
// them down: figures from such a run are not the ones to quote).
//
// Only 127.0.0.1; both servers are child processes stopped (and the temp dir removed) at the end,
// on failure and on Ctrl-C.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { summarizeProfile } from './cpuprofile-summary.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
let SERVER_MAIN = path.resolve(here, '../../server/dist/main.js');
const BARE_SERVER = path.join(here, 'bare-members-server.mjs');
const HOST = '127.0.0.1';
const MEMBERS = 20;
const SLUG = 'bench';
const CLOCK_TICKS = Number(safeExec('getconf', ['CLK_TCK']) || 100);

const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    'no-info': { type: 'boolean', default: false },
    profile: { type: 'string' },
    'server-main': { type: 'string' },
  },
});
// Another build of the server (e.g. an older commit's server/dist/main.js), to compare before/after.
if (opts['server-main']) SERVER_MAIN = path.resolve(opts['server-main']);
const DURATION = Number(opts.duration);
const WARMUP = Number(opts.warmup);
const ROUNDS = Number(opts.rounds);
const CONNECTIONS = Number(opts.connections);

if (!fs.existsSync(SERVER_MAIN)) fail(`${SERVER_MAIN} is missing: build the server first (npm run bench builds it)`);

const loadBefore = os.loadavg();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lemma-bench-'));
const dbFile = path.join(tmp, 'lemma.db');
const children = new Set();
let cleanedUp = false;

async function cleanup() {
  if (cleanedUp) return;
  cleanedUp = true;
  await Promise.all([...children].map((c) => stop(c)));
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.on('SIGINT', () => cleanup().finally(() => process.exit(130)));
process.on('SIGTERM', () => cleanup().finally(() => process.exit(143)));

try {
  await main();
  await cleanup();
} catch (err) {
  await cleanup();
  process.stderr.write(`\nbench: FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

async function main() {
  const serverEnv = {
    ...process.env,
    HOST,
    LEMMA_DATA_DIR: tmp,
    DATABASE_URL: `sqlite:${dbFile}`,
    LOG_LEVEL: 'warn',
    // Far above what a run can send: the limiter still counts every request, never refuses one.
    LEMMA_RATE_LIMIT_READ: '100000000',
    LEMMA_RATE_LIMIT_WRITE: '100000000',
  };

  // An organization with its admin key, then members up to exactly MEMBERS, through the API.
  const init = JSON.parse(
    execFileSync(process.execPath, [SERVER_MAIN, 'init', '--org', SLUG, '--org-name', 'Bench', '--email', 'admin@bench.test', '--json'], {
      env: serverEnv,
      encoding: 'utf8',
    }),
  );
  const auth = { authorization: `Bearer ${init.apiKey}` };
  const membersPath = `/api/v1/orgs/${SLUG}/members?limit=${MEMBERS}`;

  let full = await startFull(serverEnv, 'warn', profileArgs('full'));
  for (let i = 1; i < MEMBERS; i++) {
    const res = await fetch(`${full.url}/api/v1/orgs/${SLUG}/members`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ email: `member${String(i).padStart(2, '0')}@bench.test`, role: i % 2 ? 'viewer' : 'author' }),
    });
    if (res.status !== 201) fail(`seeding member ${i}: ${res.status} ${await res.text()}`);
  }

  const bare = await startChild('bare', [...profileArgs('bare'), BARE_SERVER], { ...process.env, DB_FILE: dbFile, ORG_SLUG: SLUG, PORT: String(await freePort()) }, '/api/v1/orgs/bench/members');

  // Both must answer 200 with the same 20 members before anything is measured.
  const fullBody = await verify('full', full.url + membersPath, auth);
  const bareBody = await verify('bare', bare.url + membersPath, {});
  if (JSON.stringify(fullBody) !== JSON.stringify(bareBody)) {
    fail(`full and bare answers differ:\nfull: ${JSON.stringify(fullBody).slice(0, 400)}\nbare: ${JSON.stringify(bareBody).slice(0, 400)}`);
  }

  const targets = {
    bare: { url: bare.url + membersPath, headers: {}, pid: bare.child.pid },
    full: { url: full.url + membersPath, headers: auth, pid: full.child.pid },
  };
  const results = { bare: [], full: [] };
  const windows = { bare: [], full: [] }; // when each was under measured load (for --profile)
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so that neither always runs on a warmer (or hotter) machine.
    for (const name of round % 2 === 0 ? ['bare', 'full'] : ['full', 'bare']) {
      process.stderr.write(`round ${round + 1}/${ROUNDS}: ${name} (warm-up ${WARMUP} s, measured ${DURATION} s)\n`);
      await load(targets[name], WARMUP);
      const from = hrtimeUs();
      results[name].push(await load(targets[name], DURATION));
      windows[name].push([from, hrtimeUs()]);
    }
  }

  let profileSummary = '';
  if (opts.profile) {
    // The profiles are written when the processes exit.
    await Promise.all([stop(full.child), stop(bare.child)]);
    for (const name of ['full', 'bare']) {
      const file = path.join(opts.profile, `${name}.cpuprofile`);
      // Saved beside the profile so that cpuprofile-summary.mjs can window it again later.
      fs.writeFileSync(`${file}.windows.json`, JSON.stringify(windows[name]));
      profileSummary += `\n${name}: ${summarizeProfile(file, { windows: windows[name] })}\n`;
    }
  }

  // One extra run with the access log on (LOG_LEVEL=info, written to a file), unless --no-info.
  let info;
  if (!opts['no-info']) {
    await stop(full.child);
    full = await startFull({ ...serverEnv, LOG_LEVEL: 'info' }, 'info');
    await verify('full (info)', full.url + membersPath, auth);
    process.stderr.write(`extra: full with LOG_LEVEL=info (warm-up ${WARMUP} s, measured ${DURATION} s)\n`);
    const target = { url: full.url + membersPath, headers: auth, pid: full.child.pid };
    await load(target, WARMUP);
    info = await load(target, DURATION);
  }

  report(results, info, profileSummary);
}

/** The full server (`main.js start`) with its stdout/stderr in a file; resolves once /readyz is 200. */
async function startFull(env, logLevel, nodeArgs = []) {
  return startChild(`full-${logLevel}`, [...nodeArgs, SERVER_MAIN, 'start'], { ...env, LOG_LEVEL: logLevel, PORT: String(await freePort()) }, '/readyz');
}

async function startChild(name, args, env, readyPath) {
  const logFile = path.join(tmp, `${name}.log`);
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  children.add(child);
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.once('exit', () => children.delete(child));
  const url = `http://${HOST}:${env.PORT}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      fail(`${name} server exited during start-up:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    }
    try {
      const res = await fetch(url + readyPath);
      await res.arrayBuffer();
      if (res.status === 200) return { child, url };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) fail(`${name} server not ready after 30 s:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function profileArgs(name) {
  if (!opts.profile) return [];
  fs.mkdirSync(opts.profile, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${path.resolve(opts.profile)}`, `--cpu-prof-name=${name}.cpuprofile`];
}

/** SIGTERM, then SIGKILL if it has not exited within 10 s. */
async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await child.exited;
  clearTimeout(timer);
}

async function verify(name, url, headers) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  if (res.status !== 200) fail(`${name}: GET ${url} answered ${res.status}: ${text.slice(0, 400)}`);
  const body = JSON.parse(text);
  if (!Array.isArray(body.data) || body.data.length !== MEMBERS || body.meta?.total !== MEMBERS) {
    fail(`${name}: expected ${MEMBERS} members (data and meta.total), got ${body.data?.length} / ${body.meta?.total}`);
  }
  return body;
}

/**
 * One autocannon run; fails on any error, timeout or non-2xx answer (e.g. a 429). Also returns
 * the server process's CPU time per request (Linux), which other load on the machine disturbs
 * far less than requests/s.
 */
async function load(target, seconds) {
  const cpuBefore = cpuSeconds(target.pid);
  const result = await autocannon({ url: target.url, headers: target.headers, connections: CONNECTIONS, duration: seconds });
  const cpuAfter = cpuSeconds(target.pid);
  if (result.errors || result.timeouts || result.non2xx) {
    fail(`${target.url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`);
  }
  return {
    requests: result.requests.total,
    seconds: result.duration,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUsPerRequest: cpuBefore === undefined || cpuAfter === undefined ? undefined : (1e6 * (cpuAfter - cpuBefore)) / result.requests.total,
  };
}

/** User + system CPU seconds of a process so far, from /proc (undefined elsewhere). */
function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command name: field 14 (utime) and 15 (stime) of proc(5) are at 11 and 12.
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

function report(results, info, profileSummary) {
  const agg = (runs) => ({
    rps: runs.reduce((s, r) => s + r.requests, 0) / runs.reduce((s, r) => s + r.seconds, 0),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuUsPerRequest: runs.some((r) => r.cpuUsPerRequest === undefined) ? undefined : median(runs.map((r) => r.cpuUsPerRequest)),
  });
  const cpu = (r) => (r.cpuUsPerRequest === undefined ? 'n/a' : r.cpuUsPerRequest.toFixed(0));
  const bare = agg(results.bare);
  const full = agg(results.full);
  const cpus = os.cpus();
  const lines = [
    '',
    `Lemma benchmark: GET /api/v1/orgs/{slug}/members?limit=${MEMBERS} (${MEMBERS} rows) on SQLite`,
    `command: npm run bench  (node test/scripts/bench.mjs --duration ${DURATION} --warmup ${WARMUP} --rounds ${ROUNDS} --connections ${CONNECTIONS})`,
    ...(opts['server-main'] ? [`server: ${SERVER_MAIN}`] : []),
    `machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.platform()} ${os.release()}`,
    `node ${process.version}; autocannon in the parent process, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${WARMUP} s warm-up + ${DURATION} s measured`,
    '',
    `load average before: ${loadBefore.map((l) => l.toFixed(2)).join(' ')}; after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (other work on the machine skews req/s)`,
    '',
    pad(['', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'rounds (req/s)']),
    pad(['bare Koa + better-sqlite3', fmt(bare.rps), bare.p50, bare.p99, cpu(bare), results.bare.map((r) => fmt(r.rps)).join(', ')]),
    pad(['full stack (LOG_LEVEL=warn)', fmt(full.rps), full.p50, full.p99, cpu(full), results.full.map((r) => fmt(r.rps)).join(', ')]),
  ];
  if (info) {
    lines.push(pad(['full stack (LOG_LEVEL=info)', fmt(info.rps), info.p50, info.p99, cpu(info), `1 run, access log to a file`]));
  }
  // Each round measures bare and full back to back: the median of those paired ratios is the
  // figure least moved by other load on the machine coming and going.
  const paired = results.full.map((f, i) => (100 * f.rps) / results.bare[i].rps);
  lines.push('', `ratio full/bare: ${((100 * full.rps) / bare.rps).toFixed(1)} % of the bare req/s  (target >= 60 %)`);
  lines.push(`per round: ${paired.map((r) => `${r.toFixed(1)} %`).join(', ')}; median ${median(paired).toFixed(1)} %`);
  if (bare.cpuUsPerRequest !== undefined && full.cpuUsPerRequest !== undefined) {
    lines.push(`ratio by server CPU per request (bare/full): ${((100 * bare.cpuUsPerRequest) / full.cpuUsPerRequest).toFixed(1)} %`);
  }
  if (info) lines.push(`ratio full(info)/bare: ${((100 * info.rps) / bare.rps).toFixed(1)} %`);
  if (opts.profile) lines.push('', 'NOTE: both servers ran under --cpu-prof: these figures are slowed by the profiler.');
  if (profileSummary) lines.push(profileSummary);
  process.stdout.write(lines.join('\n') + '\n');
}

function pad(cols) {
  const widths = [30, 10, 8, 8, 11, 0];
  return cols.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
}
function fmt(n) {
  return Math.round(n).toLocaleString('en-US');
}
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

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

function safeExec(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

function fail(message) {
  throw new Error(message);
}
