import { type Actor, insertAuditEntry } from '../audit/audit.repository.js';
import type { Principal } from '../auth/principal.js';
import { atLeast, type Role } from '../auth/roles.js';
import type { Db } from '../db/database.js';
import { lockOrganization } from '../db/locks.js';
import type { Deps } from '../deps.js';
import { domainMembers } from '../domains/domains.repository.js';
import { findMemberByUser } from '../members/members.repository.js';
import { findOrgSettings } from '../orgs/orgs.repository.js';
import { conflict, forbidden, invalid, notFound } from '../shared/errors.js';
import { newId, nowIso } from '../shared/ids.js';
import type { UnitDefinition, UnitExampleResults } from './definition.js';
import {
  type ElementReview, elementActionsFor, elementIdsOf, type ReviewAction, reviewState, type UnitStatus,
} from './review-state.js';
import type { Unit } from './unit-record.js';
import * as repo from './units.repository.js';
import { loadUnit } from './units.service.js';

/**
 * May this user review units of this domain? When the domain has members, only its members with
 * a reviewer+ domain role and organization admins may; otherwise any reviewer+ of the org.
 */
async function mayReviewInDomain(db: Db, orgId: string, domainId: string, userId: string, orgRole: Role): Promise<boolean> {
  if (orgRole === 'admin') return true;
  const members = await domainMembers(db, orgId, domainId);
  if (members.length === 0) return true;
  const member = members.find((m) => m.user_id === userId);
  return member !== undefined && atLeast(member.role as Role, 'reviewer');
}

/** Adds reviewers (org members with reviewer+, not the author); a candidate goes `in_review`. */
export function assignReviewers(deps: Deps, principal: Principal, actor: Actor, unitId: string, reviewerIds: readonly string[]): Promise<Unit> {
  const { db, dialect } = deps.store;
  return db.transaction().execute(async (trx) => {
    await lockOrganization(trx, dialect, principal.orgId);
    const row = await repo.findUnit(trx, principal.orgId, unitId);
    if (!row) throw notFound('Unit');
    for (const [i, userId] of reviewerIds.entries()) {
      const field = `reviewerIds[${i}]`;
      const member = await findMemberByUser(trx, principal.orgId, userId);
      if (!member) throw invalid(field, 'is not a member of this organization');
      if (!atLeast(member.role as Role, 'reviewer')) throw invalid(field, `has the role ${member.role}; reviewers need reviewer or above`);
      if (userId === row.author_id) throw invalid(field, "is the unit's author, who may not review it");
      if (!(await mayReviewInDomain(trx, principal.orgId, row.domain_id, userId, member.role as Role))) {
        throw invalid(field, "is not a reviewer of the unit's domain");
      }
    }
    const current = JSON.parse(row.reviewers) as string[];
    const added = reviewerIds.filter((id) => !current.includes(id));
    const status: UnitStatus = row.status === 'candidate' ? 'in_review' : (row.status as UnitStatus);
    await repo.updateUnit(trx, row.id, { reviewers: JSON.stringify([...current, ...added]), status, updated_at: nowIso() });
    await insertAuditEntry(trx, dialect, actor, {
      orgId: principal.orgId,
      action: 'unit.assigned',
      resourceType: 'unit',
      resourceId: row.id,
      details: { reviewerIds: added, version: row.version, status: { from: row.status, to: status } },
    });
    return loadUnit(trx, principal.orgId, unitId);
  });
}

export interface VerifyInput {
  action: ReviewAction;
  comment?: string;
  elementReviews?: ElementReview[];
}

function checkElementReviews(unitType: Unit['unitType'], definition: UnitDefinition | null, reviews: readonly ElementReview[]): void {
  const ids = new Set(elementIdsOf(definition));
  const actions = elementActionsFor(unitType);
  const seen = new Set<string>();
  for (const [i, review] of reviews.entries()) {
    if (!ids.has(review.elementId)) {
      throw invalid(`elementReviews[${i}].elementId`, ids.size === 0
        ? 'this unit has no definition, so no elements to review'
        : `no step or element "${review.elementId}" in the current version (known: ${[...ids].join(', ')})`);
    }
    if (!actions.includes(review.action)) {
      throw invalid(`elementReviews[${i}].action`, `${review.action} does not apply to a ${unitType}; use one of ${actions.join(', ')}`);
    }
    if (seen.has(review.elementId)) throw invalid(`elementReviews[${i}].elementId`, `"${review.elementId}" is reviewed twice`);
    seen.add(review.elementId);
  }
}

const failingExamples = (results: UnitExampleResults) =>
  results.failures.map((f) => `"${f.name}" (${f.message})`).join(', ');

/**
 * Records a review of the unit's current version and derives its new status (review-state.ts).
 * Four-eyes: the author may never review their own unit.
 */
export function verifyUnit(deps: Deps, principal: Principal, actor: Actor, unitId: string, input: VerifyInput): Promise<Unit> {
  const { db, dialect } = deps.store;
  return db.transaction().execute(async (trx) => {
    // Reviews and edits of one organization's units are serialised (Postgres row lock): each
    // review is judged against the latest version and every other review already committed.
    await lockOrganization(trx, dialect, principal.orgId);
    const unit = await loadUnit(trx, principal.orgId, unitId);
    if (unit.authorId === principal.userId) {
      throw forbidden('Four-eyes rule: nobody may review a unit they authored', { rule: 'four_eyes' });
    }
    if (!(await mayReviewInDomain(trx, principal.orgId, unit.domainId, principal.userId, principal.role))) {
      throw forbidden("Only the domain's reviewers and organization admins may review its units", { rule: 'domain_reviewers' });
    }
    const elementReviews = input.elementReviews ?? [];
    checkElementReviews(unit.unitType, unit.definition, elementReviews);
    if (unit.status === 'verified') {
      throw conflict(`Version ${unit.version} of this unit is already verified; a content change starts a new version to review`, { version: unit.version });
    }
    if (input.action === 'approve' && unit.exampleResults.failing > 0) {
      throw conflict(`A unit whose examples fail cannot be approved: ${failingExamples(unit.exampleResults)}`, {
        failingExamples: unit.exampleResults.failures.map((f) => f.name),
      });
    }

    const review = {
      id: newId('rev'),
      org_id: principal.orgId,
      unit_id: unit.id,
      version: unit.version,
      reviewer_id: principal.userId,
      action: input.action,
      comment: input.comment ?? null,
      element_reviews: JSON.stringify(elementReviews),
      created_at: nowIso(),
    };
    await repo.insertReview(trx, review);
    const settings = await findOrgSettings(trx, principal.orgId);
    const state = reviewState({
      elementIds: elementIdsOf(unit.definition),
      version: unit.version,
      authorId: unit.authorId,
      reviews: [...unit.reviews, { reviewerId: principal.userId, version: unit.version, action: input.action, elementReviews }],
      minApprovals: settings.verification?.minApprovals ?? 1,
      baseStatus: unit.status,
    });
    await repo.updateUnit(trx, unit.id, {
      status: state.status,
      approval_rate: state.approvalRate,
      verification_score: state.verificationScore,
      updated_at: review.created_at,
    });
    await insertAuditEntry(trx, dialect, actor, {
      orgId: principal.orgId,
      action: 'unit.verified',
      resourceType: 'unit',
      resourceId: unit.id,
      details: {
        verificationAction: input.action,
        approvalRate: state.approvalRate,
        verificationScore: state.verificationScore,
        version: unit.version,
        status: { from: unit.status, to: state.status },
        reviewId: review.id,
        elementReviews: elementReviews.map((er) => ({ elementId: er.elementId, action: er.action })),
      },
    });
    return loadUnit(trx, principal.orgId, unitId);
  });
}
