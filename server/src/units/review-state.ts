/**
 * What the reviews of a unit's current version add up to (DESIGN §6): its status, approval rate
 * and verification score. A pure function of the reviews, so the rules are tested on their own
 * (review-state.test.ts, including property-based tests) and the service only stores the result.
 */
import type { UnitDefinition, UnitType } from './definition.js';

export type ReviewAction = 'approve' | 'request_changes';
export type UnitStatus = 'candidate' | 'in_review' | 'verified' | 'partial_verified';

export const PROGRAM_ELEMENT_ACTIONS = ['approve', 'correct_values', 'add_branch', 'add_exception'] as const;
export const STRUCTURED_ELEMENT_ACTIONS = ['approve_element', 'suggest_edit', 'reweight_element', 'add_element', 'remove_element'] as const;
export type ElementAction = (typeof PROGRAM_ELEMENT_ACTIONS)[number] | (typeof STRUCTURED_ELEMENT_ACTIONS)[number];

export interface ElementReview {
  elementId: string;
  action: ElementAction;
  comment?: string;
  value?: unknown;
}

export interface Review {
  reviewerId: string;
  version: number;
  action: ReviewAction;
  elementReviews: readonly ElementReview[];
}

/** Element actions that approve; every other one proposes a change. */
export const isElementApproval = (action: ElementAction): boolean => action === 'approve' || action === 'approve_element';

/** The element actions a unit type takes: programs per step, the others per element. */
export const elementActionsFor = (unitType: UnitType): readonly ElementAction[] =>
  unitType === 'program' ? PROGRAM_ELEMENT_ACTIONS : STRUCTURED_ELEMENT_ACTIONS;

/** The ids of a definition's steps or elements, which element reviews refer to. */
export function elementIdsOf(definition: UnitDefinition | null): string[] {
  if (definition === null) return [];
  const items: readonly { id: string }[] = 'steps' in definition ? definition.steps : definition.elements;
  return items.map((item) => item.id);
}

export interface ReviewState {
  status: UnitStatus;
  /** Approving reviewers / reviewers of the current version (0 when nobody reviewed it). */
  approvalRate: number;
  /** Share of elements approved on the current version times `approvalRate`. */
  verificationScore: number;
  approvedElements: string[];
  approvals: number;
}

/**
 * Each reviewer's latest review of `version` counts. An element is approved when some reviewer
 * approves it (an element `approve`/`approve_element`, or an overall `approve` that proposes no
 * change to it) and no reviewer proposes a change to it. The unit is:
 * - `in_review` while any reviewer's latest review is `request_changes`;
 * - `verified` when overall approvals reach `minApprovals` and every element is approved
 *   (a declarative unit, with no elements, needs the approvals only);
 * - `partial_verified` when some but not all elements are approved;
 * - `in_review` otherwise, or `baseStatus` when nobody has reviewed this version yet.
 * Reviews by the author never count (the service refuses them; this holds even if one slipped in).
 */
export function reviewState(input: {
  elementIds: readonly string[];
  version: number;
  authorId: string;
  reviews: readonly Review[];
  minApprovals: number;
  baseStatus: UnitStatus;
}): ReviewState {
  const latest = new Map<string, Review>();
  for (const review of input.reviews) {
    if (review.version === input.version && review.reviewerId !== input.authorId) latest.set(review.reviewerId, review);
  }
  const current = [...latest.values()];
  const approvals = current.filter((r) => r.action === 'approve').length;
  const approvalRate = current.length === 0 ? 0 : approvals / current.length;

  const approvedBy = new Set<string>();
  const changed = new Set<string>();
  for (const review of current) {
    const mentioned = new Map(review.elementReviews.map((er) => [er.elementId, er.action]));
    for (const id of input.elementIds) {
      const action = mentioned.get(id);
      if (action === undefined ? review.action === 'approve' : isElementApproval(action)) approvedBy.add(id);
    }
    for (const er of review.elementReviews) if (!isElementApproval(er.action)) changed.add(er.elementId);
  }
  const approvedElements = input.elementIds.filter((id) => approvedBy.has(id) && !changed.has(id));
  const total = input.elementIds.length;
  const share = total === 0 ? (approvals > 0 ? 1 : 0) : approvedElements.length / total;

  let status: UnitStatus;
  if (current.length === 0) status = input.baseStatus;
  else if (current.some((r) => r.action === 'request_changes')) status = 'in_review';
  else if (approvals >= input.minApprovals && approvedElements.length === total) status = 'verified';
  else if (approvedElements.length > 0 && approvedElements.length < total) status = 'partial_verified';
  else status = 'in_review';

  return { status, approvalRate, verificationScore: share * approvalRate, approvedElements, approvals };
}
