#!/usr/bin/env node
// Benchmark (not a timed test): evaluations per second of Lemma's unit executor, in process, on one
// thread, next to two rules engines making the same decisions:
//   - Lemma: `compileUnit` once (with id + version, so it is the cached compile), `execute` per
//     evaluation (input binding, every CEL expression, the trace, the rendered texts);
//   - ZEN (@gorules/zen-engine, Rust via N-API): a JDM graph (input -> expression / decision-table
//     nodes -> output) created once with `createDecision`, `await decision.evaluate()` per evaluation;
//   - json-rules-engine: an Engine with its rules and facts built once, `await engine.run(facts)` per
//     evaluation, its events turned into the decision.
// Two scenarios: a 6-step program (loan-to-value credit decision with an exception) and a 5-factor
// weighted framework (credit risk). Before anything is timed, all three must give identical outputs
// on the same varied inputs (boundaries + deterministic pseudo-random); otherwise it exits 1.
// Timing: a tight loop over those inputs, warm-up first, then --rounds rounds of --seconds each per
// engine (order rotated each round), median reported. Async engines are awaited one at a time; ZEN
// is also shown with a batch of concurrent promises, labelled, for information only. Exit code 0
// whether or not the target (Lemma >= ZEN) is met; see docs/PERFORMANCE.md "Executor throughput".
//
//   npm run bench                       (from the repo root: builds, then runs bench.mjs and this)
//   node test/scripts/bench-executor.mjs [--rounds 3] [--seconds 1.5] [--warmup 0.5]
//                                        [--only <engine substring>] [--server <dist/index.js>]
//
// --only lemma: time only the matching engines (e.g. under `node --cpu-prof`, to profile the
// executor alone); the equivalence check still runs all three.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ZenDecisionContent, ZenEngine } from '@gorules/zen-engine';
import { Engine } from 'json-rules-engine';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '1.5' },
    warmup: { type: 'string', default: '0.5' },
    only: { type: 'string' },
    server: { type: 'string' },
  },
});
const ROUNDS = positive('rounds');
const SECONDS = positive('seconds');
const WARMUP = Number(opts.warmup);
// Another build of the server (e.g. an older commit's server/dist/index.js), for a before/after.
const SERVER_INDEX = path.resolve(opts.server ?? path.join(here, '../../server/dist/index.js'));
const CHECK_RANDOM = 60; // pseudo-random inputs per scenario, besides the hand-picked boundaries
const ZEN_BATCH = 64;
const TARGET = 1.0;

if (!fs.existsSync(SERVER_INDEX)) fail(`${SERVER_INDEX} is missing: build the server first (npm run bench builds it)`);
const { compileUnit, execute } = await import(pathToFileURL(SERVER_INDEX).href);

// ---------------------------------------------------------------------------------------------
// Scenario 1: a 6-step program. Loan-to-value, a base rate in basis points (integers, so no
// engine's number type can disagree on a sum), surcharges by LTV and credit score, a decision, and
// a first-time-buyer exception that overrides the rate.

const loanUnit = {
  id: 'bench-loan-decision',
  version: 1,
  unitType: 'program',
  inputSchema: {
    type: 'object',
    properties: {
      loan_amount: { type: 'number' },
      property_value: { type: 'number' },
      credit_score: { type: 'integer' },
      first_time_buyer: { type: 'boolean' },
    },
    required: ['loan_amount', 'property_value', 'credit_score', 'first_time_buyer'],
  },
  outputSchema: {
    type: 'object',
    properties: { ltv: { type: 'number' }, rate_bps: { type: 'integer' }, decision: { type: 'string' } },
  },
  definition: {
    steps: [
      { id: 'ltv', set: 'ltv', expr: 'loan_amount / property_value' },
      { id: 'base_rate', set: 'rate_bps', expr: '450' },
      { id: 'high_ltv', if: 'ltv > 0.8', set: 'rate_bps', expr: 'rate_bps + 75' },
      { id: 'low_credit', if: 'credit_score < 660', set: 'rate_bps', expr: 'rate_bps + 125' },
      {
        id: 'decision',
        set: 'decision',
        expr: "(ltv > 0.95 || credit_score < 580) ? 'decline' : ((ltv > 0.8 && credit_score < 660) ? 'refer' : 'approve')",
      },
      { id: 'first_time_buyer', if: 'first_time_buyer && credit_score >= 720 && ltv <= 0.9', set: 'rate_bps', expr: '425', exception: true },
    ],
  },
};

const loanJdm = graph([
  expressionNode('ltv', true, { ltv: 'loan_amount / property_value' }),
  decisionTable('decision', 'first', [['ltv', 'ltv'], ['credit', 'credit_score']], [['decision', 'decision']], [
    { ltv: '> 0.95', decision: "'decline'" },
    { credit: '< 580', decision: "'decline'" },
    { ltv: '> 0.8', credit: '< 660', decision: "'refer'" },
    { decision: "'approve'" },
  ]),
  // passThrough off: the response is exactly the three outputs.
  expressionNode('rate', false, {
    ltv: 'ltv',
    decision: 'decision',
    rate_bps:
      'first_time_buyer and credit_score >= 720 and ltv <= 0.9 ? 425 : 450 + (ltv > 0.8 ? 75 : 0) + (credit_score < 660 ? 125 : 0)',
  }),
]);

function loanRulesEngine() {
  const engine = new Engine([], { allowUndefinedFacts: false });
  // A derived fact, computed once per run (the almanac caches it).
  engine.addFact('ltv', async (_params, almanac) => (await almanac.factValue('loan_amount')) / (await almanac.factValue('property_value')));
  const ltvAbove = (v) => ({ fact: 'ltv', operator: 'greaterThan', value: v });
  const creditBelow = (v) => ({ fact: 'credit_score', operator: 'lessThan', value: v });
  engine.addRule({ name: 'decline', conditions: { any: [ltvAbove(0.95), creditBelow(580)] }, event: { type: 'decision', params: { decision: 'decline', rank: 2 } } });
  engine.addRule({ name: 'refer', conditions: { all: [ltvAbove(0.8), creditBelow(660)] }, event: { type: 'decision', params: { decision: 'refer', rank: 1 } } });
  engine.addRule({ name: 'high_ltv', conditions: { all: [ltvAbove(0.8)] }, event: { type: 'surcharge', params: { bps: 75 } } });
  engine.addRule({ name: 'low_credit', conditions: { all: [creditBelow(660)] }, event: { type: 'surcharge', params: { bps: 125 } } });
  engine.addRule({
    name: 'first_time_buyer',
    conditions: {
      all: [
        { fact: 'first_time_buyer', operator: 'equal', value: true },
        { fact: 'credit_score', operator: 'greaterThanInclusive', value: 720 },
        { fact: 'ltv', operator: 'lessThanInclusive', value: 0.9 },
      ],
    },
    event: { type: 'rate_override', params: { bps: 425 } },
  });
  return async (input) => {
    const { events, almanac } = await engine.run(input);
    let rate = 450;
    let override;
    let decision = 'approve';
    let rank = 0;
    for (const e of events) {
      if (e.type === 'surcharge') rate += e.params.bps;
      else if (e.type === 'rate_override') override = e.params.bps;
      else if (e.params.rank > rank) ({ decision, rank } = e.params);
    }
    return { ltv: await almanac.factValue('ltv'), rate_bps: override ?? rate, decision };
  };
}

function loanInputs() {
  const rnd = mulberry32(0x1e44a);
  // Boundaries of every condition (LTV exactly 0.8 / 0.9 / 0.95, scores 580 / 660 / 720).
  const list = [
    [80_000, 100_000, 700, false], [80_000, 100_000, 659, false], [90_000, 100_000, 720, true], [90_000, 100_000, 719, true],
    [95_000, 100_000, 580, false], [95_000, 100_000, 579, true], [96_000, 100_000, 800, true], [50_000, 100_000, 660, false],
    [81_000, 100_000, 660, true], [81_000, 100_000, 640, false],
  ].map(([loan_amount, property_value, credit_score, first_time_buyer]) => ({ loan_amount, property_value, credit_score, first_time_buyer }));
  for (let i = 0; i < CHECK_RANDOM; i++) {
    const property_value = 1000 * Math.round(100 + rnd() * 900);
    list.push({
      property_value,
      loan_amount: 1000 * Math.round((property_value * (0.5 + rnd() * 0.55)) / 1000), // LTV 0.5 .. 1.05
      credit_score: 540 + Math.floor(rnd() * 300),
      first_time_buyer: rnd() < 0.4,
    });
  }
  return list;
}

// ---------------------------------------------------------------------------------------------
// Scenario 2: a 5-factor framework. Weighted credit-risk factors (integer points out of 100), a
// threshold, and a pass/fail text naming the score.

const riskUnit = {
  id: 'bench-credit-risk',
  version: 1,
  unitType: 'framework',
  inputSchema: {
    type: 'object',
    properties: {
      credit_score: { type: 'integer' },
      dti: { type: 'number' },
      years_employed: { type: 'number' },
      missed_payments: { type: 'integer' },
      savings_months: { type: 'integer' },
    },
    required: ['credit_score', 'dti', 'years_employed', 'missed_payments', 'savings_months'],
  },
  outputSchema: {
    type: 'object',
    properties: { score: { type: 'number' }, passed: { type: 'boolean' }, outcome: { type: 'string' } },
  },
  definition: {
    elements: [
      { id: 'credit', label: 'Credit score of 680 or more', weight: 30, when: 'credit_score >= 680' },
      { id: 'dti', label: 'Debt-to-income below 36 %', weight: 25, when: 'dti < 0.36' },
      { id: 'employment', label: 'Two years or more in employment', weight: 15, when: 'years_employed >= 2.0' },
      { id: 'history', label: 'No missed payments', weight: 20, when: 'missed_payments == 0' },
      { id: 'savings', label: 'Three months of savings or more', weight: 10, when: 'savings_months >= 3' },
    ],
    threshold: 60,
    outcomes: { pass: 'Low credit risk (score {{score}}).', fail: 'High credit risk (score {{score}}).' },
  },
};

const RISK_FACTORS = [
  ['credit_score >= 680', 30],
  ['dti < 0.36', 25],
  ['years_employed >= 2', 15],
  ['missed_payments == 0', 20],
  ['savings_months >= 3', 10],
];

const riskJdm = graph([
  // A collect table is how JDM scores weighted factors: every row that holds adds its points.
  decisionTable('factors', 'collect', [['condition', null]], [['points', 'points']],
    RISK_FACTORS.map(([condition, points]) => ({ condition, points: String(points) })), 'factors'),
  expressionNode('score', false, {
    score: 'sum(map(factors, #.points))',
    passed: '$.score >= 60',
    outcome: "$.passed ? 'pass' : 'fail'",
    text: "($.passed ? 'Low' : 'High') + ' credit risk (score ' + string($.score) + ').'",
  }),
]);

function riskRulesEngine() {
  const engine = new Engine([], { allowUndefinedFacts: false });
  const rule = (name, fact, operator, value, points) =>
    engine.addRule({ name, conditions: { all: [{ fact, operator, value }] }, event: { type: 'factor', params: { points } } });
  rule('credit', 'credit_score', 'greaterThanInclusive', 680, 30);
  rule('dti', 'dti', 'lessThan', 0.36, 25);
  rule('employment', 'years_employed', 'greaterThanInclusive', 2, 15);
  rule('history', 'missed_payments', 'equal', 0, 20);
  rule('savings', 'savings_months', 'greaterThanInclusive', 3, 10);
  return async (input) => {
    const { events } = await engine.run(input);
    let score = 0;
    for (const e of events) score += e.params.points;
    const passed = score >= 60;
    return { score, passed, outcome: passed ? 'pass' : 'fail', text: `${passed ? 'Low' : 'High'} credit risk (score ${score}).` };
  };
}

function riskInputs() {
  const rnd = mulberry32(0xc4ed17);
  const list = [
    [680, 0.36, 2, 0, 3], [679, 0.35, 1.9, 1, 2], [680, 0.35, 2, 0, 3], [800, 0.2, 10, 0, 12], [500, 0.6, 0, 3, 0],
    [700, 0.4, 5, 0, 0], [650, 0.3, 3, 0, 6], [690, 0.5, 1, 1, 5],
  ].map(([credit_score, dti, years_employed, missed_payments, savings_months]) => ({ credit_score, dti, years_employed, missed_payments, savings_months }));
  for (let i = 0; i < CHECK_RANDOM; i++) {
    list.push({
      credit_score: 540 + Math.floor(rnd() * 300),
      dti: Math.round((0.1 + rnd() * 0.5) * 100) / 100,
      years_employed: Math.round(rnd() * 150) / 10,
      missed_payments: rnd() < 0.6 ? 0 : 1 + Math.floor(rnd() * 3),
      savings_months: Math.floor(rnd() * 12),
    });
  }
  return list;
}

// ---------------------------------------------------------------------------------------------

const zen = new ZenEngine();
const zenDecision = (jdm) => {
  // Pre-compiled content, as ZEN's docs advise for repeated evaluation.
  const decision = zen.createDecision(new ZenDecisionContent(jdm));
  const evaluate = async (input) => (await decision.evaluate(input)).result;
  evaluate.decision = decision;
  return evaluate;
};

const SCENARIOS = [
  {
    name: 'program',
    title: 'program: loan-to-value credit decision, 6 steps (one exception)',
    inputs: loanInputs(),
    lemma: lemmaEvaluator(loanUnit, (run) => run.outputs),
    zen: zenDecision(loanJdm),
    jre: loanRulesEngine(),
    // The check only means something if every branch was taken.
    coverage: (out) => `${out.decision}${out.rate_bps === 425 ? '+exception' : ''}`,
  },
  {
    name: 'framework',
    title: 'framework: credit risk, 5 weighted factors, threshold 60',
    inputs: riskInputs(),
    lemma: lemmaEvaluator(riskUnit, (run) => ({
      score: run.outcome.score,
      passed: run.outcome.passed,
      outcome: run.outcome.outcome,
      text: run.texts[0],
    })),
    zen: zenDecision(riskJdm),
    jre: riskRulesEngine(),
    coverage: (out) => out.outcome,
  },
];

function lemmaEvaluator(unit, shape) {
  // Compiled once (cached by id@version), like ZEN's createDecision; only execute is per evaluation.
  const compiled = compileUnit(unit);
  return (input) => {
    const run = execute(compiled, input);
    if (run.status !== 'completed') throw new Error(`lemma: ${run.status} ${JSON.stringify(run)}`);
    return shape(run);
  };
}

const started = Date.now();
printHeader();
for (const s of SCENARIOS) await checkSame(s);

const results = [];
for (const s of SCENARIOS) {
  const engines = [
    { key: 'lemma', label: 'Lemma executor', fn: s.lemma, mode: 'sync' },
    { key: 'zen', label: 'ZEN, await each evaluate', fn: s.zen, mode: 'await' },
    { key: 'zen-batch', label: `ZEN, ${ZEN_BATCH} concurrent (info)`, fn: s.zen, mode: 'batch' },
    { key: 'jre', label: 'json-rules-engine, await each run', fn: s.jre, mode: 'await' },
  ].filter((e) => !opts.only || e.key.includes(opts.only) || e.label.toLowerCase().includes(opts.only.toLowerCase()));
  for (const e of engines) {
    e.rounds = [];
    process.stderr.write(`${s.name}: warm-up ${e.label} (${WARMUP} s)\n`);
    await measure(e, s.inputs, WARMUP);
  }
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order, so no engine always runs first (or on a warmer machine).
    for (let k = 0; k < engines.length; k++) {
      const e = engines[(k + round) % engines.length];
      process.stderr.write(`${s.name}: round ${round + 1}/${ROUNDS} ${e.label} (${SECONDS} s)\n`);
      e.rounds.push(await measure(e, s.inputs, SECONDS));
    }
  }
  results.push({ scenario: s, engines, zenCoreUs: opts.only && !'zen'.includes(opts.only) ? undefined : await zenCoreTime(s) });
}
zen.dispose();
report(results);

// ---------------------------------------------------------------------------------------------

/** Runs `e` over the inputs, cycling, for `seconds`; evaluations/s and process CPU µs per evaluation. */
async function measure(e, inputs, seconds) {
  const n = inputs.length;
  const budget = BigInt(Math.round(seconds * 1e9));
  let count = 0;
  let sink = 0;
  let i = 0;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let t = t0;
  // Checking the clock every 200 evaluations keeps its cost out of the loop.
  while (t - t0 < budget) {
    if (e.mode === 'sync') {
      for (let k = 0; k < 200; k++) sink += mark(e.fn(inputs[i++ % n]));
      count += 200;
    } else if (e.mode === 'await') {
      for (let k = 0; k < 200; k++) sink += mark(await e.fn(inputs[i++ % n]));
      count += 200;
    } else {
      for (let k = 0; k < 200; k += ZEN_BATCH) {
        const batch = [];
        for (let j = 0; j < ZEN_BATCH; j++) batch.push(e.fn(inputs[i++ % n]));
        for (const out of await Promise.all(batch)) sink += mark(out);
        count += ZEN_BATCH;
      }
    }
    t = process.hrtime.bigint();
  }
  const cpu = process.cpuUsage(cpu0);
  if (sink !== count) throw new Error(`${e.label}: ${count - sink} evaluations returned nothing`);
  const wallS = Number(t - t0) / 1e9;
  return { evalsPerS: count / wallS, cpuUsPerEval: (cpu.user + cpu.system) / count };
}

/**
 * ZEN's own figure for the graph evaluation (`response.performance`, timed inside the Rust engine),
 * median over the inputs: what an evaluation costs without the async hand-off to ZEN's threads.
 */
async function zenCoreTime(s) {
  const times = [];
  for (let k = 0; k < 2000; k++) {
    const { performance } = await s.zen.decision.evaluate(s.inputs[k % s.inputs.length]);
    const m = /^([\d.]+)\s*(ns|µs|us|ms|s)$/.exec(String(performance).trim());
    if (!m) return undefined;
    times.push(Number(m[1]) * { ns: 1e-3, µs: 1, us: 1, ms: 1e3, s: 1e6 }[m[2]]);
  }
  return median(times);
}

/** 1 for a real answer: a use of the result, so none of the work can be optimized away. */
function mark(out) {
  return out && (out.decision !== undefined || out.outcome !== undefined) ? 1 : 0;
}

/** All three engines must give the same outputs on every input; any difference ends the run. */
async function checkSame(s) {
  const seen = new Map();
  const diffs = [];
  for (const input of s.inputs) {
    const lemma = s.lemma(input);
    const zenOut = await s.zen(input);
    const jre = await s.jre(input);
    if (!sameValue(lemma, zenOut)) diffs.push(`ZEN differs on ${JSON.stringify(input)}:\n  lemma ${JSON.stringify(lemma)}\n  zen   ${JSON.stringify(zenOut)}`);
    if (!sameValue(lemma, jre)) diffs.push(`json-rules-engine differs on ${JSON.stringify(input)}:\n  lemma ${JSON.stringify(lemma)}\n  jre   ${JSON.stringify(jre)}`);
    const c = s.coverage(lemma);
    seen.set(c, (seen.get(c) ?? 0) + 1);
  }
  if (diffs.length > 0) fail(`${s.name}: the engines do not make the same decisions (${diffs.length} differences):\n${diffs.slice(0, 5).join('\n')}`);
  const branches = [...seen].sort().map(([k, v]) => `${k} ${v}`).join(', ');
  console.log(`same outputs: ${s.name}, ${s.inputs.length} inputs, Lemma = ZEN = json-rules-engine (${branches})`);
}

/** Deep equality; numbers within 1e-9 (relative): ZEN computes in decimals, the others in doubles. */
function sameValue(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameValue(a[k], b[k]));
  }
  return a === b;
}

function printHeader() {
  const args = `--rounds ${ROUNDS} --seconds ${SECONDS} --warmup ${WARMUP}${opts.only ? ` --only ${opts.only}` : ''}${opts.server ? ` --server ${opts.server}` : ''}`;
  const direct = `node ${path.relative(path.join(here, '../..'), fileURLToPath(import.meta.url))} ${args}`;
  const cpus = os.cpus();
  console.log(`command: ${process.env.npm_lifecycle_event === 'bench' ? `npm run bench  (${direct})` : direct}`);
  console.log(`machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.platform()} ${os.release()}`);
  console.log(`node ${process.version}; @gorules/zen-engine ${versionOf('@gorules/zen-engine')}; json-rules-engine ${versionOf('json-rules-engine')}; date ${new Date().toISOString()}`);
  console.log(`load average before: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`one thread, tight loop: ${WARMUP} s warm-up, then ${ROUNDS} rounds x ${SECONDS} s per engine (order rotated), median of rounds`);
  console.log('');
}

function report(all) {
  const verdicts = [];
  console.log('');
  for (const { scenario, engines, zenCoreUs } of all) {
    for (const e of engines) {
      e.evalsPerS = median(e.rounds.map((r) => r.evalsPerS));
      e.cpuUsPerEval = median(e.rounds.map((r) => r.cpuUsPerEval));
    }
    const zenRef = engines.find((e) => e.key === 'zen');
    console.log(scenario.title);
    console.log(`${'engine'.padEnd(36)}${'evals/s'.padStart(11)}${'µs/eval'.padStart(10)}${'CPU µs/eval'.padStart(13)}${'vs ZEN'.padStart(9)}  rounds (evals/s)`);
    for (const e of engines) {
      const ratio = zenRef ? (e.evalsPerS / zenRef.evalsPerS).toFixed(2) : '-';
      console.log(
        `${e.label.padEnd(36)}${fmt(e.evalsPerS).padStart(11)}${(1e6 / e.evalsPerS).toFixed(1).padStart(10)}${e.cpuUsPerEval.toFixed(1).padStart(13)}${ratio.padStart(9)}  ${e.rounds.map((r) => fmt(r.evalsPerS)).join(', ')}`,
      );
    }
    const lemma = engines.find((e) => e.key === 'lemma');
    if (lemma && zenRef) {
      const ratio = lemma.evalsPerS / zenRef.evalsPerS;
      const perRound = lemma.rounds.map((r, i) => (r.evalsPerS / zenRef.rounds[i].evalsPerS).toFixed(2)).join(', ');
      verdicts.push({ name: scenario.name, ratio, met: ratio >= TARGET });
      console.log(`Lemma/ZEN: ${ratio.toFixed(2)} (per round ${perRound})`);
    }
    if (zenCoreUs !== undefined) {
      console.log(`ZEN's self-reported graph time (response.performance, median): ${zenCoreUs.toFixed(1)} µs/eval, i.e. at most ${fmt(1e6 / zenCoreUs)} evals/s without the async hand-off`);
    }
    console.log('');
  }
  console.log('CPU µs/eval counts every thread of the process (ZEN evaluates on its own threads); the batch row');
  console.log(`(${ZEN_BATCH} evaluations in flight) is for information: it is not one thread's throughput.`);
  if (verdicts.length > 0) {
    const met = verdicts.every((v) => v.met);
    console.log(`target: Lemma >= ZEN (ratio >= ${TARGET.toFixed(1)}): ${verdicts.map((v) => `${v.name} ${v.ratio.toFixed(2)} ${v.met ? 'MET' : 'MISSED'}`).join('; ')}`);
    console.log(`=> ${met ? 'MET' : 'MISSED'}`);
  }
  console.log(`(total ${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

// ---------------------------------------------------------------------------------------------
// JDM helpers: a linear graph input -> nodes... -> output.

function graph(nodes) {
  const all = [{ id: 'request', type: 'inputNode', name: 'request', position: { x: 0, y: 0 } }, ...nodes, { id: 'response', type: 'outputNode', name: 'response', position: { x: 0, y: 0 } }];
  return {
    nodes: all,
    edges: all.slice(1).map((n, i) => ({ id: `e${i}`, type: 'edge', sourceId: all[i].id, targetId: n.id })),
  };
}

function expressionNode(id, passThrough, expressions) {
  return {
    id,
    name: id,
    type: 'expressionNode',
    position: { x: 0, y: 0 },
    content: {
      passThrough,
      inputField: null,
      outputPath: null,
      executionMode: 'single',
      expressions: Object.entries(expressions).map(([key, value], i) => ({ id: `${id}-${i}`, key, value })),
    },
  };
}

/** `inputs`/`outputs`: [column id, field]; a null field means the cells are whole expressions. */
function decisionTable(id, hitPolicy, inputs, outputs, rows, outputPath = null) {
  return {
    id,
    name: id,
    type: 'decisionTableNode',
    position: { x: 0, y: 0 },
    content: {
      hitPolicy,
      passThrough: true,
      inputField: null,
      outputPath,
      executionMode: 'single',
      inputs: inputs.map(([col, field]) => (field ? { id: col, name: col, field } : { id: col, name: col })),
      outputs: outputs.map(([col, field]) => ({ id: col, name: col, field })),
      rules: rows.map((row, i) => ({ _id: `${id}-${i}`, ...Object.fromEntries([...inputs, ...outputs].map(([col]) => [col, row[col] ?? ''])) })),
    },
  };
}

// ---------------------------------------------------------------------------------------------

/** Small deterministic PRNG, so every run checks and times the same inputs. */
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

function versionOf(pkg) {
  // Walk up from the entry point: neither package exports its package.json.
  let dir = path.dirname(require.resolve(pkg));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const json = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (json.name === pkg) return json.version;
    }
    const up = path.dirname(dir);
    if (up === dir) return '?';
    dir = up;
  }
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function fmt(x) {
  return Math.round(x).toLocaleString('en-US');
}

function positive(name) {
  const v = Number(opts[name]);
  if (!(v > 0)) fail(`--${name} must be a positive number`);
  return v;
}

function fail(message) {
  process.stderr.write(`\nbench-executor: FAILED: ${message}\n`);
  process.exit(1);
}
