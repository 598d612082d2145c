/**
 * Property-based tests of the review rules through the API (DESIGN §6): any content change starts a
 * new version to review, and no sequence of reviews verifies a unit unless every step/element is
 * approved by someone other than its author with no change request open. fast-check prints the
 * seed and the shrunk counterexample on failure.
 */
import fc from 'fast-check';
import {
  createDomain, createUnit, type ElementReview, type ElementReviewAction, getUnit, LemmaError, type LemmaClient, type ReviewAction, type Unit, type UnitCreate, type UnitReview, type UnitUpdate, updateOrg, updateUnit, verifyUnit,
} from '@lemma/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { dialect, startTestServer, type Tenant, type TestServer, type Person } from './harness.js';

let server: TestServer;

type Caller = 'author' | 'reviewer1' | 'reviewer2' | 'admin';
interface Team extends Tenant {
  domainId: string;
  minApprovals: number;
  people: Record<Caller, Person>;
}

/** A tenant with a domain, an author, two reviewers and the org admin (who may review too). */
async function team(minApprovals: number): Promise<Team> {
  const t = await server.newTenant('props');
  if (minApprovals !== 1) {
    await updateOrg({ client: t.admin, path: { slug: t.slug }, body: { settings: { verification: { minApprovals } } } });
  }
  const people = { admin: { userId: t.adminUserId, client: t.admin } } as Record<Caller, Person>;
  for (const [name, role] of [['author', 'author'], ['reviewer1', 'reviewer'], ['reviewer2', 'reviewer']] as const) {
    people[name] = await t.addMember(name, role);
  }
  const { data: domain } = await createDomain({ client: t.admin, body: { name: 'Human Resources', jurisdiction: 'US-CA' } });
  return { ...t, domainId: domain.id, minApprovals, people };
}

let teams: Team[];
beforeAll(async () => {
  server = await startTestServer();
  teams = [await team(1), await team(2)];
});

// ------------------------------------------------------------------------- units

/** The vacation program of units.test.ts: 10 days, 15 from 5 years, 20 from 10 years. */
const vacation = (domainId: string): UnitCreate & Required<Omit<UnitCreate, 'definition'>> & { definition: VacationDefinition } => ({
  name: 'Vacation accrual',
  unitType: 'program',
  domainId,
  description: 'Annual vacation days by years of service.',
  given: 'An employee with a known length of service.',
  when: 'The employee asks how many vacation days they accrue.',
  then: 'The employee accrues {{vacation_days}} vacation days per year.',
  inputSchema: { type: 'object', properties: { years_of_service: { type: 'number', 'x-aliases': ['tenure'] } }, required: ['years_of_service'] },
  outputSchema: { type: 'object', properties: { vacation_days: { type: 'integer' } } },
  jurisdiction: 'US-CA',
  definition: vacationDefinition(ORIGINAL_TIERS),
  examples: [
    { name: 'twelve years', inputs: { years_of_service: 12 }, expected: { vacation_days: 20 } },
    { name: 'new hire', inputs: { years_of_service: 0 }, expected: { vacation_days: 10 } },
  ],
});

interface Tiers {
  seniorAt: number;
  seniorDays: number;
  veteranAt: number;
}
type VacationDefinition = { steps: { id: string; if?: string; set: string; expr: string }[] };
const ORIGINAL_TIERS: Tiers = { seniorAt: 5, seniorDays: 15, veteranAt: 10 };
function vacationDefinition(t: Tiers): VacationDefinition {
  return {
    steps: [
      { id: 'base', set: 'vacation_days', expr: '10' },
      { id: 'senior', if: `years_of_service >= ${t.seniorAt}`, set: 'vacation_days', expr: String(t.seniorDays) },
      { id: 'veteran', if: `years_of_service >= ${t.veteranAt}`, set: 'vacation_days', expr: '20' },
    ],
  };
}
/** What the program computes, written out: the expected value of a passing example. */
function vacationDays(t: Tiers, years: number): number {
  let days = 10;
  if (years >= t.seniorAt) days = t.seniorDays;
  if (years >= t.veteranAt) days = 20;
  return days;
}

const creditRisk = (domainId: string): UnitCreate => ({
  name: 'Credit risk',
  unitType: 'framework',
  domainId,
  inputSchema: { type: 'object', properties: { credit_score: { type: 'integer' }, dti: { type: 'number' } }, required: ['credit_score', 'dti'] },
  outputSchema: { type: 'object', properties: { passed: { type: 'boolean' } } },
  definition: {
    elements: [
      { id: 'good_score', label: 'Credit score of 680 or more', weight: 2, when: 'credit_score >= 680' },
      { id: 'low_dti', label: 'Debt-to-income under 0.4', weight: 1, when: 'dti < 0.4' },
    ],
    threshold: 2,
    outcomes: { pass: 'Low risk.', fail: 'High risk.' },
  },
});

/** Deep equality up to key order (what "the same value" means to a person writing a PATCH). */
function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return sameValue(ka, kb) && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

// ------------------------------------------------------------------ arbitraries

/** Printable Unicode (graphemes, astral planes, combining marks), at most `max` code points. */
const text = (max: number, min = 0) =>
  fc.string({ unit: 'grapheme', minLength: min, maxLength: max }).filter((s) => [...s].length <= max);
const nonBlank = (max: number) => text(max, 1).filter((s) => s.trim() !== '');
const optionalText = (max: number) => fc.option(text(max), { nil: null });

/** A `then` text: free text (no braces) and placeholders of the unit's variables, or null. */
const thenText = fc.option(
  fc.array(
    fc.oneof(
      text(30).filter((s) => !/[{}]/.test(s)),
      fc.constantFrom('{{vacation_days}}', '{{years_of_service}}', '{{ vacation_days }}'),
    ),
    { maxLength: 6 },
  ).map((parts) => parts.join('')),
  { nil: null },
);

const inputSchema = fc.record({
  aliases: fc.array(nonBlank(30), { maxLength: 5 }),
  title: fc.option(text(60), { nil: null }),
}).map(({ aliases, title }) => ({
  type: 'object' as const,
  properties: { years_of_service: { type: 'number' as const, 'x-aliases': aliases, ...(title === null ? {} : { title }) } },
  required: ['years_of_service'],
}));

const tiers: fc.Arbitrary<Tiers> = fc.record({
  // From 1 year on (a new hire keeps 10 days) and veterans by 12 (twelve years keeps 20): the
  // examples of the original unit keep passing whatever the new tiers.
  seniorAt: fc.integer({ min: 1, max: 9 }),
  seniorDays: fc.integer({ min: 0, max: 60 }),
  veteranAt: fc.integer({ min: 6, max: 12 }),
});

/** Example inputs; their expected outputs are computed from the definition the PATCH leaves. */
const exampleSpecs = fc.uniqueArray(
  fc.record({ name: nonBlank(40), years: fc.integer({ min: 0, max: 120 }).map((n) => n / 2) }),
  { selector: (e) => e.name, maxLength: 4 },
);

type ContentChange = Omit<UnitUpdate, 'definition' | 'examples'> & { tiers?: Tiers; examples?: { name: string; years: number }[] };
type Original = ReturnType<typeof vacation>;

/**
 * One content field (most often) or several set to values that differ from the original's: single
 * fields, so that no field's change can hide behind another's.
 */
function contentChange(original: Original): fc.Arbitrary<UnitUpdate> {
  const differs = <T>(arb: fc.Arbitrary<T>, from: unknown) => arb.filter((v) => !sameValue(v, from));
  const fields = {
    name: differs(nonBlank(60), original.name),
    description: differs(optionalText(200), original.description),
    given: differs(optionalText(200), original.given),
    when: differs(optionalText(200), original.when),
    then: differs(thenText, original.then),
    jurisdiction: differs(fc.option(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/), { nil: null }), original.jurisdiction),
    inputSchema: differs(inputSchema, original.inputSchema),
    tiers: differs(tiers, ORIGINAL_TIERS),
    examples: exampleSpecs,
  };
  const keys = Object.keys(fields) as (keyof typeof fields)[];
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...keys).map((k) => [k]) },
    { weight: 1, arbitrary: fc.subarray(keys, { minLength: 1 }) },
  )
    .chain((chosen) => fc.record(Object.fromEntries(chosen.map((k) => [k, fields[k]])) as { [K in keyof typeof fields]: typeof fields[K] }))
    .map((change) => patchOf(change as ContentChange))
    .filter((patch) => Object.entries(patch).some(([k, v]) => !sameValue(v, original[k as keyof Original])));
}

/** The PATCH body of a change: the definition from the tiers, passing examples under it. */
function patchOf(change: ContentChange): UnitUpdate {
  const { tiers: newTiers, examples, ...rest } = change;
  const patch: UnitUpdate = { ...rest };
  if (newTiers) patch.definition = vacationDefinition(newTiers);
  if (examples) {
    patch.examples = examples.map((e) => ({
      name: e.name, inputs: { years_of_service: e.years }, expected: { vacation_days: vacationDays(newTiers ?? ORIGINAL_TIERS, e.years) },
    }));
  }
  return patch;
}

const CONTENT_FIELDS = [
  'name', 'unitType', 'domainId', 'description', 'given', 'when', 'then',
  'inputSchema', 'outputSchema', 'jurisdiction', 'definition', 'examples',
] as const;

/** Awaits a call, returning the LemmaError it fails with (any other failure propagates). */
async function outcome<T>(call: Promise<T>): Promise<{ ok: T } | { error: LemmaError }> {
  try {
    return { ok: await call };
  } catch (e) {
    if (e instanceof LemmaError) return { error: e };
    throw e;
  }
}

describe(`unit content changes [${dialect}]`, () => {
  it('any content change resets verification: version + 1, candidate, scores 0, old review kept; an identical PATCH changes nothing', async () => {
    const t = teams[0]!;
    const original = vacation(t.domainId);
    const identical = fc.subarray([...CONTENT_FIELDS], { minLength: 1 })
      .map((keys) => Object.fromEntries(keys.map((k) => [k, structuredClone(original[k])])) as UnitUpdate);
    await fc.assert(
      fc.asyncProperty(identical, contentChange(original), fc.subarray([...CONTENT_FIELDS]), async (same, changed, unchangedToo) => {
        const { data: unit } = await createUnit({ client: t.people.author.client, body: original });
        const { data: verified } = await verifyUnit({ client: t.people.reviewer1.client, path: { id: unit.id }, body: { action: 'approve' } });
        expect(verified).toMatchObject({ version: 1, status: 'verified', verificationScore: 1, approvalRate: 1 });

        // The same values (in the order they were written): no new version, still verified.
        const { data: kept } = await updateUnit({ client: t.people.author.client, path: { id: unit.id }, body: same });
        expect(kept).toEqual(verified);

        // A real change, possibly alongside fields restated unchanged.
        const patch = { ...changed };
        for (const k of unchangedToo) if (!(k in patch)) Object.assign(patch, { [k]: structuredClone(original[k]) });
        const { data: edited } = await updateUnit({ client: t.people.author.client, path: { id: unit.id }, body: patch });
        expect(edited).toMatchObject({ version: 2, status: 'candidate', verificationScore: 0, approvalRate: 0, slug: unit.slug, proposedChanges: [] });
        expect(edited).toMatchObject(patch);
        // The generated examples pass under the generated definition.
        expect(edited.exampleResults).toMatchObject({ failing: 0 });
        expect(edited.reviews.map((r) => [r.reviewerId, r.action, r.version])).toEqual([[t.people.reviewer1.userId, 'approve', 1]]);
        expect(edited.reviews[0]).toEqual(verified.reviews[0]);
        expect((await getUnit({ client: t.admin, path: { id: unit.id } })).data).toEqual(edited);
      }),
      { numRuns: 30 },
    );
  }, 120_000);
});

// ---------------------------------------------------------------- review sequences

const PROGRAM_ACTIONS: ElementReviewAction[] = ['approve', 'correct_values', 'add_branch', 'add_exception'];
const STRUCTURED_ACTIONS: ElementReviewAction[] = ['approve_element', 'suggest_edit', 'reweight_element', 'add_element', 'remove_element'];
const KINDS = {
  program: { body: vacation, elementIds: ['base', 'senior', 'veteran'], actions: PROGRAM_ACTIONS },
  framework: { body: creditRisk, elementIds: ['good_score', 'low_dti'], actions: STRUCTURED_ACTIONS },
} as const;
/** Element approvals, written out here rather than taken from the server. */
const APPROVING = new Set<ElementReviewAction>(['approve', 'approve_element']);

interface Call {
  caller: Caller;
  action: ReviewAction;
  comment?: string;
  elementReviews?: ElementReview[];
}

/** A sequence of verify calls, biased towards approvals so that many runs reach `verified`. */
function calls(kind: keyof typeof KINDS): fc.Arbitrary<Call[]> {
  const { elementIds, actions } = KINDS[kind];
  const approving = actions.filter((a) => APPROVING.has(a));
  const elementReview = fc.record(
    {
      elementId: fc.constantFrom(...elementIds),
      action: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...approving) }, { weight: 2, arbitrary: fc.constantFrom(...actions) }),
      comment: text(40),
      value: fc.oneof(fc.integer(), text(20), fc.constant({ expr: '22' })),
    },
    { requiredKeys: ['elementId', 'action'] },
  );
  const call = fc.record(
    {
      caller: fc.oneof({ weight: 1, arbitrary: fc.constant<Caller>('author') }, { weight: 5, arbitrary: fc.constantFrom<Caller>('reviewer1', 'reviewer2', 'admin') }),
      action: fc.oneof({ weight: 3, arbitrary: fc.constant<ReviewAction>('approve') }, { weight: 1, arbitrary: fc.constant<ReviewAction>('request_changes') }),
      comment: text(40),
      elementReviews: fc.uniqueArray(elementReview, { selector: (er) => er.elementId, maxLength: elementIds.length }),
    },
    { requiredKeys: ['caller', 'action'] },
  );
  return fc.array(call, { minLength: 1, maxLength: 8 });
}

/** Each reviewer's latest review of the current version (the list is oldest first). */
function latestOfVersion(reviews: readonly UnitReview[], version: number, authorId: string): UnitReview[] {
  const latest = new Map<string, UnitReview>();
  for (const r of reviews) if (r.version === version && r.reviewerId !== authorId) latest.set(r.reviewerId, r);
  return [...latest.values()];
}
const approves = (r: UnitReview, elementId: string): boolean => {
  const mentioned = r.elementReviews.filter((er) => er.elementId === elementId);
  return mentioned.length === 0 ? r.action === 'approve' : mentioned.some((er) => APPROVING.has(er.action));
};

/** Why the unit must not be verified, or null when DESIGN §6 says it is. */
function notVerifiableBecause(unit: Unit, elementIds: readonly string[], minApprovals: number): string | null {
  const current = latestOfVersion(unit.reviews, unit.version, unit.authorId);
  for (const id of elementIds) if (!current.some((r) => approves(r, id))) return `"${id}" is approved by no reviewer but the author`;
  for (const r of current) {
    if (r.action === 'request_changes') return `${r.reviewerId} requests changes`;
    const change = r.elementReviews.find((er) => !APPROVING.has(er.action));
    if (change) return `${r.reviewerId} proposes ${change.action} on "${change.elementId}"`;
  }
  const approvals = current.filter((r) => r.action === 'approve').length;
  if (approvals < minApprovals) return `${approvals} approvals, ${minApprovals} needed`;
  return null;
}

describe(`review sequences [${dialect}]`, () => {
  it('no sequence of reviews verifies a unit without every element approved by a non-author', async () => {
    let verifiedRuns = 0;
    const scenario = fc.record({ team: fc.constantFrom(0, 1), kind: fc.constantFrom<keyof typeof KINDS>('program', 'framework') })
      .chain(({ team: ti, kind }) => fc.record({ team: fc.constant(ti), kind: fc.constant(kind), calls: calls(kind) }));
    await fc.assert(
      fc.asyncProperty(scenario, async ({ team: ti, kind, calls: sequence }) => {
        const t = teams[ti]!;
        const { elementIds } = KINDS[kind];
        const { data: created } = await createUnit({ client: t.people.author.client, body: KINDS[kind].body(t.domainId) });
        let before: Unit = created;
        let recorded = 0;
        for (const [i, c] of sequence.entries()) {
          const { caller, ...body } = c;
          const result = await outcome(verifyUnit({ client: t.people[caller].client, path: { id: created.id }, body }));
          const { data: unit } = await getUnit({ client: t.admin, path: { id: created.id } });
          const at = `call ${i} (${caller} ${c.action}) on ${before.status}`;

          if (caller === 'author') {
            expect('error' in result && result.error.status, at).toBe(403);
            expect('error' in result && result.error.details, at).toMatchObject({ rule: 'four_eyes' });
          } else if (before.status === 'verified') {
            expect('error' in result && result.error.status, at).toBe(409);
          } else {
            expect('ok' in result && result.ok.data, at).toEqual(unit);
            recorded++;
          }
          if ('error' in result) expect(unit, `${at}: a refused review changes nothing`).toEqual(before);
          else {
            const last = unit.reviews.at(-1)!;
            expect(last, at).toMatchObject({ reviewerId: t.people[caller].userId, version: 1, action: c.action, comment: c.comment ?? null, elementReviews: c.elementReviews ?? [] });
          }

          expect(unit.reviews, at).toHaveLength(recorded);
          expect(unit.reviews.map((r) => r.reviewerId), `${at}: the author never reviews`).not.toContain(t.people.author.userId);
          const current = latestOfVersion(unit.reviews, unit.version, unit.authorId);
          const approvals = current.filter((r) => r.action === 'approve').length;
          expect(unit.approvalRate, at).toBeCloseTo(current.length === 0 ? 0 : approvals / current.length, 12);
          const why = notVerifiableBecause(unit, elementIds, t.minApprovals);
          if (unit.status === 'verified') {
            expect(why, `${at}: verified although`).toBeNull();
            expect(unit.verificationScore, at).toBe(1);
          } else if (unit.reviews.length > 0) {
            // And the converse: when nothing stands in the way, the unit is verified.
            expect(why, `${at}: status ${unit.status} although verifiable`).not.toBeNull();
          }
          before = unit;
        }
        if (before.status === 'verified') verifiedRuns++;
      }),
      { numRuns: 30 },
    );
    // The generator reaches `verified` often enough for the property to mean something.
    expect(verifiedRuns).toBeGreaterThan(0);
  }, 120_000);
});

// ------------------------------------------------------------ concurrent reviews

/**
 * The same invariant when reviews (and the author's edits) arrive at the same time: on Postgres
 * these are concurrent transactions, serialised by the organization's row lock.
 */
describe(`concurrent reviews and edits [${dialect}]`, () => {
  it('concurrent reviews and edits never leave a unit verified without a complete, unopposed approval of its current version', async () => {
    const batch = fc.record({
      reviews: fc.uniqueArray(
        fc.record({
          caller: fc.constantFrom<Caller>('reviewer1', 'reviewer2', 'admin', 'author'),
          action: fc.oneof({ weight: 2, arbitrary: fc.constant<ReviewAction>('approve') }, { weight: 1, arbitrary: fc.constant<ReviewAction>('request_changes') }),
          elementReviews: fc.uniqueArray(
            fc.record({ elementId: fc.constantFrom(...KINDS.program.elementIds), action: fc.oneof({ weight: 3, arbitrary: fc.constant<ElementReviewAction>('approve') }, { weight: 1, arbitrary: fc.constantFrom(...PROGRAM_ACTIONS) }) }),
            { selector: (er) => er.elementId, maxLength: 3 },
          ),
        }),
        { selector: (c) => c.caller, minLength: 1, maxLength: 3 },
      ),
      edit: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0, 1), fc.array(batch, { minLength: 1, maxLength: 4 }), async (ti, batches) => {
        const t = teams[ti]!;
        const { data: created } = await createUnit({ client: t.people.author.client, body: vacation(t.domainId) });
        let edits = 0;
        for (const [i, b] of batches.entries()) {
          const results = await Promise.all([
            ...b.reviews.map(({ caller, ...body }) => outcome(verifyUnit({ client: t.people[caller].client, path: { id: created.id }, body }))),
            ...(b.edit ? [outcome(updateUnit({ client: t.people.author.client, path: { id: created.id }, body: { name: `Vacation accrual, edit ${edits + 1}` } }))] : []),
          ]);
          for (const r of results) if ('error' in r) expect([403, 409], JSON.stringify(r.error.toJSON())).toContain(r.error.status);
          if (b.edit) edits++;
          const { data: unit } = await getUnit({ client: t.admin, path: { id: created.id } });
          const at = `batch ${i}`;
          expect(unit.version, `${at}: every edit is a version`).toBe(1 + edits);
          expect(unit.reviews.map((r) => r.reviewerId), at).not.toContain(t.people.author.userId);
          const current = latestOfVersion(unit.reviews, unit.version, unit.authorId);
          const why = notVerifiableBecause(unit, KINDS.program.elementIds, t.minApprovals);
          if (unit.status === 'verified') expect(why, `${at}: version ${unit.version} verified although`).toBeNull();
          else if (current.length > 0) expect(why, `${at}: status ${unit.status} although verifiable`).not.toBeNull();
          else expect(unit.status, `${at}: nobody reviewed version ${unit.version}`).toBe('candidate');
          const approvals = current.filter((r) => r.action === 'approve').length;
          expect(unit.approvalRate, at).toBeCloseTo(current.length === 0 ? 0 : approvals / current.length, 12);
        }
      }),
      { numRuns: 20 },
    );
  }, 120_000);
});
