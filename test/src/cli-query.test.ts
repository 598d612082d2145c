// `lemma query`, `resume`, `feedback`, `save-segment`: the built binary against a live server,
// without a terminal (pipes) and with one (a pseudo-terminal from util-linux `script`).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createDomain, createUnit, listAuditEntries, listInferenceLogs, listUnits, runInference, verifyUnit, type LemmaClient, type UnitCreate,
} from '@lemma/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { dialect, startTestServer, type Tenant, type TestServer } from './harness.js';

const CLI = fileURLToPath(new URL('../../cli/dist/main.js', import.meta.url));
const HAS_SCRIPT = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

const VACATION_Q = 'How many vacation days does an employee with 12 years of service accrue?';
const VACATION_A = 'An employee with 12 years of service accrues 20 vacation days per year.';
const TERMINATION_Q = 'What is the termination procedure for an employee?';
const CONSENT_Q = 'Has the employee consented to a mutual separation agreement?';
const SICK_Q = 'How many sick leave days does an employee with 2 years of service accrue?';

const program: UnitCreate = {
  name: 'Vacation accrual',
  unitType: 'program',
  domainId: '',
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
};

const protocol: UnitCreate = {
  name: 'Termination procedure',
  unitType: 'protocol',
  domainId: '',
  description: 'How to terminate an employee, with a consent gate for a mutual separation.',
  definition: {
    steps: [
      { id: 'review', text: 'Review the documented termination record with HR.' },
      { id: 'consent', gate: { name: 'consent', question: CONSENT_Q, options: ['yes', 'no'] } },
      { id: 'mutual', if: 'consent == "yes"', text: 'Sign the mutual separation agreement.' },
      { id: 'involuntary', if: 'consent == "no"', text: 'Proceed with an involuntary termination and give written notice.' },
    ],
  },
};

const candidate: UnitCreate = {
  ...program,
  name: 'Sick leave accrual',
  description: 'Sick leave days by years of service.',
  then: 'An employee with {{years_of_service}} years of service accrues {{vacation_days}} sick days per year.',
};

let server: TestServer;
let t: Tenant & { domainId: string; domainSlug: string; candidateId: string };
let configDir: string;

beforeAll(async () => {
  server = await startTestServer();
  const tenant = await server.newTenant('cliq');
  const keys: Record<string, LemmaClient> = {};
  for (const role of ['author', 'reviewer'] as const) {
    keys[role] = (await tenant.addMember(role, role)).client;
  }
  const { data: domain } = await createDomain({ client: tenant.admin, body: { name: 'Workplace' } });
  for (const body of [program, protocol]) {
    const { data } = await createUnit({ client: keys.author!, body: { ...body, domainId: domain.id } });
    await verifyUnit({ client: keys.reviewer!, path: { id: data.id }, body: { action: 'approve' } });
  }
  const { data: cand } = await createUnit({ client: keys.author!, body: { ...candidate, domainId: domain.id } });
  t = { ...tenant, domainId: domain.id, domainSlug: domain.slug, candidateId: cand.id };
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lemma-cli-query-'));
});

/** The environment of the CLI: this server and the tenant's admin key; no config file, no colour forcing. */
function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('LEMMA_') || k === 'FORCE_COLOR' || k === 'NO_COLOR') delete env[k];
  return { ...env, LEMMA_BASE_URL: server.url, LEMMA_API_KEY: t.adminKey, LEMMA_CONFIG: path.join(configDir, 'none.json'), ...extra };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `lemma` with pipes (no terminal). Asynchronous: the server answers in this process. */
function lemma(args: string[], extra: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(extra), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const strip = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `lemma` on a pseudo-terminal (`script -q -e -c … /dev/null`): each step waits for a text
 * to appear on the terminal (after the previous one) and then types its keys.
 */
function lemmaOnTty(args: string[], steps: { waitFor: string; keys: string[] }[], extra: Record<string, string> = {}): Promise<Run & { screen: string }> {
  const command = ['exec', process.execPath, CLI, ...args].map(shellQuote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { env: cliEnv({ TERM: 'xterm-256color', ...extra }), stdio: ['pipe', 'pipe', 'pipe'] });
    let raw = '';
    let stderr = '';
    let from = 0;
    let step = 0;
    let typing = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no progress on the terminal at step ${step}:\n${strip(raw)}`));
    }, 20_000);
    const advance = () => {
      if (typing || step >= steps.length) return;
      const at = strip(raw).indexOf(steps[step]!.waitFor, from);
      if (at < 0) return;
      from = at + steps[step]!.waitFor.length;
      const { keys } = steps[step++]!;
      typing = true;
      // One key at a time, with a pause, as a person types: the prompt re-renders in between.
      void (async () => {
        for (const key of keys) {
          await new Promise((r) => setTimeout(r, 150));
          child.stdin.write(key);
        }
        typing = false;
        advance();
      })();
    };
    child.stdout.on('data', (d: Buffer) => {
      raw += d.toString();
      advance();
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      child.stdin.end();
      resolve({ code, stdout: raw, stderr, screen: strip(raw) });
    });
  });
}

const DOWN = '\x1b[B';
const ENTER = '\r';
const CTRL_C = '\x03';

describe(`lemma query [${dialect}]`, () => {
  it('prints a verified answer with plain markers, a legend, the trust summary, coverage, units and the log id', async () => {
    const r = await lemma(['query', VACATION_Q]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/\x1b\[/);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`[verified] ${VACATION_A}  (unit: Vacation accrual)`);
    expect(r.stdout).toContain('Legend: [verified] from a verified unit · [expert] from a partially verified unit · [synth] synthesized, not verified · [neural] written by a model, not verified');
    expect(r.stdout).toContain('Trust: 1 verified, 0 expert-reviewed, 0 synthesized, 0 neural');
    expect(r.stdout).toContain('Coverage: 100% (full_coverage)');
    expect(r.stdout).toMatch(/Units used:\n {2}Vacation accrual {2}program, verified, score 1\n/);
    expect(r.stdout).toMatch(/Inference log: inf_\S+/);
  });

  it('FORCE_COLOR colours the segments by level, with the same legend; --no-color wins over it', async () => {
    const colored = await lemma(['query', VACATION_Q], { FORCE_COLOR: '1' });
    expect(colored.code, colored.stderr).toBe(0);
    expect(colored.stdout).toContain(`\x1b[32m[verified] ${VACATION_A}\x1b[39m`);
    expect(strip(colored.stdout)).toContain('Legend: [verified] from a verified unit · [expert] from a partially verified unit');
    const plain = await lemma(['--no-color', 'query', VACATION_Q], { FORCE_COLOR: '1' });
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toMatch(/\x1b\[/);
  });

  it('--json prints the API data as is', async () => {
    const r = await lemma(['--json', 'query', VACATION_Q, '--domain', t.domainSlug]);
    expect(r.code, r.stderr).toBe(0);
    const printed = JSON.parse(r.stdout) as { inferenceLogId: string };
    const { data: direct } = await runInference({ client: t.admin, body: { query: VACATION_Q, domainId: t.domainId } });
    expect(printed).toEqual({ ...direct, inferenceLogId: printed.inferenceLogId });
    expect(printed.inferenceLogId).toMatch(/^inf_/);
    expect(printed.inferenceLogId).not.toBe(direct.inferenceLogId);
  });

  it('--include-unverified brings in candidate units as [synth]; --domain takes an id or a slug', async () => {
    const without = await lemma(['query', SICK_Q, '--domain', t.domainId]);
    expect(without.code, without.stderr).toBe(0);
    expect(without.stdout).not.toContain('Sick leave accrual');
    const withIt = await lemma(['query', SICK_Q, '--include-unverified', '--domain', t.domainSlug]);
    expect(withIt.code, withIt.stderr).toBe(0);
    expect(withIt.stdout.split('\n')[0]).toBe('[synth] An employee with 2 years of service accrues 10 sick days per year.  (unit: Sick leave accrual)');
    expect(withIt.stdout).toContain('Sick leave accrual  program, candidate, score 0');
    expect(withIt.stdout).toContain('(neural_only)');
    const unknown = await lemma(['query', SICK_Q, '--domain', 'no-such-domain']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no domain with the slug "no-such-domain"');
  });

  it('a paused run without a terminal prints the session and its questions and exits 4; resume finishes it', async () => {
    const r = await lemma(['query', TERMINATION_Q]);
    expect(r.code, r.stderr).toBe(4);
    const sessionId = /session (ses_\S+)\)/.exec(r.stdout)?.[1];
    expect(sessionId).toMatch(/^ses_/);
    expect(r.stdout).toContain('[verified] Review the documented termination record with HR.');
    expect(r.stdout).toContain(`  consent: ${CONSENT_Q} [yes|no]`);
    expect(r.stdout).toContain(`Answer with: lemma resume ${sessionId} --answer consent=<yes|no>`);

    // A wrong answer is the API's 400, naming the field; the session stays paused.
    const wrong = await lemma(['resume', sessionId!, '--answer', 'consent=maybe']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('VALIDATION_ERROR');
    expect(wrong.stderr).toContain('(field: additionalInputs.consent)');
    expect(wrong.stderr).not.toMatch(/\n\s+at /);

    // Resuming without answers asks again (here: prints the questions, exit 4).
    const again = await lemma(['--json', 'resume', sessionId!]);
    expect(again.code).toBe(4);
    expect(JSON.parse(again.stdout)).toMatchObject({ sessionId, pendingQuestions: [{ name: 'consent', options: ['yes', 'no'] }] });

    const done = await lemma(['resume', sessionId!, '--answer', 'consent=yes']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout.split('\n')[0]).toBe('[verified] Review the documented termination record with HR. Sign the mutual separation agreement.  (unit: Termination procedure)');
    expect(done.stdout).toContain('Coverage: 100% (full_coverage)');

    const gone = await lemma(['resume', sessionId!, '--answer', 'consent=no']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('NOT_FOUND');
  });

  it('--json on a pause prints the data and still exits 4', async () => {
    const r = await lemma(['--json', 'query', TERMINATION_Q]);
    expect(r.code).toBe(4);
    const data = JSON.parse(r.stdout) as { sessionId: string; pendingQuestions: unknown[] };
    expect(data.sessionId).toMatch(/^ses_/);
    expect(data.pendingQuestions).toEqual([{ name: 'consent', question: CONSENT_Q, options: ['yes', 'no'] }]);
  });

  it('--answer answers ahead of time; a malformed --answer is a usage error (2)', async () => {
    const r = await lemma(['query', TERMINATION_Q, '--answer', 'consent=no']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Proceed with an involuntary termination and give written notice.');
    expect(r.stdout).not.toContain('Paused');

    for (const bad of ['consent', 'consent=', '=yes']) {
      const u = await lemma(['query', TERMINATION_Q, '--answer', bad]);
      expect(u.code, bad).toBe(2);
      expect(u.stderr).toContain('expected name=value');
    }
    const twice = await lemma(['resume', 'ses_x', '--answer', 'consent=yes', '--answer', 'consent=no']);
    expect(twice.code).toBe(2);
    // A gate the run does not ask is the API's 400, naming it.
    const stray = await lemma(['query', VACATION_Q, '--answer', 'mood=happy']);
    expect(stray.code).toBe(1);
    expect(stray.stderr).toContain('(field: additionalInputs.mood)');
  });

  it('feedback records a verdict on a segment; bad arguments are usage errors', async () => {
    const asked = await lemma(['--json', 'query', VACATION_Q]);
    const { inferenceLogId } = JSON.parse(asked.stdout) as { inferenceLogId: string };
    const r = await lemma(['feedback', inferenceLogId, '0', 'confirm', '--comment', 'Matches the handbook.']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Recorded confirm for segment 0 of ${inferenceLogId} \\(fb_\\S+\\)\\.`));
    const json = await lemma(['--json', 'feedback', inferenceLogId, '0', 'incorrect']);
    expect(JSON.parse(json.stdout)).toMatchObject({ inferenceLogId, segmentIndex: 0, feedback: 'incorrect', comment: null, userId: t.adminUserId });
    const { data: audit } = await listAuditEntries({ client: t.admin, query: { action: 'inference.feedback', resourceId: inferenceLogId } });
    expect(audit).toHaveLength(2);

    expect((await lemma(['feedback', inferenceLogId, 'first', 'confirm'])).code).toBe(2);
    expect((await lemma(['feedback', inferenceLogId, '0', 'great'])).code).toBe(2);
    const beyond = await lemma(['feedback', inferenceLogId, '5', 'confirm']);
    expect(beyond.code).toBe(1);
    expect(beyond.stderr).toContain('(field: segmentIndex)');
  });

  it('save-segment drafts a candidate unit in the domain', async () => {
    const r = await lemma(['save-segment', 'If an employee works on a public holiday, they are paid double time.', '--domain', t.domainSlug]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Saved as a candidate pattern unit: .+ \(unit_\S+\)\./);
    expect(r.stdout).toContain('an employee works on a public holiday');
    const json = await lemma(['--json', 'save-segment', 'Employees get a paid lunch break.', '--domain', t.domainId, '--type', 'program']);
    expect(json.code, json.stderr).toBe(0);
    const unit = JSON.parse(json.stdout) as { id: string };
    expect(unit).toMatchObject({ status: 'candidate', unitType: 'program', domainId: t.domainId });
    const { data: units } = await listUnits({ client: t.admin, query: { status: 'candidate', domainId: t.domainId, limit: 200 } });
    expect(units.map((u) => u.id)).toContain(unit.id);

    expect((await lemma(['save-segment', 'x'])).code).toBe(2);
    expect((await lemma(['save-segment', 'x', '--domain', t.domainId, '--type', 'rule'])).code).toBe(2);
  });

  describe.runIf(HAS_SCRIPT)('on a terminal', () => {
    it('asks a gate with a selectable list and resumes with the pick', async () => {
      const r = await lemmaOnTty(['query', TERMINATION_Q], [{ waitFor: CONSENT_Q, keys: [DOWN, ENTER] }]);
      expect(r.code, r.screen).toBe(0);
      expect(r.screen).toContain('Answer so far:');
      expect(r.screen).toMatch(/Paused: 1 question to answer \(session ses_\S+\)\.\n\? Has the employee consented/);
      expect(r.screen).toContain('Proceed with an involuntary termination and give written notice.');
      expect(r.screen).toContain('Coverage: 100% (full_coverage)');
      // Colour on a terminal: the verified segment is green.
      expect(r.stdout).toMatch(/\x1b\[32m\[verified\] Review the documented termination record with HR\. Proceed/);
      // The resume was logged against the same session as the pause.
      const { data: logs } = await listInferenceLogs({ client: t.admin, query: { limit: 5 } });
      expect(logs[0]!.sessionId).toMatch(/^ses_/);
      expect(logs[1]!.sessionId).toBe(logs[0]!.sessionId);
    });

    it('Ctrl-C at a question exits 130 with no stack trace and names the session to resume', async () => {
      const r = await lemmaOnTty(['query', TERMINATION_Q], [{ waitFor: CONSENT_Q, keys: [CTRL_C] }], { NO_COLOR: '1' });
      expect(r.code, r.screen).toBe(130);
      // NO_COLOR is honoured on a terminal too: plain markers.
      expect(r.stdout).toContain('\r\n[verified] Review the documented termination record with HR.  (unit: Termination procedure)\r\n');
      const sessionId = /lemma resume (ses_\S+) --answer consent=<yes\|no>/.exec(r.screen)?.[1];
      expect(sessionId, r.screen).toMatch(/^ses_/);
      expect(r.screen).toContain('error: interrupted');
      expect(r.screen).not.toMatch(/\n\s+at /);
      // The session is still paused: a later resume finishes it.
      const done = await lemma(['resume', sessionId!, '--answer', 'consent=yes']);
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toContain('Sign the mutual separation agreement.');
    });
  });
});
