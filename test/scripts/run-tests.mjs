#!/usr/bin/env node
// Runs the suite on SQLite, then on Postgres (a database per test server, all dropped after the run).
// Without a reachable Postgres it says the Postgres tests were not run — unless LEMMA_REQUIRE_POSTGRES=1
// (CI), where that is a failure. Ends with the plain line "N passed, N failed".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const args = process.argv.slice(2);
const postgresOnly = args.includes('--postgres-only');
const vitestArgs = args.filter((a) => a !== '--postgres-only');
const adminUrl = process.env.LEMMA_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const requirePostgres = process.env.LEMMA_REQUIRE_POSTGRES === '1';
const totals = { passed: 0, failed: 0, skipped: 0 };
let exitCode = 0;

const serverDir = fileURLToPath(new URL('../../server', import.meta.url));
const testDir = fileURLToPath(new URL('..', import.meta.url));

function runVitest(title, env, cwd = testDir, extraArgs = vitestArgs) {
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lemma-vitest-')), 'report.json');
  console.log(`\n=== ${title} ===\n`);
  const result = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extraArgs], {
    stdio: 'inherit',
    cwd,
    env: { ...process.env, ...env },
  });
  if (fs.existsSync(report)) {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + r.numTodoTests;
  }
  if (result.status !== 0) exitCode = 1;
}

// Each test server creates its own database `lemma_t_<run>_<random>` and drops it; whatever a
// crashed run left behind is dropped here.
async function withPostgres(fn) {
  const runId = `${process.pid}${Date.now() % 100000}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    return err;
  }
  await admin.end();
  try {
    fn({ LEMMA_TEST_RUN_ID: runId, LEMMA_TEST_PG_ADMIN_URL: adminUrl });
  } finally {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    const { rows } = await c.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [`lemma_t_${runId}_%`]);
    for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await c.end();
  }
  return undefined;
}

if (!postgresOnly) {
  // The server's own unit tests (executor, validators): no database involved.
  if (vitestArgs.length === 0) runVitest('Server unit tests', {}, serverDir, []);
  runVitest('Lemma tests on sqlite', { LEMMA_TEST_DIALECT: 'sqlite' });
}
const unreachable = await withPostgres((env) => runVitest('Lemma tests on postgres', { ...env, LEMMA_TEST_DIALECT: 'postgres' }));
if (unreachable) {
  const why = `Postgres at ${adminUrl.replace(/\/\/[^@]*@/, '//')} is unreachable (${unreachable.message})`;
  if (requirePostgres || postgresOnly) {
    console.error(`\nFAILED: ${why}; the Postgres suite is required here.`);
    exitCode = 1;
  } else {
    console.log(`\nNOTE: Postgres tests were NOT run: ${why}. Set LEMMA_TEST_PG_ADMIN_URL to run them.`);
  }
}
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(exitCode);
