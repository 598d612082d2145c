import {
  addDomainMember, aiEditUnit, assignReviewers, createDomain, createUnit, createUnitEdge, deleteUnit, getUnit, getUnitsBySlugs, listAuditEntries, listUnitEdges, listUnits, updateOrg, updateUnit, verifyUnit, type LemmaClient, type UnitCreate,
} from '@lemma/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlm, startFakeLlm } from './fake-llm-servers.js';
import { expectError } from './expect-error.js';
import { dialect, type Person, type Role, startTestServer, type Tenant, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

/** A tenant with a domain and people in each role (two reviewers, for four-eyes and quorum). */
async function team(): Promise<Tenant & { domainId: string; domainSlug: string; people: Record<'viewer' | 'reviewer' | 'reviewer2' | 'author' | 'admin2', Person> }> {
  const t = await server.newTenant('units');
  const people = {} as Record<'viewer' | 'reviewer' | 'reviewer2' | 'author' | 'admin2', Person>;
  const roles: [keyof typeof people, Role][] = [['viewer', 'viewer'], ['reviewer', 'reviewer'], ['reviewer2', 'reviewer'], ['author', 'author'], ['admin2', 'admin']];
  for (const [name, role] of roles) {
    people[name] = await t.addMember(name, role);
  }
  const { data: domain } = await createDomain({ client: t.admin, body: { name: 'Human Resources', jurisdiction: 'US-CA' } });
  return { ...t, domainId: domain.id, domainSlug: domain.slug, people };
}

const vacation = (domainId: string): UnitCreate => ({
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
  definition: {
    steps: [
      { id: 'base', set: 'vacation_days', expr: '10' },
      { id: 'senior', if: 'years_of_service >= 5', set: 'vacation_days', expr: '15' },
      { id: 'veteran', if: 'years_of_service >= 10', set: 'vacation_days', expr: '20' },
    ],
  },
  examples: [
    { name: 'twelve years', inputs: { years_of_service: 12 }, expected: { vacation_days: 20 } },
    { name: 'new hire', inputs: { years_of_service: 0 }, expected: { vacation_days: 10 } },
  ],
});

const creditRisk = (domainId: string): UnitCreate => ({
  name: 'Credit risk',
  unitType: 'framework',
  domainId,
  inputSchema: {
    type: 'object',
    properties: { credit_score: { type: 'integer' }, dti: { type: 'number' } },
    required: ['credit_score', 'dti'],
  },
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

describe(`units [${dialect}]`, () => {
  let t: Awaited<ReturnType<typeof team>>;
  beforeAll(async () => {
    t = await team();
  });

  it('creates a candidate at version 1 with a slug, its examples run, audited', async () => {
    const { data: unit } = await createUnit({ client: t.people.author.client, body: vacation(t.domainId) });
    expect(unit).toMatchObject({
      slug: 'vacation-accrual', status: 'candidate', version: 1, authorId: t.people.author.userId,
      verificationScore: 0, approvalRate: 0, reviewers: [], reviews: [], proposedChanges: [],
      exampleResults: { passing: 2, failing: 0, failures: [] },
      jurisdiction: 'US-CA', domainId: t.domainId,
    });
    expect(unit.id).toMatch(/^unit_/);
    // Slugs are unique per organization.
    const { data: again } = await createUnit({ client: t.people.author.client, body: vacation(t.domainId) });
    expect(again.slug).toBe('vacation-accrual-2');
    const { data: got } = await getUnit({ client: t.people.viewer.client, path: { id: unit.id } });
    expect(got).toEqual(unit);
    const { data: audit } = await listAuditEntries({ client: t.admin, query: { action: 'unit.created', resourceId: unit.id } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ userId: t.people.author.userId, resourceType: 'unit', details: { slug: 'vacation-accrual', unitType: 'program' } });
  });

  it('reports failing examples on the unit', async () => {
    const body = vacation(t.domainId);
    body.examples = [{ name: 'wrong on purpose', inputs: { years_of_service: 12 }, expected: { vacation_days: 25 } }];
    const { data } = await createUnit({ client: t.people.author.client, body });
    expect(data.exampleResults).toEqual({ passing: 0, failing: 1, failures: [{ name: 'wrong on purpose', message: 'vacation_days: expected 25, got 20' }] });
  });

  it('refuses bad definitions with the dotted field path, storing nothing', async () => {
    const before = (await listUnits({ client: t.admin, query: { limit: 200 } })).meta.total;
    const bad = vacation(t.domainId);
    (bad.definition as { steps: { expr: string }[] }).steps[2]!.expr = '20 +';
    await expectError(createUnit({ client: t.people.author.client, body: bad }), 400, 'VALIDATION_ERROR', 'definition.steps[2].expr');
    const dup = vacation(t.domainId);
    (dup.definition as { steps: { id: string }[] }).steps[1]!.id = 'base';
    await expectError(createUnit({ client: t.people.author.client, body: dup }), 400, 'VALIDATION_ERROR', 'definition.steps[1].id');
    const gate: UnitCreate = {
      name: 'One-option gate', unitType: 'protocol', domainId: t.domainId,
      definition: { steps: [{ id: 'ask', gate: { name: 'consent', question: 'Agree?', options: ['yes'] } }] },
    };
    await expectError(createUnit({ client: t.people.author.client, body: gate }), 400, 'VALIDATION_ERROR');
    const unknownPlaceholder = { ...vacation(t.domainId), then: 'You get {{holidays}} days.' };
    await expectError(createUnit({ client: t.people.author.client, body: unknownPlaceholder }), 400, 'VALIDATION_ERROR', 'then');
    await expectError(createUnit({ client: t.people.author.client, body: { ...vacation(t.domainId), unitType: 'essay' as 'program' } }), 400, 'VALIDATION_ERROR', 'unitType');
    expect((await listUnits({ client: t.admin, query: { limit: 200 } })).meta.total).toBe(before);
  });

  it("refuses another organization's domain as 404 naming domainId", async () => {
    const other = await server.newTenant('other');
    const { data: foreign } = await createDomain({ client: other.admin, body: { name: 'Theirs' } });
    await expectError(createUnit({ client: t.people.author.client, body: vacation(foreign.id) }), 404, 'NOT_FOUND', 'domainId');
  });

  it('lists with every filter and pagination, newest first', async () => {
    const o = await team();
    const { data: dom2 } = await createDomain({ client: o.admin, body: { name: 'Finance' } });
    const a = (await createUnit({ client: o.people.author.client, body: vacation(o.domainId) })).data;
    const b = (await createUnit({ client: o.people.author.client, body: creditRisk(dom2.id) })).data;
    const c = (await createUnit({ client: o.people.author.client, body: { ...vacation(o.domainId), name: 'NY vacation', jurisdiction: 'US-NY' } })).data;
    const d = (await createUnit({ client: o.people.author.client, body: { ...creditRisk(dom2.id), name: 'Global risk' } })).data;
    await assignReviewers({ client: o.admin, path: { id: d.id }, body: { reviewerIds: [o.people.reviewer.userId] } });
    // meta.total comes from counters the database keeps: it must agree with the rows themselves.
    const ids = async (query: Record<string, unknown>) => {
      const { data, meta } = await listUnits({ client: o.people.viewer.client, query: { limit: 200, ...query } });
      expect(meta.total, JSON.stringify(query)).toBe(data.length);
      return data.map((u) => u.id);
    };

    expect(await ids({})).toEqual([d.id, c.id, b.id, a.id]);
    expect(await ids({ unitType: 'framework' })).toEqual([d.id, b.id]);
    expect(await ids({ domainId: o.domainId })).toEqual([c.id, a.id]);
    expect(await ids({ status: 'in_review' })).toEqual([d.id]);
    expect(await ids({ status: 'candidate', unitType: 'program' })).toEqual([c.id, a.id]);
    // A jurisdiction filter includes units that apply everywhere (no jurisdiction).
    expect(await ids({ jurisdiction: 'US-CA' })).toEqual([d.id, b.id, a.id]);
    const page = await listUnits({ client: o.people.viewer.client, query: { limit: 2, offset: 1 } });
    expect(page.meta).toEqual({ total: 4, limit: 2, offset: 1 });
    expect(page.data.map((u) => u.id)).toEqual([c.id, b.id]);
    await expectError(listUnits({ client: o.admin, query: { status: 'approved' as 'verified' } }), 400, 'VALIDATION_ERROR', 'status');
    await expectError(listUnits({ client: o.admin, query: { limit: 201 } }), 400, 'VALIDATION_ERROR', 'limit');
    await expectError(listUnits({ client: o.admin, query: { offset: -1 } }), 400, 'VALIDATION_ERROR', 'offset');

    // Counters follow status changes, edits and deletions.
    await verifyUnit({ client: o.people.reviewer.client, path: { id: a.id }, body: { action: 'approve' } });
    await updateUnit({ client: o.people.author.client, path: { id: c.id }, body: { jurisdiction: 'US', domainId: dom2.id } });
    await deleteUnit({ client: o.admin, path: { id: b.id } });
    expect(await ids({ status: 'verified' })).toEqual([a.id]);
    expect(await ids({ domainId: dom2.id })).toEqual([d.id, c.id]);
    expect(await ids({ jurisdiction: 'US-NY' })).toEqual([d.id, c.id]);
    expect(await ids({})).toEqual([d.id, c.id, a.id]);

    const bySlugs = await getUnitsBySlugs({ client: o.people.viewer.client, body: { slugs: [c.slug, 'no-such-unit', a.slug] } });
    expect(bySlugs.data.map((u) => u.id)).toEqual([c.id, a.id]);
    expect(bySlugs.meta).toEqual({ total: 2, limit: 3, offset: 0 });
  });

  it('PATCH bumps the version and resets verification on any content change; no change, no version', async () => {
    const { data: unit } = await createUnit({ client: t.people.author.client, body: vacation(t.domainId) });
    await verifyUnit({ client: t.people.reviewer.client, path: { id: unit.id }, body: { action: 'approve' } });
    expect((await getUnit({ client: t.admin, path: { id: unit.id } })).data).toMatchObject({ status: 'verified', verificationScore: 1, approvalRate: 1 });

    const { data: same } = await updateUnit({ client: t.people.author.client, path: { id: unit.id }, body: { name: unit.name } });
    expect(same).toMatchObject({ version: 1, status: 'verified' });

    const { data: edited } = await updateUnit({ client: t.people.author.client, path: { id: unit.id }, body: { description: null, jurisdiction: 'US-NY' } });
    expect(edited).toMatchObject({ version: 2, status: 'candidate', verificationScore: 0, approvalRate: 0, description: null, jurisdiction: 'US-NY', slug: unit.slug });
    // The review of version 1 stays in history.
    expect(edited.reviews.map((r) => [r.version, r.action])).toEqual([[1, 'approve']]);
    const { data: audit } = await listAuditEntries({ client: t.admin, query: { action: 'unit.updated', resourceId: unit.id } });
    expect(audit[0]!.details).toMatchObject({ fromVersion: 1, toVersion: 2, changed: ['description', 'jurisdiction'], before: { jurisdiction: 'US-CA' }, after: { jurisdiction: 'US-NY' } });

    // A PATCH is validated like a create, against the merged unit.
    await expectError(updateUnit({ client: t.people.author.client, path: { id: unit.id }, body: { unitType: 'framework' } }), 400, 'VALIDATION_ERROR');
    await expectError(updateUnit({ client: t.people.author.client, path: { id: unit.id }, body: {} }), 400, 'VALIDATION_ERROR');
    expect((await getUnit({ client: t.admin, path: { id: unit.id } })).data.version).toBe(2);
  });

  it('deletes (admin) with its edges; another org sees 404 for every unit operation', async () => {
    const { data: a } = await createUnit({ client: t.people.author.client, body: vacation(t.domainId) });
    const other = await server.newTenant('snoop');
    await expectError(getUnit({ client: other.admin, path: { id: a.id } }), 404, 'NOT_FOUND');
    await expectError(updateUnit({ client: other.admin, path: { id: a.id }, body: { name: 'x' } }), 404, 'NOT_FOUND');
    await expectError(deleteUnit({ client: other.admin, path: { id: a.id } }), 404, 'NOT_FOUND');
    await expectError(verifyUnit({ client: other.admin, path: { id: a.id }, body: { action: 'approve' } }), 404, 'NOT_FOUND');
    await expectError(listUnitEdges({ client: other.admin, path: { id: a.id } }), 404, 'NOT_FOUND');
    expect((await getUnitsBySlugs({ client: other.admin, body: { slugs: [a.slug] } })).data).toEqual([]);

    const { data: deleted } = await deleteUnit({ client: t.admin, path: { id: a.id } });
    expect(deleted.id).toBe(a.id);
    await expectError(getUnit({ client: t.admin, path: { id: a.id } }), 404, 'NOT_FOUND');
    const { data: audit } = await listAuditEntries({ client: t.admin, query: { action: 'unit.deleted', resourceId: a.id } });
    expect(audit).toHaveLength(1);
  });

  it('enforces the role matrix on unit operations', async () => {
    const { data: unit } = await createUnit({ client: t.people.author.client, body: vacation(t.domainId) });
    for (const who of [t.people.viewer, t.people.reviewer]) {
      await expectError(createUnit({ client: who.client, body: vacation(t.domainId) }), 403, 'FORBIDDEN');
      await expectError(updateUnit({ client: who.client, path: { id: unit.id }, body: { name: 'x' } }), 403, 'FORBIDDEN');
      await expectError(aiEditUnit({ client: who.client, path: { id: unit.id }, body: { instruction: 'rename to "x"' } }), 403, 'FORBIDDEN');
    }
    await expectError(verifyUnit({ client: t.people.viewer.client, path: { id: unit.id }, body: { action: 'approve' } }), 403, 'FORBIDDEN');
    for (const who of [t.people.viewer, t.people.reviewer, t.people.author]) {
      await expectError(deleteUnit({ client: who.client, path: { id: unit.id } }), 403, 'FORBIDDEN');
      await expectError(assignReviewers({ client: who.client, path: { id: unit.id }, body: { reviewerIds: [t.people.reviewer.userId] } }), 403, 'FORBIDDEN');
      await expectError(createDomain({ client: who.client, body: { name: 'Nope' } }), 403, 'FORBIDDEN');
    }
    // Every role reads.
    await getUnit({ client: t.people.viewer.client, path: { id: unit.id } });
    await listUnitEdges({ client: t.people.viewer.client, path: { id: unit.id } });
  });
});

describe(`review and verification [${dialect}]`, () => {
  let t: Awaited<ReturnType<typeof team>>;
  beforeAll(async () => {
    t = await team();
  });

  it('assigns reviewers: only reviewer+ members, not the author; a candidate goes in_review', async () => {
    const { data: unit } = await createUnit({ client: t.people.author.client, body: vacation(t.domainId) });
    const outsider = await server.newTenant('outsider');
    await expectError(assignReviewers({ client: t.admin, path: { id: unit.id }, body: { reviewerIds: [t.people.reviewer.userId, outsider.adminUserId] } }), 400, 'VALIDATION_ERROR', 'reviewerIds[1]');
    await expectError(assignReviewers({ client: t.admin, path: { id: unit.id }, body: { reviewerIds: [t.people.viewer.userId] } }), 400, 'VALIDATION_ERROR', 'reviewerIds[0]');
    await expectError(assignReviewers({ client: t.admin, path: { id: unit.id }, body: { reviewerIds: [t.people.author.userId] } }), 400, 'VALIDATION_ERROR', 'reviewerIds[0]');
    expect((await getUnit({ client: t.admin, path: { id: unit.id } })).data).toMatchObject({ status: 'candidate', reviewers: [] });

    const { data } = await assignReviewers({ client: t.admin, path: { id: unit.id }, body: { reviewerIds: [t.people.reviewer.userId, t.people.reviewer2.userId] } });
    expect(data).toMatchObject({ status: 'in_review', reviewers: [t.people.reviewer.userId, t.people.reviewer2.userId] });
    const { data: again } = await assignReviewers({ client: t.admin, path: { id: unit.id }, body: { reviewerIds: [t.people.reviewer.userId] } });
    expect(again.reviewers).toHaveLength(2);
    const { data: audit } = await listAuditEntries({ client: t.admin, query: { action: 'unit.assigned', resourceId: unit.id } });
    expect(audit).toHaveLength(2);
  });

  it('four-eyes: the author may not review their own unit, even as admin', async () => {
    const { data: mine } = await createUnit({ client: t.admin, body: vacation(t.domainId) });
    const e = await expectError(verifyUnit({ client: t.admin, path: { id: mine.id }, body: { action: 'approve' } }), 403, 'FORBIDDEN');
    expect(e.details).toMatchObject({ rule: 'four_eyes' });
    expect((await getUnit({ client: t.admin, path: { id: mine.id } })).data.reviews).toEqual([]);
  });

  it('element reviews: partial, then verified; corrections become proposed changes; audited with action and rate', async () => {
    const { data: unit } = await createUnit({ client: t.people.author.client, body: vacation(t.domainId) });
    const r1 = await verifyUnit({
      client: t.people.reviewer.client,
      path: { id: unit.id },
      body: {
        action: 'request_changes',
        comment: 'The ten-year tier is wrong for part-time staff.',
        elementReviews: [
          { elementId: 'base', action: 'approve' },
          { elementId: 'veteran', action: 'correct_values', comment: 'Should be 22 days.', value: { expr: '22' } },
        ],
      },
    });
    expect(r1.data).toMatchObject({ status: 'in_review', approvalRate: 0, verificationScore: 0 });
    expect(r1.data.proposedChanges).toEqual([
      expect.objectContaining({ elementId: 'veteran', action: 'correct_values', value: { expr: '22' }, comment: 'Should be 22 days.', reviewerId: t.people.reviewer.userId, reviewId: r1.data.reviews[0]!.id }),
    ]);

    // The same reviewer changes their mind and approves two steps only: partial.
    const r2 = await verifyUnit({
      client: t.people.reviewer.client,
      path: { id: unit.id },
      body: { action: 'request_changes', elementReviews: [{ elementId: 'base', action: 'approve' }, { elementId: 'senior', action: 'approve' }] },
    });
    expect(r2.data.status).toBe('in_review');
    const r3 = await verifyUnit({
      client: t.people.reviewer2.client,
      path: { id: unit.id },
      body: { action: 'approve', elementReviews: [{ elementId: 'veteran', action: 'add_branch', value: { if: 'part_time', expr: '15' } }] },
    });
    // reviewer's latest review still requests changes.
    expect(r3.data).toMatchObject({ status: 'in_review', approvalRate: 0.5 });

    const r4 = await verifyUnit({ client: t.people.reviewer.client, path: { id: unit.id }, body: { action: 'approve' } });
    // veteran still has reviewer2's open correction: 2 of 3 steps approved.
    expect(r4.data).toMatchObject({ status: 'partial_verified', approvalRate: 1 });
    expect(r4.data.verificationScore).toBeCloseTo(2 / 3, 10);

    const r5 = await verifyUnit({ client: t.people.reviewer2.client, path: { id: unit.id }, body: { action: 'approve' } });
    expect(r5.data).toMatchObject({ status: 'verified', approvalRate: 1, verificationScore: 1, proposedChanges: [] });
    expect(r5.data.reviews.map((r) => [r.reviewerId, r.action, r.version])).toEqual([
      [t.people.reviewer.userId, 'request_changes', 1],
      [t.people.reviewer.userId, 'request_changes', 1],
      [t.people.reviewer2.userId, 'approve', 1],
      [t.people.reviewer.userId, 'approve', 1],
      [t.people.reviewer2.userId, 'approve', 1],
    ]);
    // Reviewing an already verified version is a conflict.
    await expectError(verifyUnit({ client: t.admin, path: { id: unit.id }, body: { action: 'approve' } }), 409, 'CONFLICT');

    const { data: audit } = await listAuditEntries({ client: t.admin, query: { action: 'unit.verified', resourceId: unit.id, limit: 10 } });
    expect(audit).toHaveLength(5);
    expect(audit[0]!.details).toMatchObject({ verificationAction: 'approve', approvalRate: 1, status: { from: 'partial_verified', to: 'verified' } });
    expect(audit[4]!.details).toMatchObject({ verificationAction: 'request_changes', approvalRate: 0 });
  });

  it('refuses element reviews of unknown ids and actions of the wrong unit type, recording nothing', async () => {
    const { data: unit } = await createUnit({ client: t.people.author.client, body: vacation(t.domainId) });
    await expectError(verifyUnit({ client: t.people.reviewer.client, path: { id: unit.id }, body: { action: 'approve', elementReviews: [{ elementId: 'nope', action: 'approve' }] } }), 400, 'VALIDATION_ERROR', 'elementReviews[0].elementId');
    await expectError(verifyUnit({ client: t.people.reviewer.client, path: { id: unit.id }, body: { action: 'approve', elementReviews: [{ elementId: 'base', action: 'approve' }, { elementId: 'senior', action: 'reweight_element' }] } }), 400, 'VALIDATION_ERROR', 'elementReviews[1].action');
    await expectError(verifyUnit({ client: t.people.reviewer.client, path: { id: unit.id }, body: { action: 'maybe' as 'approve' } }), 400, 'VALIDATION_ERROR', 'action');
    const { data: framework } = await createUnit({ client: t.people.author.client, body: creditRisk(t.domainId) });
    await expectError(verifyUnit({ client: t.people.reviewer.client, path: { id: framework.id }, body: { action: 'approve', elementReviews: [{ elementId: 'good_score', action: 'approve' }] } }), 400, 'VALIDATION_ERROR', 'elementReviews[0].action');
    const { data: ok } = await verifyUnit({ client: t.people.reviewer.client, path: { id: framework.id }, body: { action: 'approve', elementReviews: [{ elementId: 'low_dti', action: 'reweight_element', value: 2 }] } });
    expect(ok).toMatchObject({ status: 'partial_verified', verificationScore: 0.5 });
    expect((await getUnit({ client: t.admin, path: { id: unit.id } })).data).toMatchObject({ status: 'candidate', reviews: [] });
    const { data: audit } = await listAuditEntries({ client: t.admin, query: { action: 'unit.verified', resourceId: unit.id } });
    expect(audit).toEqual([]);
  });

  it('a unit whose examples fail cannot be approved (409 naming the example)', async () => {
    const body = vacation(t.domainId);
    body.examples = [{ name: 'pinned twenty-two', inputs: { years_of_service: 12 }, expected: { vacation_days: 22 } }];
    const { data: unit } = await createUnit({ client: t.people.author.client, body });
    const e = await expectError(verifyUnit({ client: t.people.reviewer.client, path: { id: unit.id }, body: { action: 'approve' } }), 409, 'CONFLICT');
    expect(e.message).toContain('pinned twenty-two');
    expect(e.details).toMatchObject({ failingExamples: ['pinned twenty-two'] });
    // Fixing the unit (a new version) makes the example pass, and approval goes through.
    const { data: fixed } = await updateUnit({
      client: t.people.author.client,
      path: { id: unit.id },
      body: { definition: { steps: [{ id: 'base', set: 'vacation_days', expr: '10' }, { id: 'veteran', if: 'years_of_service >= 10', set: 'vacation_days', expr: '22' }] } },
    });
    expect(fixed.exampleResults).toMatchObject({ passing: 1, failing: 0 });
    const { data: ok } = await verifyUnit({ client: t.people.reviewer.client, path: { id: unit.id }, body: { action: 'approve' } });
    expect(ok).toMatchObject({ status: 'verified', version: 2 });
  });

  it('honours verification.minApprovals', async () => {
    const o = await team();
    await updateOrg({ client: o.admin, path: { slug: o.slug }, body: { settings: { verification: { minApprovals: 2 } } } });
    const { data: unit } = await createUnit({ client: o.people.author.client, body: vacation(o.domainId) });
    const one = await verifyUnit({ client: o.people.reviewer.client, path: { id: unit.id }, body: { action: 'approve' } });
    expect(one.data).toMatchObject({ status: 'in_review', approvalRate: 1 });
    const two = await verifyUnit({ client: o.people.reviewer2.client, path: { id: unit.id }, body: { action: 'approve' } });
    expect(two.data).toMatchObject({ status: 'verified', approvalRate: 1, verificationScore: 1 });
  });

  it("a domain with members: only its reviewer+ members and org admins may verify", async () => {
    const o = await team();
    const { data: unit } = await createUnit({ client: o.people.author.client, body: vacation(o.domainId) });
    await addDomainMember({ client: o.admin, path: { slug: o.domainSlug }, body: { userId: o.people.reviewer2.userId, role: 'reviewer' } });
    await addDomainMember({ client: o.admin, path: { slug: o.domainSlug }, body: { userId: o.people.viewer.userId, role: 'viewer' } });
    const e = await expectError(verifyUnit({ client: o.people.reviewer.client, path: { id: unit.id }, body: { action: 'approve' } }), 403, 'FORBIDDEN');
    expect(e.details).toMatchObject({ rule: 'domain_reviewers' });
    await expectError(assignReviewers({ client: o.admin, path: { id: unit.id }, body: { reviewerIds: [o.people.reviewer.userId] } }), 400, 'VALIDATION_ERROR', 'reviewerIds[0]');
    await assignReviewers({ client: o.admin, path: { id: unit.id }, body: { reviewerIds: [o.people.reviewer2.userId, o.people.admin2.userId] } });
    const { data } = await verifyUnit({ client: o.people.reviewer2.client, path: { id: unit.id }, body: { action: 'approve' } });
    expect(data.status).toBe('verified');
  });
});

describe(`edges [${dialect}]`, () => {
  let t: Awaited<ReturnType<typeof team>>;
  beforeAll(async () => {
    t = await team();
  });

  const io = (name: string, inputs: Record<string, string>, outputs: Record<string, string>): UnitCreate => ({
    name,
    unitType: 'program',
    domainId: t.domainId,
    inputSchema: { type: 'object', properties: Object.fromEntries(Object.entries(inputs).map(([k, type]) => [k, { type }])), required: Object.keys(inputs) },
    outputSchema: { type: 'object', properties: Object.fromEntries(Object.entries(outputs).map(([k, type]) => [k, { type }])) },
    definition: { steps: Object.entries(outputs).map(([k, type], i) => ({ id: `s${i}`, set: k, expr: type === 'string' ? '"x"' : type === 'boolean' ? 'true' : '1' })) },
  });

  it('feeds edges join outputs to inputs of compatible types, by name or by mapping; no cycles', async () => {
    const a = (await createUnit({ client: t.people.author.client, body: io('A', {}, { amount: 'integer', label: 'string' }) })).data;
    const b = (await createUnit({ client: t.people.author.client, body: io('B', { amount: 'number' }, { total: 'number' }) })).data;
    const c = (await createUnit({ client: t.people.author.client, body: io('C', { sum: 'number' }, { ok: 'boolean' }) })).data;

    const { data: ab } = await createUnitEdge({ client: t.people.author.client, path: { id: a.id }, body: { targetUnitId: b.id, kind: 'feeds' } });
    expect(ab).toMatchObject({ sourceUnitId: a.id, targetUnitId: b.id, kind: 'feeds', mapping: { amount: 'amount' } });
    await expectError(createUnitEdge({ client: t.people.author.client, path: { id: b.id }, body: { targetUnitId: c.id, kind: 'feeds' } }), 400, 'VALIDATION_ERROR', 'mapping');
    const { data: bc } = await createUnitEdge({ client: t.people.author.client, path: { id: b.id }, body: { targetUnitId: c.id, kind: 'feeds', mapping: { total: 'sum' } } });
    expect(bc.mapping).toEqual({ total: 'sum' });
    // A string output cannot feed a number input.
    await expectError(createUnitEdge({ client: t.people.author.client, path: { id: a.id }, body: { targetUnitId: c.id, kind: 'feeds', mapping: { label: 'sum' } } }), 400, 'VALIDATION_ERROR', 'mapping.label');
    await expectError(createUnitEdge({ client: t.people.author.client, path: { id: a.id }, body: { targetUnitId: c.id, kind: 'feeds', mapping: { nope: 'sum' } } }), 400, 'VALIDATION_ERROR', 'mapping.nope');
    // c -> a would close a -> b -> c -> a.
    const cycle = await expectError(createUnitEdge({ client: t.people.author.client, path: { id: c.id }, body: { targetUnitId: a.id, kind: 'requires' } }), 409, 'CONFLICT');
    expect(cycle.details).toMatchObject({ rule: 'acyclic' });
    await expectError(createUnitEdge({ client: t.people.author.client, path: { id: a.id }, body: { targetUnitId: b.id, kind: 'feeds' } }), 409, 'CONFLICT');
    await expectError(createUnitEdge({ client: t.people.author.client, path: { id: a.id }, body: { targetUnitId: a.id, kind: 'requires' } }), 400, 'VALIDATION_ERROR', 'targetUnitId');
    await expectError(createUnitEdge({ client: t.people.author.client, path: { id: a.id }, body: { targetUnitId: 'unit_missing', kind: 'requires' } }), 404, 'NOT_FOUND', 'targetUnitId');
    await expectError(createUnitEdge({ client: t.people.author.client, path: { id: a.id }, body: { targetUnitId: c.id, kind: 'cites' as 'feeds' } }), 400, 'VALIDATION_ERROR', 'kind');
    await expectError(createUnitEdge({ client: t.people.viewer.client, path: { id: a.id }, body: { targetUnitId: c.id, kind: 'requires' } }), 403, 'FORBIDDEN');
    const { data: ac } = await createUnitEdge({ client: t.people.author.client, path: { id: a.id }, body: { targetUnitId: c.id, kind: 'overrides' } });
    expect(ac.mapping).toEqual({});

    const { data: edgesOfB, meta } = await listUnitEdges({ client: t.people.viewer.client, path: { id: b.id } });
    expect(edgesOfB.map((e) => e.id)).toEqual([ab.id, bc.id]);
    expect(meta.total).toBe(2);
    const { data: audit } = await listAuditEntries({ client: t.admin, query: { action: 'unit.edge_created' } });
    expect(audit).toHaveLength(3);

    // Deleting a unit removes its edges.
    await deleteUnit({ client: t.admin, path: { id: b.id } });
    expect((await listUnitEdges({ client: t.admin, path: { id: a.id } })).data.map((e) => e.id)).toEqual([ac.id]);
  });
});

describe(`ai-edit [${dialect}]`, () => {
  let t: Awaited<ReturnType<typeof team>>;
  beforeAll(async () => {
    t = await team();
  });

  it('applies the local grammar as a new version, audited with a before/after diff', async () => {
    const { data: unit } = await createUnit({ client: t.people.author.client, body: vacation(t.domainId) });
    await verifyUnit({ client: t.people.reviewer.client, path: { id: unit.id }, body: { action: 'approve' } });
    const { data } = await aiEditUnit({ client: t.people.author.client, path: { id: unit.id }, body: { instruction: 'add alias seniority to years_of_service; set threshold senior to 4' } });
    expect(data).toMatchObject({ version: 2, status: 'candidate', verificationScore: 0 });
    expect(data.inputSchema.properties?.years_of_service?.['x-aliases']).toEqual(['tenure', 'seniority']);
    expect((data.definition as { steps: { if?: string }[] }).steps[1]!.if).toBe('years_of_service >= 4');
    const { data: audit } = await listAuditEntries({ client: t.admin, query: { action: 'unit.ai_edited', resourceId: unit.id } });
    expect(audit[0]!.details).toMatchObject({
      provider: 'local', fromVersion: 1, toVersion: 2, changed: ['inputSchema', 'definition'],
      before: { inputSchema: { properties: { years_of_service: { 'x-aliases': ['tenure'] } } } },
      after: { inputSchema: { properties: { years_of_service: { 'x-aliases': ['tenure', 'seniority'] } } } },
    });
  });

  it('refuses what it cannot apply with 400 naming what it understands, changing nothing', async () => {
    const { data: unit } = await createUnit({ client: t.people.author.client, body: vacation(t.domainId) });
    const e = await expectError(aiEditUnit({ client: t.people.author.client, path: { id: unit.id }, body: { instruction: 'make it better' } }), 400, 'VALIDATION_ERROR', 'instruction');
    expect(e.message).toContain('rename to');
    await expectError(aiEditUnit({ client: t.people.author.client, path: { id: unit.id }, body: { instruction: 'set weight base to 3' } }), 400, 'VALIDATION_ERROR', 'instruction');
    // An edit producing an invalid unit is refused by the same validation as a PATCH.
    await expectError(aiEditUnit({ client: t.people.author.client, path: { id: unit.id }, body: { instruction: 'set expr base to 10 +' } }), 400, 'VALIDATION_ERROR', 'definition.steps[0].expr');
    expect((await getUnit({ client: t.admin, path: { id: unit.id } })).data.version).toBe(1);
    const { data: audit } = await listAuditEntries({ client: t.admin, query: { action: 'unit.ai_edited', resourceId: unit.id } });
    expect(audit).toEqual([]);
  });
});

describe(`ai-edit through a model [${dialect}]`, () => {
  let t: Awaited<ReturnType<typeof team>>;
  let llm: FakeLlm;
  beforeAll(async () => {
    [t, llm] = await Promise.all([team(), startFakeLlm('openai')]);
    await updateOrg({
      client: t.admin,
      path: { slug: t.slug },
      body: { settings: { llm: { prose: { provider: 'openai', model: 'gpt-4o-mini' }, providers: { openai: { baseUrl: llm.baseUrl, apiKey: 'sk-test-edit-1234', timeoutMs: 5000, maxRetries: 0 } } } } },
    });
  });
  afterAll(() => llm.close());

  it("sends the instruction and the unit to the prose role's model and applies its changes as a new version", async () => {
    const { data: unit } = await createUnit({ client: t.people.author.client, body: vacation(t.domainId) });
    llm.reset((call) => {
      expect(call.user).toContain('Instruction: Say that the rules date from 2026');
      expect(call.user).toContain('"name": "Vacation accrual"');
      return { json: { changes: JSON.stringify({ description: 'Annual vacation days by years of service (2026 rules).' }), summary: 'Dated the description to 2026.' } };
    });
    const { data } = await aiEditUnit({ client: t.people.author.client, path: { id: unit.id }, body: { instruction: 'Say that the rules date from 2026' } });
    expect(data).toMatchObject({ version: 2, status: 'candidate', description: 'Annual vacation days by years of service (2026 rules).' });
    expect(llm.problems).toEqual([]);
    const { data: audit } = await listAuditEntries({ client: t.admin, query: { action: 'unit.ai_edited', resourceId: unit.id } });
    expect(audit[0]!.details).toMatchObject({ provider: 'openai', summary: 'Dated the description to 2026.', changed: ['description'] });
  });

  it('a model answer that touches fields it may not change falls back to the local grammar, and says so', async () => {
    const { data: unit } = await createUnit({ client: t.people.author.client, body: vacation(t.domainId) });
    llm.reset(() => ({ json: { changes: JSON.stringify({ status: 'verified' }), summary: 'Verified it.' } }));
    const { data } = await aiEditUnit({ client: t.people.author.client, path: { id: unit.id }, body: { instruction: 'rename to "Vacation accrual (CA)"' } });
    expect(data).toMatchObject({ name: 'Vacation accrual (CA)', status: 'candidate', version: 2 });
    const { data: audit } = await listAuditEntries({ client: t.admin, query: { action: 'unit.ai_edited', resourceId: unit.id } });
    expect(audit[0]!.details).toMatchObject({ provider: 'local' });
    expect(JSON.stringify(audit[0]!.details)).toContain('prose: the openai provider failed (malformed)');
  });
});
