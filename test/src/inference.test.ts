import fs from 'node:fs';
import {
  createApiKey, createDomain, createLemmaClient, createUnit, generateUnitsFromGaps, listAuditEntries, listInferenceLogs, runInference, saveSegmentAsUnit, submitInferenceFeedback, updateUnit, verifyUnit, type LemmaClient, type UnitCreate,
} from '@lemma/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractCheckingFetch } from './contract-check.js';
import { expectError } from './expect-error.js';
import { dialect, startTestServer, type Tenant, type TestServer } from './harness.js';
import { spawnServer } from './processes.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

interface World extends Tenant {
  domainId: string;
  author: LemmaClient;
  reviewer: LemmaClient;
  viewer: LemmaClient;
  viewerUserId: string;
  units: Record<string, string>;
}

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

const framework: UnitCreate = {
  name: 'Mortgage credit risk',
  unitType: 'framework',
  domainId: '',
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
};

const pattern: UnitCreate = {
  name: 'Overtime eligibility',
  unitType: 'pattern',
  domainId: '',
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
};

const argument: UnitCreate = {
  name: 'Contract enforceability',
  unitType: 'argument',
  domainId: '',
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
};

const protocol: UnitCreate = {
  name: 'Termination procedure',
  unitType: 'protocol',
  domainId: '',
  description: 'How to terminate an employee, with a consent gate for a mutual separation.',
  definition: {
    steps: [
      { id: 'review', text: 'Review the documented termination record with HR.' },
      { id: 'consent', gate: { name: 'consent', question: 'Has the employee consented to a mutual separation agreement?', options: ['yes', 'no'] } },
      { id: 'mutual', if: 'consent == "yes"', text: 'Sign the mutual separation agreement.' },
      { id: 'involuntary', if: 'consent == "no"', text: 'Proceed with an involuntary termination and give written notice.' },
    ],
  },
};

/** A tenant with the five unit types: all verified except the framework (partial_verified). */
async function world(): Promise<World> {
  const t = await server.newTenant('inf');
  const people: Record<string, { client: LemmaClient; userId: string }> = {};
  for (const role of ['author', 'reviewer', 'viewer'] as const) {
    people[role] = await t.addMember(role, role);
  }
  const { data: domain } = await createDomain({ client: t.admin, body: { name: 'Workplace' } });
  const units: Record<string, string> = {};
  for (const body of [program, framework, pattern, argument, protocol]) {
    const { data } = await createUnit({ client: people.author!.client, body: { ...body, domainId: domain.id } });
    units[body.unitType] = data.id;
    const partial = body.unitType === 'framework';
    await verifyUnit({
      client: people.reviewer!.client,
      path: { id: data.id },
      body: partial ? { action: 'approve', elementReviews: [{ elementId: 'stable_job', action: 'reweight_element', value: 2 }] } : { action: 'approve' },
    });
  }
  return { ...t, domainId: domain.id, author: people.author!.client, reviewer: people.reviewer!.client, viewer: people.viewer!.client, viewerUserId: people.viewer!.userId, units };
}

const ask = (client: LemmaClient, body: Parameters<typeof runInference>[0]['body']) => runInference({ client, body }).then((r) => r.data);

describe(`inference [${dialect}]`, () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
  });

  it('a program answers with a verified segment: full coverage', async () => {
    const data = await ask(w.viewer, { query: 'How many vacation days does an employee with 12 years of service accrue?' });
    expect(data.segments).toEqual([
      { text: 'An employee with 12 years of service accrues 20 vacation days per year.', trustLevel: 'verified', unitId: w.units.program, unitName: 'Vacation accrual' },
    ]);
    expect(data).toMatchObject({
      response: 'An employee with 12 years of service accrues 20 vacation days per year.',
      trustSummary: { verified: 1, expertReviewed: 0, synthesized: 0, neural: 0 },
      coveragePercent: 100,
      mode: 'full_coverage',
      sessionId: null,
      pendingQuestions: [],
      modelsUsed: { parse: { provider: 'local' }, evaluate: { provider: 'local' }, prose: { provider: 'local' } },
    });
    expect(data.unitsUsed).toEqual([{ id: w.units.program, name: 'Vacation accrual', type: 'program', status: 'verified', verificationScore: 1 }]);
    expect(data.inferenceLogId).toMatch(/^inf_/);
  });

  it('a partially verified framework answers as expert_reviewed', async () => {
    const data = await ask(w.viewer, { query: 'What is the mortgage credit risk for an applicant with a credit score of 720 who has been employed for 3 years?' });
    expect(data.segments).toEqual([
      { text: 'The mortgage credit risk is low (score 3 of 3).', trustLevel: 'expert_reviewed', unitId: w.units.framework, unitName: 'Mortgage credit risk' },
    ]);
    expect(data).toMatchObject({ coveragePercent: 100, mode: 'full_coverage', trustSummary: { expertReviewed: 1 } });
    expect(data.unitsUsed[0]).toMatchObject({ status: 'partial_verified', verificationScore: 0.5 });
  });

  it('a pattern fires on its conditions, and says so when they do not hold', async () => {
    const owed = await ask(w.viewer, { query: 'Is an employee who is not exempt and worked 45 hours owed overtime?' });
    expect(owed.segments).toEqual([
      { text: 'An employee who worked 45 hours and is not exempt is owed overtime pay.', trustLevel: 'verified', unitId: w.units.pattern, unitName: 'Overtime eligibility' },
    ]);
    const notOwed = await ask(w.viewer, { query: 'Is an employee who is not exempt and worked 38 hours owed overtime?' });
    expect(notOwed.segments[0]).toMatchObject({ trustLevel: 'verified', unitId: w.units.pattern });
    expect(notOwed.segments[0]!.text).toContain('over_forty');
  });

  it('an argument stands, or falls to its rebuttal', async () => {
    const stands = await ask(w.viewer, { query: 'Is a signed contract enforceable when the party age is 30?' });
    expect(stands.segments.map((s) => [s.text, s.trustLevel])).toEqual([['The signed contract is enforceable.', 'verified']]);
    const falls = await ask(w.viewer, { query: 'Is a signed contract enforceable when the party age is 16?' });
    expect(falls.segments[0]!.text).toContain('A party aged 16 is a minor, who may void the contract.');
    expect(falls.segments[0]!.text).not.toContain('The signed contract is enforceable.');
  });

  it('a protocol gate pauses the run; resuming with an answer finishes it; the session then is gone', async () => {
    const paused = await ask(w.viewer, { query: 'What is the termination procedure for an employee?' });
    expect(paused.sessionId).toMatch(/^ses_/);
    expect(paused.pendingQuestions).toEqual([{ name: 'consent', question: 'Has the employee consented to a mutual separation agreement?', options: ['yes', 'no'] }]);
    expect(paused.segments).toEqual([{ text: 'Review the documented termination record with HR.', trustLevel: 'verified', unitId: w.units.protocol, unitName: 'Termination procedure' }]);

    await expectError(runInference({ client: w.viewer, body: { sessionId: paused.sessionId!, additionalInputs: { consent: 'maybe' } } }), 400, 'VALIDATION_ERROR', 'additionalInputs.consent');
    await expectError(runInference({ client: w.viewer, body: { sessionId: paused.sessionId!, additionalInputs: { mood: 'yes' } } }), 400, 'VALIDATION_ERROR', 'additionalInputs.mood');
    const other = await server.newTenant('inf-other');
    await expectError(runInference({ client: other.admin, body: { sessionId: paused.sessionId!, additionalInputs: { consent: 'yes' } } }), 404, 'NOT_FOUND');

    const done = await ask(w.viewer, { sessionId: paused.sessionId!, additionalInputs: { consent: 'yes' } });
    expect(done).toMatchObject({ sessionId: paused.sessionId, pendingQuestions: [], mode: 'full_coverage', coveragePercent: 100 });
    expect(done.segments.map((s) => s.text)).toEqual(['Review the documented termination record with HR. Sign the mutual separation agreement.']);
    expect(done.inferenceLogId).not.toBe(paused.inferenceLogId);
    await expectError(runInference({ client: w.viewer, body: { sessionId: paused.sessionId!, additionalInputs: { consent: 'no' } } }), 404, 'NOT_FOUND');
    await expectError(runInference({ client: w.viewer, body: { sessionId: 'ses_unknown', additionalInputs: { consent: 'no' } } }), 404, 'NOT_FOUND');
  });

  it('an expired session is 404 and cannot be resumed', async () => {
    const paused = await ask(w.viewer, { query: 'What is the termination procedure for an employee?' });
    await server.deps.store.db.updateTable('inference_sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', paused.sessionId!).execute();
    await expectError(runInference({ client: w.viewer, body: { sessionId: paused.sessionId!, additionalInputs: { consent: 'yes' } } }), 404, 'NOT_FOUND');
  });

  it('answers given ahead of time skip the pause', async () => {
    const data = await ask(w.viewer, { query: 'What is the termination procedure for an employee?', additionalInputs: { consent: 'no' } });
    expect(data.pendingQuestions).toEqual([]);
    expect(data.segments[0]!.text).toContain('Proceed with an involuntary termination');
  });

  it('partial coverage: an uncovered part is said plainly and recorded as a gap; neural_only when nothing matches', async () => {
    const partial = await ask(w.viewer, { query: 'How many vacation days does an employee with 6 years of service accrue? How many weeks of sabbatical leave does a professor get?' });
    expect(partial).toMatchObject({ mode: 'partial_coverage', coveragePercent: 50, trustSummary: { verified: 1, synthesized: 1, neural: 0 } });
    expect(partial.segments[0]).toMatchObject({ trustLevel: 'verified', text: 'An employee with 6 years of service accrues 15 vacation days per year.' });
    expect(partial.segments[1]).toMatchObject({ trustLevel: 'synthesized', unitId: null });
    expect(partial.segments[1]!.text).toContain('sabbatical');

    const none = await ask(w.viewer, { query: 'What is the boiling point of mercury?' });
    expect(none).toMatchObject({ mode: 'neural_only', coveragePercent: 0, unitsUsed: [] });
    expect(none.segments.every((s) => s.trustLevel === 'synthesized' && s.unitId === null)).toBe(true);
  });

  it('missing inputs: the matched unit says which to give, and does not run', async () => {
    const data = await ask(w.viewer, { query: 'What is the mortgage credit risk for an applicant with a credit score of 700?' });
    expect(data.unitsUsed).toEqual([]);
    expect(data.segments).toEqual([expect.objectContaining({ trustLevel: 'synthesized', unitId: w.units.framework })]);
    expect(data.segments[0]!.text).toContain('Years employed (years_employed)');
    expect(data.mode).toBe('neural_only');
  });

  it('includeUnverified brings in candidate units as synthesized', async () => {
    const { data: candidate } = await createUnit({
      client: w.author,
      body: { ...program, name: 'Sick leave accrual', domainId: w.domainId, then: 'An employee with {{years_of_service}} years of service accrues {{vacation_days}} sick days per year.', description: 'Sick leave days by years of service.' },
    });
    const q = 'How many sick leave days does an employee with 2 years of service accrue?';
    const without = await ask(w.viewer, { query: q });
    expect(without.unitsUsed.map((u) => u.id)).not.toContain(candidate.id);
    const withUnverified = await ask(w.viewer, { query: q, includeUnverified: true });
    expect(withUnverified.segments[0]).toMatchObject({ unitId: candidate.id, trustLevel: 'synthesized', text: 'An employee with 2 years of service accrues 10 sick days per year.' });
    expect(withUnverified.unitsUsed[0]).toMatchObject({ id: candidate.id, status: 'candidate' });
    // Synthesized segments do not cover the question.
    expect(withUnverified.mode).toBe('neural_only');
  });

  it('filters by domain and jurisdiction; an unknown domain is 404', async () => {
    const { data: other } = await createDomain({ client: w.admin, body: { name: 'Elsewhere' } });
    const none = await ask(w.viewer, { query: 'How many vacation days does an employee with 12 years of service accrue?', domainId: other.id });
    expect(none.unitsUsed).toEqual([]);
    await expectError(runInference({ client: w.viewer, body: { query: 'vacation days', domainId: 'dom_nope' } }), 404, 'NOT_FOUND', 'domainId');
    await expectError(runInference({ client: w.viewer, body: { query: '' } }), 400, 'VALIDATION_ERROR', 'query');
    await expectError(runInference({ client: w.viewer, body: { query: 'x'.repeat(4001) } }), 400, 'VALIDATION_ERROR', 'query');
    await expectError(runInference({ client: w.viewer, body: {} }), 400, 'VALIDATION_ERROR', 'query');
  });

  it('an API key without the inference permission is refused', async () => {
    const { data: k } = await createApiKey({ client: w.admin, path: { slug: w.slug }, body: { name: 'no-inference', role: 'viewer', permissions: [] } });
    await expectError(runInference({ client: server.client(k.key), body: { query: 'vacation days' } }), 403, 'FORBIDDEN');
  });

  it('logs every run and resume, the query readable through the API only; feedback is audited', async () => {
    const marker = `zanzibarian${Date.now()}`;
    const data = await ask(w.viewer, { query: `How many vacation days does an employee with 7 years of service accrue in ${marker}?` });
    const { data: mine } = await listInferenceLogs({ client: w.viewer, query: { limit: 200 } });
    const entry = mine.find((e) => e.id === data.inferenceLogId)!;
    expect(entry).toMatchObject({ userId: w.viewerUserId, mode: 'full_coverage', coveragePercent: 100, trustSummary: { verified: 1 } });
    expect(entry.query).toContain(marker);
    expect(entry.unitsFired).toEqual([{ id: w.units.program, name: 'Vacation accrual', type: 'program', status: 'verified', verificationScore: 1, version: 1 }]);
    expect(entry.inputVariables).toEqual({ [w.units.program!]: { years_of_service: 7 } });
    expect(entry.outputVariables).toEqual({ [w.units.program]: { vacation_days: 15 } });
    expect(entry.executionTrace.map((s) => s.stage)).toEqual(expect.arrayContaining(['parse', 'match', 'execute', 'prose', 'audit']));
    // Others see only their own; admins see everyone's.
    const { data: authorsView } = await listInferenceLogs({ client: w.author });
    expect(authorsView.find((e) => e.id === data.inferenceLogId)).toBeUndefined();
    const { data: adminsView } = await listInferenceLogs({ client: w.admin, query: { userId: w.viewerUserId, limit: 200 } });
    expect(adminsView.find((e) => e.id === data.inferenceLogId)?.query).toContain(marker);

    const { data: fb } = await submitInferenceFeedback({ client: w.viewer, body: { inferenceLogId: data.inferenceLogId, segmentIndex: 0, feedback: 'confirm', comment: 'Matches the handbook.' } });
    expect(fb).toMatchObject({ inferenceLogId: data.inferenceLogId, segmentIndex: 0, feedback: 'confirm', userId: w.viewerUserId });
    await expectError(submitInferenceFeedback({ client: w.viewer, body: { inferenceLogId: data.inferenceLogId, segmentIndex: 1, feedback: 'confirm' } }), 400, 'VALIDATION_ERROR', 'segmentIndex');
    await expectError(submitInferenceFeedback({ client: w.author, body: { inferenceLogId: data.inferenceLogId, segmentIndex: 0, feedback: 'incorrect' } }), 404, 'NOT_FOUND');
    const { data: audit } = await listAuditEntries({ client: w.admin, query: { action: 'inference.feedback' } });
    expect(audit[0]).toMatchObject({ resourceId: data.inferenceLogId, details: { segmentIndex: 0, feedback: 'confirm' } });

    // The question is nowhere in the database in plaintext.
    expect(await plaintextFound(marker)).toBe(false);
  });

  it('saves a segment as a candidate unit (author+), audited', async () => {
    const { data: unit } = await saveSegmentAsUnit({
      client: w.author,
      body: { segmentText: 'If an employee works on a public holiday, they are paid double time.', domainId: w.domainId },
    });
    expect(unit).toMatchObject({ status: 'candidate', version: 1, unitType: 'pattern', when: 'an employee works on a public holiday', then: 'they are paid double time.' });
    await expectError(saveSegmentAsUnit({ client: w.viewer, body: { segmentText: 'x', domainId: w.domainId } }), 403, 'FORBIDDEN');
    await expectError(saveSegmentAsUnit({ client: w.author, body: { segmentText: 'x', domainId: 'dom_nope' } }), 404, 'NOT_FOUND', 'domainId');
    const { data: audit } = await listAuditEntries({ client: w.admin, query: { action: 'inference.saved_as_unit', resourceId: unit.id } });
    expect(audit).toHaveLength(1);
  });

  it('turns the most-asked gaps into candidate units, most asked first, once', async () => {
    const t = await world();
    const q = (query: string) => ask(t.viewer, { query, domainId: t.domainId });
    await q('How many weeks of parental leave does a new parent get?');
    await q('How many weeks of parental leave does a new parent get?');
    await q('What is the dress code policy?');
    const { data: units, meta } = await generateUnitsFromGaps({ client: t.author, body: { domainId: t.domainId, limit: 5 } });
    expect(meta.total).toBe(2);
    expect(units[0]!.name.toLowerCase()).toContain('parental leave');
    expect(units[0]!.description).toContain('2 questions');
    expect(units[1]!.name.toLowerCase()).toContain('dress code');
    expect(units.every((u) => u.status === 'candidate' && u.domainId === t.domainId)).toBe(true);
    const again = await generateUnitsFromGaps({ client: t.author, body: { domainId: t.domainId } });
    expect(again.data).toEqual([]);
    const { data: audit } = await listAuditEntries({ client: t.admin, query: { action: 'units.generated_from_gaps' } });
    expect(audit).toHaveLength(2);
  });

  it('a unit changed while a session is paused makes the resume a 409', async () => {
    const paused = await ask(w.viewer, { query: 'What is the termination procedure for an employee?' });
    await updateUnit({ client: w.author, path: { id: w.units.protocol! }, body: { description: 'Revised procedure.' } });
    await expectError(runInference({ client: w.viewer, body: { sessionId: paused.sessionId!, additionalInputs: { consent: 'yes' } } }), 409, 'CONFLICT');
  });
});

describe.runIf(dialect === 'postgres')('sessions across processes [postgres]', () => {
  it('a run paused on one server process is resumed by another', async () => {
    const w = await world();
    const paused = await ask(w.viewer, { query: 'What is the termination procedure for an employee?' });
    const other = await spawnServer([], { DATABASE_URL: server.database.url, LEMMA_ENCRYPTION_KEY: server.encryptionKey, LEMMA_DATA_DIR: server.database.env.LEMMA_DATA_DIR! });
    try {
      const { data: keyData } = await createApiKey({ client: w.admin, path: { slug: w.slug }, body: { name: 'second', role: 'viewer', permissions: ['inference'] } });
      const client = createLemmaClient({ baseUrl: other.url, apiKey: keyData.key, fetch: contractCheckingFetch() });
      const { data } = await runInference({ client, body: { sessionId: paused.sessionId!, additionalInputs: { consent: 'no' } } });
      expect(data.pendingQuestions).toEqual([]);
      expect(data.segments[0]!.text).toContain('Proceed with an involuntary termination');
    } finally {
      await other.stop();
    }
  });
});

/** Whether a text appears anywhere in the database: the SQLite files' bytes, or every Postgres row. */
async function plaintextFound(text: string): Promise<boolean> {
  if (dialect === 'sqlite') {
    const file = server.database.url.replace(/^sqlite:/, '');
    return [file, `${file}-wal`].filter((f) => fs.existsSync(f)).some((f) => fs.readFileSync(f).includes(Buffer.from(text)));
  }
  const tables = await server.deps.store.db.introspection.getTables();
  for (const table of tables) {
    const rows = await server.deps.store.db.selectFrom(table.name as 'units').selectAll().execute();
    if (JSON.stringify(rows).includes(text)) return true;
  }
  return false;
}
