import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ElementAction, type ElementReview, PROGRAM_ELEMENT_ACTIONS, type Review, type ReviewAction, reviewState,
  type ReviewState, STRUCTURED_ELEMENT_ACTIONS, type UnitStatus,
} from './review-state.js';

const AUTHOR = 'usr_author';
const STEPS = ['base', 'senior', 'veteran'];

type Input = Parameters<typeof reviewState>[0];

const input = (reviews: Review[], over: Partial<Input> = {}): Input => ({
  elementIds: STEPS,
  version: 2,
  authorId: AUTHOR,
  reviews,
  minApprovals: 1,
  baseStatus: 'candidate',
  ...over,
});

const review = (reviewerId: string, action: ReviewAction, elementReviews: ElementReview[] = [], version = 2): Review =>
  ({ reviewerId, version, action, elementReviews });
const el = (elementId: string, action: ElementAction): ElementReview => ({ elementId, action });

describe('reviewState: the rules of its doc comment', () => {
  it('nobody reviewed this version: the base status, scores 0', () => {
    for (const baseStatus of ['candidate', 'in_review'] as const) {
      expect(reviewState(input([], { baseStatus }))).toEqual({
        status: baseStatus, approvalRate: 0, verificationScore: 0, approvedElements: [], approvals: 0,
      });
    }
    // Reviews of other versions are history: still nobody reviewed version 2.
    const old = [review('usr_a', 'approve', [], 1), review('usr_b', 'request_changes', [], 3)];
    expect(reviewState(input(old, { baseStatus: 'in_review' }))).toMatchObject({ status: 'in_review', approvalRate: 0, verificationScore: 0, approvals: 0 });
  });

  it('an overall approve approves every element it does not mention: verified at minApprovals 1', () => {
    expect(reviewState(input([review('usr_a', 'approve')]))).toEqual({
      status: 'verified', approvalRate: 1, verificationScore: 1, approvedElements: STEPS, approvals: 1,
    });
  });

  it('only each reviewer\'s latest review of the version counts', () => {
    // a approved, then requested changes: the request stands.
    const s1 = reviewState(input([review('usr_a', 'approve'), review('usr_a', 'request_changes')]));
    expect(s1).toMatchObject({ status: 'in_review', approvalRate: 0, approvals: 0 });
    // a requested changes, then approved: verified.
    const s2 = reviewState(input([review('usr_a', 'request_changes', [el('base', 'correct_values')]), review('usr_a', 'approve')]));
    expect(s2).toMatchObject({ status: 'verified', approvalRate: 1, verificationScore: 1 });
    // A later review of an older version does not supersede a review of the current one.
    const s3 = reviewState(input([review('usr_a', 'approve'), review('usr_a', 'request_changes', [], 1)]));
    expect(s3.status).toBe('verified');
  });

  it('an element approve approves it even in a request_changes review (which still holds the unit in review)', () => {
    const s = reviewState(input([review('usr_a', 'request_changes', [el('base', 'approve'), el('senior', 'approve')])]));
    expect(s).toMatchObject({ status: 'in_review', approvedElements: ['base', 'senior'], approvals: 0, approvalRate: 0, verificationScore: 0 });
  });

  it('an overall request_changes approves nothing it does not mention', () => {
    const s = reviewState(input([review('usr_a', 'request_changes')]));
    expect(s).toMatchObject({ status: 'in_review', approvedElements: [] });
  });

  it('a proposed change blocks the element, whoever else approves it', () => {
    const s = reviewState(input([
      review('usr_a', 'approve'),
      review('usr_b', 'approve', [el('veteran', 'add_branch')]),
      review('usr_c', 'approve', [el('veteran', 'approve')]),
    ]));
    expect(s).toMatchObject({ status: 'partial_verified', approvedElements: ['base', 'senior'], approvals: 3, approvalRate: 1 });
    expect(s.verificationScore).toBeCloseTo(2 / 3, 12);
  });

  it('an overall approve that proposes a change to an element does not approve that element', () => {
    const s = reviewState(input([review('usr_a', 'approve', [el('senior', 'correct_values')])]));
    expect(s.approvedElements).toEqual(['base', 'veteran']);
    expect(s.status).toBe('partial_verified');
  });

  it('every program and structured change action blocks; approve and approve_element approve', () => {
    for (const action of [...PROGRAM_ELEMENT_ACTIONS, ...STRUCTURED_ELEMENT_ACTIONS]) {
      const s = reviewState(input([review('usr_a', 'approve', [el('base', action)])]));
      const approves = action === 'approve' || action === 'approve_element';
      expect(s.approvedElements.includes('base'), action).toBe(approves);
      expect(s.status, action).toBe(approves ? 'verified' : 'partial_verified');
    }
  });

  it('in_review while any reviewer\'s latest review requests changes, even with every element approved', () => {
    const s = reviewState(input([review('usr_a', 'approve'), review('usr_b', 'request_changes', STEPS.map((id) => el(id, 'approve')))]));
    expect(s).toMatchObject({ status: 'in_review', approvedElements: STEPS, approvals: 1, approvalRate: 0.5, verificationScore: 0.5 });
  });

  it('verified needs minApprovals overall approvals', () => {
    const one = [review('usr_a', 'approve')];
    expect(reviewState(input(one, { minApprovals: 2 }))).toMatchObject({ status: 'in_review', approvals: 1, approvalRate: 1, verificationScore: 1 });
    const two = [...one, review('usr_b', 'approve', [el('base', 'approve')])];
    expect(reviewState(input(two, { minApprovals: 2 }))).toMatchObject({ status: 'verified', approvals: 2 });
    // The same reviewer approving twice is one approval.
    expect(reviewState(input([...one, ...one], { minApprovals: 2 })).status).toBe('in_review');
  });

  it('partial_verified when some but not all elements are approved; in_review when none is', () => {
    const some = reviewState(input([review('usr_a', 'approve', [el('base', 'correct_values'), el('senior', 'add_exception')])]));
    expect(some).toMatchObject({ status: 'partial_verified', approvedElements: ['veteran'], approvalRate: 1 });
    expect(some.verificationScore).toBeCloseTo(1 / 3, 12);
    const none = reviewState(input([review('usr_a', 'approve', STEPS.map((id) => el(id, 'correct_values')))]));
    expect(none).toMatchObject({ status: 'in_review', approvedElements: [], approvalRate: 1, verificationScore: 0 });
  });

  it('a declarative unit (no elements) needs the approvals only', () => {
    const decl = { elementIds: [] as string[] };
    expect(reviewState(input([review('usr_a', 'approve')], decl))).toEqual({
      status: 'verified', approvalRate: 1, verificationScore: 1, approvedElements: [], approvals: 1,
    });
    expect(reviewState(input([review('usr_a', 'approve')], { ...decl, minApprovals: 2 }))).toMatchObject({ status: 'in_review', verificationScore: 1 });
    expect(reviewState(input([review('usr_a', 'request_changes')], decl))).toEqual({
      status: 'in_review', approvalRate: 0, verificationScore: 0, approvedElements: [], approvals: 0,
    });
  });

  it('approvalRate is approving reviewers over reviewers of the version; the score scales it by the approved share', () => {
    const s = reviewState(input([
      review('usr_a', 'approve', [el('veteran', 'correct_values')]),
      review('usr_b', 'request_changes'),
      review('usr_c', 'approve'),
      review('usr_d', 'request_changes', [], 1),
    ]));
    expect(s.approvals).toBe(2);
    expect(s.approvalRate).toBeCloseTo(2 / 3, 12);
    expect(s.verificationScore).toBeCloseTo((2 / 3) * (2 / 3), 12);
    expect(s.approvedElements).toEqual(['base', 'senior']);
  });

  it("the author's reviews never count, even if one slipped in", () => {
    expect(reviewState(input([review(AUTHOR, 'approve')], { baseStatus: 'candidate' }))).toMatchObject({ status: 'candidate', approvals: 0, approvalRate: 0 });
    expect(reviewState(input([review('usr_a', 'approve'), review(AUTHOR, 'request_changes', [el('base', 'correct_values')])])).status).toBe('verified');
    // The author's approval is no second approval.
    expect(reviewState(input([review('usr_a', 'approve'), review(AUTHOR, 'approve')], { minApprovals: 2 }))).toMatchObject({ status: 'in_review', approvals: 1, approvalRate: 1 });
  });
});

// ---------------------------------------------------------------- properties

const ALL_ELEMENT_ACTIONS: readonly ElementAction[] = [...PROGRAM_ELEMENT_ACTIONS, ...STRUCTURED_ELEMENT_ACTIONS];
const REVIEWERS = [AUTHOR, 'usr_r1', 'usr_r2', 'usr_r3', 'usr_r4'];
const CURRENT = 3;

// Biased towards approvals, so that a fair share of scenarios reach `verified` or come close.
const overallAction = fc.oneof({ weight: 4, arbitrary: fc.constant<ReviewAction>('approve') }, { weight: 1, arbitrary: fc.constant<ReviewAction>('request_changes') });
const elementAction = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<ElementAction>('approve', 'approve_element') },
  { weight: 1, arbitrary: fc.constantFrom(...ALL_ELEMENT_ACTIONS) },
);

/** Elements (0 = a declarative unit), a minimum, and reviews by anyone (the author too) of any version. */
const scenario = fc.record({
  elementIds: fc.uniqueArray(fc.constantFrom<string>('a', 'b', 'c', 'd', 'e'), { maxLength: 4 }),
  minApprovals: fc.integer({ min: 1, max: 3 }),
  baseStatus: fc.constantFrom<UnitStatus>('candidate', 'in_review'),
}).chain(({ elementIds, minApprovals, baseStatus }) => {
  const elementReview = fc.record({
    elementId: elementIds.length > 0 ? fc.constantFrom(...elementIds) : fc.constant('a'),
    action: elementAction,
  });
  const oneReview: fc.Arbitrary<Review> = fc.record({
    reviewerId: fc.constantFrom(...REVIEWERS),
    // Mostly the current version, some older ones (and, defensively, a newer one).
    version: fc.oneof({ weight: 4, arbitrary: fc.constant(CURRENT) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: CURRENT + 1 }) }),
    action: overallAction,
    // Duplicated element ids in one review are possible here (the service refuses them).
    elementReviews: elementIds.length > 0 ? fc.array(elementReview, { maxLength: 4 }) : fc.constant([]),
  });
  return fc.record({
    elementIds: fc.constant(elementIds),
    minApprovals: fc.constant(minApprovals),
    baseStatus: fc.constant(baseStatus),
    reviews: fc.array(oneReview, { maxLength: 10 }),
  });
});

const stateOf = (s: { elementIds: string[]; minApprovals: number; baseStatus: UnitStatus; reviews: Review[] }): ReviewState =>
  reviewState({ elementIds: s.elementIds, version: CURRENT, authorId: AUTHOR, reviews: s.reviews, minApprovals: s.minApprovals, baseStatus: s.baseStatus });

/** The oracle: each non-author's latest review of the current version, written out independently. */
function latestCurrentByReviewer(reviews: readonly Review[]): Review[] {
  const out: Review[] = [];
  const seen = new Set<string>();
  for (let i = reviews.length - 1; i >= 0; i--) {
    const r = reviews[i]!;
    if (r.version !== CURRENT || r.reviewerId === AUTHOR || seen.has(r.reviewerId)) continue;
    seen.add(r.reviewerId);
    out.push(r);
  }
  return out;
}

const APPROVING = new Set<string>(['approve', 'approve_element']);

/** Does this review approve the element: explicitly, or as an overall approve that does not mention it? */
function approvesElement(r: Review, id: string): boolean {
  const mentions = r.elementReviews.filter((er) => er.elementId === id);
  if (mentions.length === 0) return r.action === 'approve';
  return mentions.some((er) => APPROVING.has(er.action));
}

const proposesChange = (r: Review): boolean => r.elementReviews.some((er) => !APPROVING.has(er.action));

/** What `verified` must mean, from DESIGN §6, over the reviews that count. */
function oracleVerifiable(s: { elementIds: string[]; minApprovals: number; reviews: Review[] }): { ok: boolean; why: string } {
  const current = latestCurrentByReviewer(s.reviews);
  if (current.length === 0) return { ok: false, why: 'nobody reviewed the current version' };
  for (const id of s.elementIds) {
    if (!current.some((r) => approvesElement(r, id))) return { ok: false, why: `element ${id} is approved by no non-author` };
  }
  const open = current.find((r) => r.action === 'request_changes' || proposesChange(r));
  if (open) return { ok: false, why: `${open.reviewerId} has an open change request` };
  const approvals = current.filter((r) => r.action === 'approve').length;
  if (approvals < s.minApprovals) return { ok: false, why: `${approvals} approvals < ${s.minApprovals}` };
  return { ok: true, why: '' };
}

const RUNS = { numRuns: 2000 };

describe('reviewState properties', () => {
  it('P1: verified only when every element is approved by a non-author, no change is open and approvals reach the minimum (and then always)', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const state = stateOf(s);
        const oracle = oracleVerifiable(s);
        if (state.status === 'verified') expect(oracle, 'verified although').toEqual({ ok: true, why: '' });
        // The converse: when the oracle's conditions hold the unit is verified.
        if (oracle.ok) expect(state.status).toBe('verified');
      }),
      RUNS,
    );
  });

  it("P2: reviews by the author or of other versions never change the result", () => {
    const noise = fc.array(
      fc.oneof(
        // The author, any version.
        fc.record({ reviewerId: fc.constant(AUTHOR), version: fc.integer({ min: 1, max: CURRENT + 1 }) }),
        // Anyone, another version.
        fc.record({ reviewerId: fc.constantFrom(...REVIEWERS), version: fc.integer({ min: 1, max: CURRENT + 1 }).filter((v) => v !== CURRENT) }),
      ).chain(({ reviewerId, version }) =>
        fc.record({
          reviewerId: fc.constant(reviewerId),
          version: fc.constant(version),
          action: fc.constantFrom<ReviewAction>('approve', 'request_changes'),
          elementReviews: fc.array(fc.record({ elementId: fc.constantFrom('a', 'b', 'c', 'd', 'e'), action: fc.constantFrom(...ALL_ELEMENT_ACTIONS) }), { maxLength: 4 }),
        }),
      ),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(scenario, noise, fc.array(fc.nat(), { maxLength: 8 }), (s, extra, positions) => {
        const counted = s.reviews.filter((r) => r.version === CURRENT && r.reviewerId !== AUTHOR);
        const clean = stateOf({ ...s, reviews: counted });
        // Removing the noise that was generated with the scenario...
        expect(stateOf(s)).toEqual(clean);
        // ...and inserting more anywhere.
        const mixed = [...s.reviews];
        extra.forEach((r, i) => mixed.splice((positions[i] ?? 0) % (mixed.length + 1), 0, r));
        expect(stateOf({ ...s, reviews: mixed })).toEqual(clean);
      }),
      RUNS,
    );
  });

  it('P3: 0 <= approvalRate <= 1, 0 <= verificationScore <= approvalRate; verified => score 1', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const state = stateOf(s);
        expect(state.approvalRate).toBeGreaterThanOrEqual(0);
        expect(state.approvalRate).toBeLessThanOrEqual(1);
        expect(state.verificationScore).toBeGreaterThanOrEqual(0);
        expect(state.verificationScore).toBeLessThanOrEqual(state.approvalRate);
        if (state.status === 'verified' && (s.elementIds.length > 0 || state.approvals > 0)) {
          expect(state.verificationScore).toBe(1);
          expect(state.approvalRate).toBe(1);
        }
        expect(state.approvedElements.every((id) => s.elementIds.includes(id))).toBe(true);
        expect(state.approvals).toBeLessThanOrEqual(new Set(latestCurrentByReviewer(s.reviews).map((r) => r.reviewerId)).size);
      }),
      RUNS,
    );
  });

  it("P4: only each reviewer's order matters: interleaving reviewers differently changes nothing", () => {
    fc.assert(
      fc.property(
        scenario.chain((s) => fc.tuple(fc.constant(s), fc.array(fc.nat({ max: 1000 }), { minLength: s.reviews.length, maxLength: s.reviews.length }))),
        ([s, keys]) => {
          // Give each review a random key, then hand each reviewer's keys back in ascending order
          // to their reviews in their original order: a random interleaving that keeps every
          // reviewer's own sequence.
          const byReviewer = new Map<string, number[]>();
          s.reviews.forEach((r, i) => byReviewer.set(r.reviewerId, [...(byReviewer.get(r.reviewerId) ?? []), i]));
          const key = new Array<number>(s.reviews.length);
          for (const indices of byReviewer.values()) {
            const sorted = indices.map((i) => keys[i]!).sort((a, b) => a - b);
            indices.forEach((i, k) => { key[i] = sorted[k]!; });
          }
          const order = s.reviews.map((_, i) => i).sort((a, b) => key[a]! - key[b]! || a - b);
          const permuted = order.map((i) => s.reviews[i]!);
          // Sanity: each reviewer's own sequence is kept.
          for (const id of byReviewer.keys()) {
            expect(permuted.filter((r) => r.reviewerId === id)).toEqual(s.reviews.filter((r) => r.reviewerId === id));
          }
          expect(stateOf({ ...s, reviews: permuted })).toEqual(stateOf(s));
        },
      ),
      RUNS,
    );
  });

  it("P5: a reviewer's superseded reviews of the version change nothing", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const latestOnly = latestCurrentByReviewer(s.reviews).reverse();
        expect(stateOf({ ...s, reviews: latestOnly })).toEqual(stateOf(s));
      }),
      RUNS,
    );
  });

  it('P6: agrees with a reference model of the doc comment on every field', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const current = latestCurrentByReviewer(s.reviews);
        const approvals = current.filter((r) => r.action === 'approve').length;
        const approvalRate = current.length === 0 ? 0 : approvals / current.length;
        const approvedElements = s.elementIds.filter((id) =>
          current.some((r) => approvesElement(r, id)) &&
          !current.some((r) => r.elementReviews.some((er) => er.elementId === id && !APPROVING.has(er.action))));
        const all = approvedElements.length === s.elementIds.length;
        let status: UnitStatus;
        if (current.length === 0) status = s.baseStatus;
        else if (current.some((r) => r.action === 'request_changes')) status = 'in_review';
        else if (approvals >= s.minApprovals && all) status = 'verified';
        else if (approvedElements.length > 0 && !all) status = 'partial_verified';
        else status = 'in_review';
        const share = s.elementIds.length === 0 ? (approvals > 0 ? 1 : 0) : approvedElements.length / s.elementIds.length;
        const state = stateOf(s);
        expect(state).toMatchObject({ status, approvals, approvedElements });
        expect(state.approvalRate).toBeCloseTo(approvalRate, 12);
        expect(state.verificationScore).toBeCloseTo(share * approvalRate, 12);
      }),
      RUNS,
    );
  });
});
