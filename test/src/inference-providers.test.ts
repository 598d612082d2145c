/**
 * Inference with remote model providers, end to end: the SDK against the in-process server, whose
 * organization settings point the model roles at loopback servers speaking the OpenAI Chat
 * Completions and Anthropic Messages wire formats (fake-llm-servers.ts). Whatever a model says,
 * unit segments keep their trust level and their executor text, model text is only ever
 * synthesized or neural, ungrounded figures are flagged, and every provider failure degrades that
 * role to `local` with an audit warning — never a 500, never a wrong trust tag, never the API key.
 */
import {
  createDomain, createUnit, listAuditEntries, listInferenceLogs, listOrgs, runInference, updateOrg, verifyUnit, type InferenceLogEntry, type InferenceResult, type LemmaClient, type UnitCreate,
} from '@lemma/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  closedBaseUrl, type FakeLlm, type ModelCall, type ProviderName, rateLimited, type Reply, serverError, startFakeLlm, unauthorized, uncoveredParts,
} from './fake-llm-servers.js';
import { dialect, startTestServer, type Tenant, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

const KEYS: Record<ProviderName, string> = {
  openai: 'sk-proj-Lm7Qe2loopbackE2EsecretKey0c4d',
  anthropic: 'sk-ant-api03-loopbackE2EsecretKey-5e8f',
};
const MODELS: Record<ProviderName, string> = { openai: 'gpt-4o-mini', anthropic: 'claude-sonnet-4-20250514' };

// ---------------------------------------------------------------- the world

const vacation: UnitCreate = {
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

/** A declarative unit (no definition): whether its WHEN applies is the evaluate role's call. */
const stipend: UnitCreate = {
  name: 'Home-office stipend',
  unitType: 'pattern',
  domainId: '',
  description: 'Fully remote staff members receive a monthly home-office stipend.',
  when: 'the staff member is fully remote',
  then: 'A fully remote staff member receives a monthly home-office stipend.',
};

interface World extends Tenant {
  units: { vacation: string; stipend: string };
}

/** A tenant with two verified units (authored by the admin, approved by a reviewer). */
async function world(): Promise<World> {
  const t = await server.newTenant('llm');
  const reviewer = (await t.addMember('reviewer', 'reviewer')).client;
  const { data: domain } = await createDomain({ client: t.admin, body: { name: 'Workplace' } });
  const ids: string[] = [];
  for (const body of [vacation, stipend]) {
    const { data } = await createUnit({ client: t.admin, body: { ...body, domainId: domain.id } });
    const { data: verified } = await verifyUnit({ client: reviewer, path: { id: data.id }, body: { action: 'approve' } });
    expect(verified.status).toBe('verified');
    ids.push(data.id);
  }
  return { ...t, units: { vacation: ids[0]!, stipend: ids[1]! } };
}

// ---------------------------------------------------------------- questions

/** One part a unit covers, one it does not. */
const MIXED = 'How many vacation days does an employee with 12 years of service accrue? How many weeks of sabbatical leave does a professor get?';
const SABBATICAL = 'How many weeks of sabbatical leave does a professor get?';
const VERIFIED_TEXT = 'An employee with 12 years of service accrues 20 vacation days per year.';
/** Fully covered; the local parser binds it. */
const COVERED = 'How many vacation days does an employee with 12 years of service accrue?';
/** Two durations: the local parser will not guess which is the years of service; a model can. */
const AMBIGUOUS = 'How many vacation days does an employee accrue who worked 4 years at a previous employer before joining us 11 years ago?';
const REMOTE = 'Does a fully remote staff member receive a home-office stipend?';

const SABBATICAL_ANSWER = 'Sabbatical leave for professors is set by each institution; this is not backed by a verified rule, so check the faculty handbook.';

/** The structured-output schemas the roles ask for. */
const PROSE_SCHEMA = {
  type: 'object',
  properties: {
    intro: { type: ['string', 'null'] },
    uncovered: {
      type: 'array',
      items: { type: 'object', properties: { part: { type: 'integer' }, answer: { type: 'string' } }, required: ['part', 'answer'], additionalProperties: false },
    },
  },
  required: ['intro', 'uncovered'],
  additionalProperties: false,
};
const VACATION_INPUTS_SCHEMA = {
  type: 'object',
  properties: { years_of_service: { type: ['number', 'null'], description: 'Years of service. also called: tenure' } },
  required: ['years_of_service'],
  additionalProperties: false,
};
const APPLIES_SCHEMA = { type: 'object', properties: { applies: { type: 'boolean' } }, required: ['applies'], additionalProperties: false };

/** A well-behaved model: binds what the question states, says rules apply, answers uncovered parts cautiously. */
function honest(call: ModelCall): Reply {
  switch (call.json?.name) {
    case 'inputs': {
      const years = call.user.match(/joining us (\d+) years ago/)?.[1] ?? call.user.match(/(\d+) years of service/)?.[1];
      const values: Record<string, unknown> = {};
      for (const name of Object.keys((call.json.schema.properties ?? {}) as object)) values[name] = name === 'years_of_service' && years ? Number(years) : null;
      return { json: values };
    }
    case 'applies':
      return { json: { applies: true } };
    case 'prose':
      return {
        json: {
          intro: 'Here is what the workplace rules say.',
          uncovered: uncoveredParts(call.user).map(({ part }) => ({ part, answer: SABBATICAL_ANSWER })),
        },
      };
    default:
      return { status: 400, body: { error: { message: `unexpected request ${call.json?.name ?? 'without a schema'}`, type: 'invalid_request_error', param: null, code: null } } };
  }
}

// ---------------------------------------------------------------- helpers

type Role = 'parse' | 'evaluate' | 'prose';
/** A finished run's answer: none of these runs pauses, so every field is there. */
type Answer = Required<InferenceResult>;
type LogEntry = InferenceLogEntry;

async function ask(client: LemmaClient, query: string): Promise<Answer> {
  const { data } = await runInference({ client, body: { query } });
  expect(data.pendingQuestions).toEqual([]);
  for (const field of ['segments', 'trustSummary', 'coveragePercent', 'unitsUsed', 'mode', 'modelsUsed'] as const) expect(data[field]).toBeDefined();
  return data as Answer;
}

async function logOf(client: LemmaClient, id: string): Promise<LogEntry> {
  const { data } = await listInferenceLogs({ client, query: { limit: 20 } });
  const entry = data.find((e) => e.id === id);
  if (!entry) throw new Error(`no inference log ${id}`);
  return entry;
}

/** Trust-level counts as trustSummary names them. */
function counted(segments: Answer['segments']) {
  const count = (level: string) => segments.filter((s) => s.trustLevel === level).length;
  return { verified: count('verified'), expertReviewed: count('expert_reviewed'), synthesized: count('synthesized'), neural: count('neural') };
}

/** Invariants of every answer: levels match their origin, the summary matches the segments, the response is their text. */
function expectWellFormed(data: Answer): void {
  expect(data.trustSummary).toEqual(counted(data.segments));
  expect(data.response).toBe(data.segments.map((s) => s.text).join(' '));
  for (const s of data.segments) {
    if (s.unitId === null) {
      expect(['synthesized', 'neural']).toContain(s.trustLevel);
      expect(s.unitName).toBeNull();
    }
    if (s.trustLevel === 'neural') expect(s.unitId).toBeNull();
  }
}

const degraded = (role: Role, provider: ProviderName, reason: string) =>
  `${role}: the ${provider} provider failed (${reason}); the local provider served this role instead`;

describe.concurrent.each(['openai', 'anthropic'] as const)(`inference with the %s provider [${dialect}]`, (provider) => {
  const key = KEYS[provider];
  const model = MODELS[provider];
  const configured = { provider, model };
  let w: World;
  let llm: FakeLlm;
  /** The all-local answers, before any provider is configured. */
  const local: Record<string, Answer> = {};
  /** Whether the settings point at the loopback server (afterEach then checks each request carried the key). */
  let keyedServer = true;

  /**
   * Points the given roles at the loopback server (the others at local) with this provider's
   * key. `timeoutMs` defaults to 5 s and `maxRetries` to 0 so a mistake fails fast.
   */
  async function configure(roles: Role[], over: { timeoutMs?: number; maxRetries?: number; baseUrl?: string } = {}) {
    const choice = (role: Role) => (roles.includes(role) ? configured : null);
    const providerConfig = { baseUrl: over.baseUrl ?? llm.baseUrl, apiKey: key, timeoutMs: over.timeoutMs ?? 5000, maxRetries: over.maxRetries ?? 0 };
    const { data } = await updateOrg({
      client: w.admin,
      path: { slug: w.slug },
      body: { settings: { llm: { parse: choice('parse'), evaluate: choice('evaluate'), prose: choice('prose'), providers: { [provider]: providerConfig } } } },
    });
    keyedServer = over.baseUrl === undefined;
    return data;
  }

  beforeAll(async () => {
    [w, llm] = await Promise.all([world(), startFakeLlm(provider, honest)]);
    for (const q of [MIXED, COVERED, AMBIGUOUS, REMOTE]) local[q] = await ask(w.admin, q);
    // What the local provider answers, which every degraded run must reproduce.
    expect(local[MIXED]!.segments).toEqual([
      { text: VERIFIED_TEXT, trustLevel: 'verified', unitId: w.units.vacation, unitName: 'Vacation accrual' },
      { text: `No verified unit covers “${SABBATICAL.replace(/\?$/, '')}”.`, trustLevel: 'synthesized', unitId: null, unitName: null },
    ]);
    expect(local[COVERED]!.segments).toEqual([{ text: VERIFIED_TEXT, trustLevel: 'verified', unitId: w.units.vacation, unitName: 'Vacation accrual' }]);
    expect(local[AMBIGUOUS]!).toMatchObject({ unitsUsed: [], segments: [expect.objectContaining({ trustLevel: 'synthesized', unitId: w.units.vacation })] });
    expect(local[REMOTE]!.segments).toEqual([
      { text: stipend.then, trustLevel: 'verified', unitId: w.units.stipend, unitName: 'Home-office stipend' },
    ]);
    for (const answer of Object.values(local)) {
      expect(Object.values(answer.modelsUsed).map((m) => m.provider)).toEqual(['local', 'local', 'local']);
    }
  });
  afterAll(async () => {
    await llm.close();
  });
  afterEach(() => {
    // Every request the loopback server saw spoke the wire format and carried the configured key.
    expect(llm.problems, `${provider} wire format`).toEqual([]);
    if (keyedServer) {
      for (const r of llm.received) {
        if (provider === 'openai') expect(r.headers.authorization).toBe(`Bearer ${key}`);
        else expect(r.headers['x-api-key']).toBe(key);
      }
    }
    // The key never reaches the server's own log lines.
    expect(JSON.stringify(server.logs)).not.toContain(key);
    llm.reset(honest);
  });

  // The two providers' suites run side by side (their waits overlap); each one's steps share its
  // organization's settings, so they run in order.
  describe.sequential('steps', () => {
    it('prose by the model: the unit segment stays verified, the intro is synthesized, the uncovered part neural', async () => {
      await configure(['prose']);
      const data = await ask(w.admin, MIXED);

      expect(data.segments).toEqual([
        { text: 'Here is what the workplace rules say.', trustLevel: 'synthesized', unitId: null, unitName: null },
        { text: VERIFIED_TEXT, trustLevel: 'verified', unitId: w.units.vacation, unitName: 'Vacation accrual' },
        { text: SABBATICAL_ANSWER, trustLevel: 'neural', unitId: null, unitName: null },
      ]);
      expect(data).toMatchObject({
        trustSummary: { verified: 1, expertReviewed: 0, synthesized: 1, neural: 1 },
        coveragePercent: 50,
        mode: 'partial_coverage',
        unitsUsed: [{ id: w.units.vacation, name: 'Vacation accrual', type: 'program', status: 'verified', verificationScore: 1 }],
        modelsUsed: { parse: local[MIXED]!.modelsUsed.parse, evaluate: local[MIXED]!.modelsUsed.evaluate, prose: configured },
      });
      expectWellFormed(data);

      // One call, byte for byte the provider's request format, with the rule text as context.
      expect(llm.received).toHaveLength(1);
      const [req] = llm.received;
      const user = [
        'Question parts:',
        `0: How many vacation days does an employee with 12 years of service accrue?`,
        `1: ${SABBATICAL}`,
        '',
        'Rule texts:',
        `- [Vacation accrual] ${VERIFIED_TEXT}`,
        '',
        'Uncovered parts:',
        `1: ${SABBATICAL}`,
      ].join('\n');
      const system = expect.stringMatching(/^You write the connective prose of an answer whose factual parts come from verified rules\. Never restate, reword or contradict/);
      expect(req).toMatchObject({ method: 'POST', path: provider === 'openai' ? '/v1/chat/completions' : '/v1/messages' });
      if (provider === 'openai') {
        expect(req!.body).toEqual({
          model,
          messages: [{ role: 'system', content: system }, { role: 'user', content: user }],
          max_tokens: 1024,
          stream: false,
          response_format: { type: 'json_schema', json_schema: { name: 'prose', schema: PROSE_SCHEMA, strict: true } },
        });
      } else {
        expect(req!.headers['anthropic-version']).toBe('2023-06-01');
        expect(req!.body).toEqual({
          model,
          max_tokens: 1024,
          system,
          messages: [{ role: 'user', content: user }],
          tools: [{ name: 'prose', description: expect.any(String), input_schema: PROSE_SCHEMA }],
          tool_choice: { type: 'tool', name: 'prose' },
        });
      }

      const log = await logOf(w.admin, data.inferenceLogId);
      expect(log).toMatchObject({ modelsUsed: data.modelsUsed, trustSummary: data.trustSummary, mode: 'partial_coverage', auditWarnings: [] });
      expect(log.executionTrace).toContainEqual({ stage: 'prose', provider, added: 2 });
    });

    it('parse by the model: the unit fires with the values the model bound', async () => {
      await configure(['parse']);
      const data = await ask(w.admin, AMBIGUOUS);

      expect(data.segments).toEqual([
        { text: 'An employee with 11 years of service accrues 20 vacation days per year.', trustLevel: 'verified', unitId: w.units.vacation, unitName: 'Vacation accrual' },
      ]);
      expect(data).toMatchObject({
        mode: 'full_coverage',
        coveragePercent: 100,
        unitsUsed: [{ id: w.units.vacation, status: 'verified' }],
        modelsUsed: { parse: configured, evaluate: local[AMBIGUOUS]!.modelsUsed.evaluate, prose: local[AMBIGUOUS]!.modelsUsed.prose },
      });
      expectWellFormed(data);

      // The binding request: the question, temperature 0, a strict schema of the unit's inputs.
      expect(llm.received.length).toBeGreaterThanOrEqual(1);
      const calls = llm.received.map((r) => r.body);
      const vacationCall = calls.find((b) => JSON.stringify(b).includes('years_of_service'));
      if (provider === 'openai') {
        expect(vacationCall).toEqual({
          model,
          messages: [
            { role: 'system', content: expect.stringContaining('Use null for anything the question does not state. Never guess.') },
            { role: 'user', content: AMBIGUOUS },
          ],
          max_tokens: 1024,
          stream: false,
          temperature: 0,
          response_format: { type: 'json_schema', json_schema: { name: 'inputs', schema: VACATION_INPUTS_SCHEMA, strict: true } },
        });
      } else {
        expect(vacationCall).toEqual({
          model,
          max_tokens: 1024,
          system: expect.stringContaining('Use null for anything the question does not state. Never guess.'),
          messages: [{ role: 'user', content: AMBIGUOUS }],
          temperature: 0,
          tools: [{ name: 'inputs', description: expect.any(String), input_schema: VACATION_INPUTS_SCHEMA }],
          tool_choice: { type: 'tool', name: 'inputs' },
        });
      }

      const log = await logOf(w.admin, data.inferenceLogId);
      expect(log).toMatchObject({ inputVariables: { [w.units.vacation]: { years_of_service: 11 } }, outputVariables: { [w.units.vacation]: { vacation_days: 20 } }, auditWarnings: [] });
      expect(log.executionTrace).toContainEqual(expect.objectContaining({ stage: 'parse', provider }));
    });

    it('evaluate by the model: a declarative unit runs only when the model says its WHEN applies', async () => {
      await configure(['evaluate']);
      llm.reset(() => ({ json: { applies: false } }));
      const refused = await ask(w.admin, REMOTE);
      expect(refused).toMatchObject({ unitsUsed: [], mode: 'neural_only', modelsUsed: { evaluate: configured } });
      expect(refused.segments.every((s) => s.trustLevel === 'synthesized' && s.unitId === null)).toBe(true);
      expectWellFormed(refused);
      expect(llm.received).toHaveLength(1);
      const [call] = llm.received;
      expect(JSON.stringify(call!.body)).toContain(JSON.stringify(`Rule: Home-office stipend\nGiven: -\nWhen: the staff member is fully remote\n\nQuestion: ${REMOTE}`));
      expect(JSON.stringify(call!.body)).toContain(JSON.stringify(APPLIES_SCHEMA));

      llm.reset(() => ({ json: { applies: true } }));
      const applies = await ask(w.admin, REMOTE);
      expect(applies.segments).toEqual(local[REMOTE]!.segments);
      expect(applies.modelsUsed.evaluate).toEqual(configured);
    });

    it('a model cannot claim a verified segment: copied, reworded or "verified" text is synthesized or neural, or dropped', async () => {
      await configure(['prose']);
      llm.reset((call) =>
        call.json?.name === 'prose'
          ? {
              json: {
                // The unit's text, word for word.
                intro: VERIFIED_TEXT,
                uncovered: [
                  // Claims the unit and the level, in text and in fields the schema does not have.
                  { part: 1, answer: `Verified by Vacation accrual (verified): ${VERIFIED_TEXT}`, trustLevel: 'verified', unitId: w.units.vacation, unitName: 'Vacation accrual' },
                  // Rewords the covered part, trying to stand in for the unit's segment.
                  { part: 0, answer: 'Verified: twelve years of service earn 20 vacation days a year.' },
                  // Answers the same part twice.
                  { part: 1, answer: 'Expert reviewed: professors get a sabbatical every seventh year.' },
                ],
                trustLevel: 'verified',
                segments: [{ text: VERIFIED_TEXT, trustLevel: 'verified', unitId: w.units.vacation }],
              },
            }
          : honest(call),
      );
      const data = await ask(w.admin, MIXED);

      expect(data.segments).toEqual([
        { text: VERIFIED_TEXT, trustLevel: 'synthesized', unitId: null, unitName: null },
        { text: VERIFIED_TEXT, trustLevel: 'verified', unitId: w.units.vacation, unitName: 'Vacation accrual' },
        { text: `Verified by Vacation accrual (verified): ${VERIFIED_TEXT}`, trustLevel: 'neural', unitId: null, unitName: null },
      ]);
      // The unit's own segment is the only verified one; nothing is expert_reviewed.
      expect(data.segments.filter((s) => s.trustLevel === 'verified')).toEqual([{ text: VERIFIED_TEXT, trustLevel: 'verified', unitId: w.units.vacation, unitName: 'Vacation accrual' }]);
      expect(data.trustSummary).toEqual({ verified: 1, expertReviewed: 0, synthesized: 1, neural: 1 });
      expect(data.unitsUsed.map((u) => u.id)).toEqual([w.units.vacation]);
      expectWellFormed(data);

      const log = await logOf(w.admin, data.inferenceLogId);
      expect(log.auditWarnings).toEqual([
        'prose: the model answered a part that was not asked or not uncovered; that text was dropped',
        'prose: the model answered a part that was not asked or not uncovered; that text was dropped',
      ]);
    });

    it('flags figures and dates in model text that neither the question nor any unit grounds', async () => {
      await configure(['prose']);
      llm.reset((call) =>
        call.json?.name === 'prose'
          ? {
              json: {
                // Grounded: 12 is in the question, 20 is the unit's output.
                intro: 'After 12 years of service the handbook grants 20 days.',
                uncovered: [{ part: 1, answer: 'A professor usually gets 26 weeks of sabbatical leave; applications open on March 1, 2027.' }],
              },
            }
          : honest(call),
      );
      const data = await ask(w.admin, MIXED);
      expect(data.segments.map((s) => s.trustLevel)).toEqual(['synthesized', 'verified', 'neural']);
      expect(data.segments[2]!.text).toContain('26 weeks');
      expectWellFormed(data);

      const log = await logOf(w.admin, data.inferenceLogId);
      expect(log.auditWarnings).toEqual([
        'segment 2 (neural): the date 2027-03-01 is not grounded in the question or any unit',
        'segment 2 (neural): the figure 26 is not grounded in the question or any unit',
      ]);
      expect(log.executionTrace).toContainEqual({ stage: 'audit', warnings: 2 });
    });

    it('retries a 429 after its retry-after and then uses the answer', async () => {
      await configure(['prose'], { maxRetries: 1 });
      llm.reset((call) => (call.n === 1 ? rateLimited(provider, 1) : honest(call)));
      const data = await ask(w.admin, MIXED);

      expect(data.modelsUsed.prose).toEqual(configured);
      expect(data.segments.map((s) => s.trustLevel)).toEqual(['synthesized', 'verified', 'neural']);
      expectWellFormed(data);
      expect(llm.received).toHaveLength(2);
      expect(llm.received[1]!.raw).toBe(llm.received[0]!.raw);
      expect(llm.received[1]!.at - llm.received[0]!.at).toBeGreaterThanOrEqual(950);
      expect((await logOf(w.admin, data.inferenceLogId)).auditWarnings).toEqual([]);
    });

    // ------------------------------------------------------------ failures degrade to local

    interface Failure {
      label: string;
      reply: (call: ModelCall) => Reply;
      reason: string;
      over?: { timeoutMs?: number; maxRetries?: number };
      /** Requests the server should see. */
      attempts: number;
    }
    const notJson = (): Reply => ({
      status: 200,
      body: provider === 'openai' ? '{"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion","choices":[{"index":0,"message":{"role":"assi' : '{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant","content":[{"type":"tool_u',
    });
    const failures: Failure[] = [
      { label: 'a 500 on every attempt', reply: () => serverError(provider), reason: 'http 500', over: { maxRetries: 1 }, attempts: 2 },
      { label: 'no answer within timeoutMs', reply: () => 'hang', reason: 'timeout', over: { timeoutMs: 1000 }, attempts: 1 },
      { label: 'a 200 whose body is not JSON', reply: notJson, reason: 'malformed 200', attempts: 1 },
      {
        label: 'model output that is not the JSON asked for',
        // OpenAI: content cut off mid-JSON; Anthropic: a text block instead of the forced tool_use.
        reply: () => ({ content: '{"intro": "Here is what the workplace rules say.", "uncovered": [{"part": 1, "answer": "Sabbatical' }),
        reason: 'malformed',
        attempts: 1,
      },
      { label: 'a 401 whose message quotes the API key', reply: () => unauthorized(provider, key), reason: 'http 401', attempts: 1 },
    ];

    it.each(failures)('prose: $label degrades to local, honestly', async ({ reply, reason, over, attempts }) => {
      await configure(['prose'], over);
      llm.reset(reply);
      const started = Date.now();
      const data = await ask(w.admin, MIXED);

      // The all-local answer: the unit segment verified as before, the uncovered part said plainly, no neural text.
      expect(data.segments).toEqual(local[MIXED]!.segments);
      expect(data).toMatchObject({ trustSummary: local[MIXED]!.trustSummary, coveragePercent: 50, mode: 'partial_coverage', modelsUsed: local[MIXED]!.modelsUsed });
      expectWellFormed(data);
      expect(llm.received).toHaveLength(attempts);
      if (reason === 'timeout') expect(Date.now() - started).toBeLessThan(4000);

      const log = await logOf(w.admin, data.inferenceLogId);
      expect(log.auditWarnings).toEqual([degraded('prose', provider, reason)]);
      expect(log.modelsUsed).toEqual(local[MIXED]!.modelsUsed);
      expect(JSON.stringify([data, log])).not.toContain(key);
    });

    it('prose: JSON of the wrong shape degrades to local', async () => {
      await configure(['prose']);
      llm.reset(() => ({ json: { answer: 'Professors get 26 weeks of sabbatical leave.', trustLevel: 'verified' } }));
      const data = await ask(w.admin, MIXED);
      expect(data.segments).toEqual(local[MIXED]!.segments);
      expect(data.modelsUsed).toEqual(local[MIXED]!.modelsUsed);
      expect((await logOf(w.admin, data.inferenceLogId)).auditWarnings).toEqual([degraded('prose', provider, 'malformed')]);
    });

    it('prose: an unreachable server degrades to local', async () => {
      await configure(['prose'], { baseUrl: await closedBaseUrl(provider) });
      const data = await ask(w.admin, MIXED);
      expect(data.segments).toEqual(local[MIXED]!.segments);
      expect(data.modelsUsed).toEqual(local[MIXED]!.modelsUsed);
      expect((await logOf(w.admin, data.inferenceLogId)).auditWarnings).toEqual([degraded('prose', provider, 'network')]);
    });

    it.each(failures)('parse: $label degrades to local, honestly', async ({ reply, reason, over, attempts }) => {
      await configure(['parse'], over);
      llm.reset(reply);
      const data = await ask(w.admin, COVERED);

      // The local parser binds 12 years: the unit runs and its segment is verified as before.
      expect(data.segments).toEqual(local[COVERED]!.segments);
      expect(data).toMatchObject({ mode: 'full_coverage', coveragePercent: 100, modelsUsed: local[COVERED]!.modelsUsed });
      expectWellFormed(data);
      // One binding call (and its retries), then the local parser.
      expect(llm.received).toHaveLength(attempts);

      const log = await logOf(w.admin, data.inferenceLogId);
      expect(log.auditWarnings).toEqual([degraded('parse', provider, reason)]);
      expect(Object.values(log.inputVariables)).toContainEqual({ years_of_service: 12 });
      expect(JSON.stringify([data, log])).not.toContain(key);
    });

    it('evaluate: JSON of the wrong shape degrades to local', async () => {
      await configure(['evaluate']);
      llm.reset(() => ({ json: { applies: 'yes', verdict: 'The rule applies.' } }));
      const data = await ask(w.admin, REMOTE);
      expect(data.segments).toEqual(local[REMOTE]!.segments);
      expect(data.modelsUsed).toEqual(local[REMOTE]!.modelsUsed);
      expect((await logOf(w.admin, data.inferenceLogId)).auditWarnings).toEqual([degraded('evaluate', provider, 'malformed')]);
    });

    // An answer that ignores the strict schema is a broken answer, not "the question states nothing".
    it('parse: JSON of the wrong shape (not the inputs schema) degrades to local', async () => {
      await configure(['parse']);
      llm.reset(() => ({ json: { inputs: { years_of_service: 12 } } }));
      const data = await ask(w.admin, COVERED);
      expect(data.segments).toEqual(local[COVERED]!.segments);
      expect(data.modelsUsed).toEqual(local[COVERED]!.modelsUsed);
      expect((await logOf(w.admin, data.inferenceLogId)).auditWarnings).toEqual([degraded('parse', provider, 'malformed')]);
    });

    it('parse: a value of the wrong type degrades to local', async () => {
      await configure(['parse']);
      llm.reset(() => ({ json: { years_of_service: 'twelve' } }));
      const data = await ask(w.admin, COVERED);
      expect(data.segments).toEqual(local[COVERED]!.segments);
      expect(data.modelsUsed).toEqual(local[COVERED]!.modelsUsed);
      expect((await logOf(w.admin, data.inferenceLogId)).auditWarnings).toEqual([degraded('parse', provider, 'malformed')]);
    });

    // A blank answer answers nothing: the local notice stays.
    it('prose: a blank answer for an uncovered part keeps the local notice', async () => {
      await configure(['prose']);
      llm.reset(() => ({ json: { intro: null, uncovered: [{ part: 1, answer: '   ' }] } }));
      const data = await ask(w.admin, MIXED);
      expect(data.segments.every((s) => s.text.trim() !== '')).toBe(true);
      expect(data.segments).toEqual(local[MIXED]!.segments);
    });

    // ------------------------------------------------------------ the API key

    it('sends the API key to the provider and never shows it: settings are redacted, answers and logs do not carry it', async () => {
      const updated = await configure(['parse', 'prose'], { timeoutMs: 4000, maxRetries: 2 });
      const redacted = { baseUrl: llm.baseUrl, apiKey: `…${key.slice(-4)}`, timeoutMs: 4000, maxRetries: 2 };
      expect(updated.settings.llm?.providers?.[provider]).toEqual(redacted);
      const { data: orgs } = await listOrgs({ client: w.admin });
      expect(orgs.find((o) => o.slug === w.slug)?.settings.llm).toEqual({ parse: configured, prose: configured, providers: { [provider]: redacted } });

      const data = await ask(w.admin, MIXED);
      expect(data.modelsUsed).toMatchObject({ parse: configured, prose: configured });
      expect(llm.received.length).toBeGreaterThanOrEqual(2); // parse and prose; afterEach checks each carried the key
      const sent = llm.received[0]!.headers;
      if (provider === 'openai') {
        expect(sent.authorization).toBe(`Bearer ${key}`);
        expect(sent['x-api-key']).toBeUndefined();
      } else {
        expect(sent['x-api-key']).toBe(key);
        expect(sent.authorization).toBeUndefined();
      }

      const { data: logs } = await listInferenceLogs({ client: w.admin, query: { limit: 100 } });
      expect(logs.length).toBeGreaterThan(0);
      // The settings changes are audited by path, never by value.
      const { data: audit } = await listAuditEntries({ client: w.admin, query: { limit: 100 } });
      expect(audit.length).toBeGreaterThan(0);
      for (const text of [JSON.stringify(updated), JSON.stringify(orgs), JSON.stringify(data), JSON.stringify(logs), JSON.stringify(audit)]) {
        expect(text).not.toContain(key);
        expect(text).not.toContain(key.slice(0, -4));
      }
    });
  });
});
