#!/usr/bin/env node
// Summarizes a V8 `.cpuprofile` (from `node --cpu-prof`): the top functions by self time, the
// top by inclusive (total) time, and self time by package. Used by bench.mjs --profile.
//
//   node test/scripts/cpuprofile-summary.mjs <file.cpuprofile> [top=25]
// (only the measured runs count when bench.mjs left <file>.windows.json beside it)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where a function lives: `pkg/file:line` for node_modules, `node:…` for built-ins, else the file. */
function where(frame) {
  const url = frame.url || '';
  if (!url) return '';
  const nm = url.lastIndexOf('/node_modules/');
  const shown = nm >= 0 ? url.slice(nm + '/node_modules/'.length) : url.replace(/^file:\/\//, '').replace(/^.*\/(server|test)\//, '$1/');
  return `${shown}:${frame.lineNumber + 1}`;
}

function packageOf(frame) {
  const url = frame.url || '';
  if (!url) return frame.functionName ? `(${frame.functionName})` : '(native)';
  if (url.startsWith('node:')) return 'node: (built-ins)';
  const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (m) return m[1];
  if (/\/server\/dist\//.test(url)) return '@lemma/server';
  return url.replace(/^file:\/\//, '');
}

/**
 * `windows`: optional [fromUs, toUs] intervals on the monotonic clock (process.hrtime, which V8's
 * profile timestamps share on Linux): only samples inside them count, e.g. the measured runs
 * without start-up and seeding.
 */
export function summarizeProfile(file, { top = 25, windows } = {}) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  // Self time per node from the sample stream (timeDeltas are in microseconds).
  const selfUs = new Map();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    if (windows && !windows.some(([from, to]) => t >= from && t <= to)) continue;
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
  }
  const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const idle = new Set(['(idle)', '(program)', '(garbage collector)']);

  const keyOf = (n) => `${n.callFrame.functionName || '(anonymous)'}  ${where(n.callFrame)}`;
  const self = new Map();
  const incl = new Map();
  const pkgs = new Map();
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    const k = keyOf(n);
    self.set(k, (self.get(k) ?? 0) + us);
    const p = idle.has(n.callFrame.functionName) ? n.callFrame.functionName : packageOf(n.callFrame);
    pkgs.set(p, (pkgs.get(p) ?? 0) + us);
    // Inclusive: credit every distinct function on this sample's stack once.
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const ck = keyOf(byId.get(cur));
      if (seen.has(ck)) continue;
      seen.add(ck);
      incl.set(ck, (incl.get(ck) ?? 0) + us);
    }
  }
  const idleUs = selfUs.size ? [...selfUs].filter(([id]) => byId.get(id).callFrame.functionName === '(idle)').reduce((a, [, us]) => a + us, 0) : 0;
  const busyUs = totalUs - idleUs;
  const pct = (us) => `${((100 * us) / busyUs).toFixed(1).padStart(5)} %`;
  const table = (m, n, skip = () => false) =>
    [...m]
      .filter(([k]) => !skip(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `  ${pct(us)}  ${k}`)
      .join('\n');
  const rootish = (k) => /^\((root|idle|program)\)/.test(k);
  return [
    `CPU profile ${path.basename(file)}${windows ? ' (measured runs only)' : ''}: ${(totalUs / 1e6).toFixed(1)} s sampled, ${(busyUs / 1e6).toFixed(1)} s busy (percentages are of busy time)`,
    `Top ${top} by self time:`,
    table(self, top, (k) => k.startsWith('(idle)')),
    `Self time by package:`,
    table(pkgs, 15, (k) => k === '(idle)'),
    `Top ${top} by total (inclusive) time:`,
    table(incl, top, rootish),
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: cpuprofile-summary.mjs <file.cpuprofile> [top]\n');
    process.exit(2);
  }
  // bench.mjs --profile leaves the measured intervals in <file>.windows.json.
  const windowsFile = `${file}.windows.json`;
  const windows = fs.existsSync(windowsFile) ? JSON.parse(fs.readFileSync(windowsFile, 'utf8')) : undefined;
  process.stdout.write(summarizeProfile(file, { top: top ? Number(top) : 25, windows }) + '\n');
}
