#!/usr/bin/env node
// Runs every benchmark, one after the other, each as its own `node` process with the terminal
// (inherited stdio), so one's warm-up, GC and native threads cannot disturb another's figures.
// Stops at the first one that fails and exits with its code. No arguments are passed through:
// run a script directly for its options (see each script's header).
//
//   npm run bench                       (from the repo root: builds, then runs this)
//   node test/scripts/bench-all.mjs
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// In order. To add a benchmark, append its script (relative to this folder).
const BENCHMARKS = [
  'bench.mjs', // HTTP: full stack vs bare Koa on GET /orgs/{slug}/members
  'bench-executor.mjs', // in process: Lemma's executor vs ZEN vs json-rules-engine
  'bench-units.mjs', // HTTP: GET /units with filters at 10,000 and 100,000 units
  'bench-inference.mjs', // HTTP: POST /inference at 1,000 / 10,000 / 100,000 verified units, and under load
  'bench-workflows.mjs', // HTTP: get and compose of a 50-unit workflow among 10,000 units
];

const here = path.dirname(fileURLToPath(import.meta.url));
let current = null;
// Ctrl-C reaches the running benchmark through the terminal: wait for it to clean up (bench.mjs
// stops its servers) rather than die first; passing SIGINT on too would make it exit mid-cleanup.
// SIGTERM is sent to this process alone, so it is passed on.
process.on('SIGINT', () => {
  if (!current) process.exit(130);
});
process.on('SIGTERM', () => {
  if (current) current.kill('SIGTERM');
  else process.exit(143);
});

for (const script of BENCHMARKS) {
  process.stdout.write(`\n=== ${script} ===\n`);
  const { code, signal } = await new Promise((resolve, reject) => {
    current = spawn(process.execPath, [path.join(here, script)], { stdio: 'inherit' });
    current.once('error', reject);
    current.once('exit', (c, s) => resolve({ code: c, signal: s }));
  });
  current = null;
  if (code !== 0) {
    process.stderr.write(`\nbench-all: ${script} failed (${signal ? `signal ${signal}` : `exit code ${code}`}); later benchmarks not run\n`);
    process.exit(code ?? 1);
  }
}
