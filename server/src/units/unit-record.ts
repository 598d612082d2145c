/** A unit as the API returns it (openapi.yaml: Unit), and its mapping from stored rows. */
import type { UnitEdgesTable, UnitReviewsTable, UnitsTable } from '../db/schema.js';
import { searchTextOf } from './search-text.js';
import type { IoSchema, UnitDefinition, UnitExample, UnitExampleResults, UnitType } from './definition.js';
import { type ElementAction, type ElementReview, isElementApproval, type ReviewAction, type UnitStatus } from './review-state.js';

/** The fields a unit's author writes; any change to them is a new content version. */
export interface UnitContent {
  name: string;
  unitType: UnitType;
  domainId: string;
  description: string | null;
  given: string | null;
  when: string | null;
  then: string | null;
  inputSchema: IoSchema;
  outputSchema: IoSchema;
  jurisdiction: string | null;
  definition: UnitDefinition | null;
  examples: UnitExample[];
}
export const CONTENT_FIELDS = [
  'name', 'unitType', 'domainId', 'description', 'given', 'when', 'then',
  'inputSchema', 'outputSchema', 'jurisdiction', 'definition', 'examples',
] as const satisfies readonly (keyof UnitContent)[];

export interface UnitReview {
  id: string;
  reviewerId: string;
  version: number;
  action: ReviewAction;
  comment: string | null;
  elementReviews: ElementReview[];
  createdAt: string;
}

export interface ProposedChange {
  id: string;
  reviewId: string;
  elementId: string;
  action: ElementAction;
  value: unknown;
  comment: string | null;
  reviewerId: string;
  createdAt: string;
}

export interface Unit extends UnitContent {
  id: string;
  slug: string;
  status: UnitStatus;
  version: number;
  verificationScore: number;
  approvalRate: number;
  authorId: string;
  exampleResults: UnitExampleResults;
  reviewers: string[];
  proposedChanges: ProposedChange[];
  reviews: UnitReview[];
  createdAt: string;
  updatedAt: string;
}

export interface UnitEdge {
  id: string;
  sourceUnitId: string;
  targetUnitId: string;
  kind: 'feeds' | 'requires' | 'overrides' | 'specializes';
  mapping: Record<string, string>;
  createdAt: string;
}

export function contentOf(row: UnitsTable): UnitContent {
  return {
    name: row.name,
    unitType: row.unit_type as UnitType,
    domainId: row.domain_id,
    description: row.description,
    given: row.given_text,
    when: row.when_text,
    then: row.then_text,
    inputSchema: JSON.parse(row.input_schema) as IoSchema,
    outputSchema: JSON.parse(row.output_schema) as IoSchema,
    jurisdiction: row.jurisdiction,
    definition: row.definition === null ? null : (JSON.parse(row.definition) as UnitDefinition),
    examples: JSON.parse(row.examples) as UnitExample[],
  };
}

/** The content columns of a row. */
export function contentColumns(content: UnitContent) {
  return {
    name: content.name,
    unit_type: content.unitType,
    domain_id: content.domainId,
    description: content.description,
    given_text: content.given,
    when_text: content.when,
    then_text: content.then,
    input_schema: JSON.stringify(content.inputSchema),
    output_schema: JSON.stringify(content.outputSchema),
    jurisdiction: content.jurisdiction,
    definition: content.definition === null ? null : JSON.stringify(content.definition),
    examples: JSON.stringify(content.examples),
    search_text: searchTextOf(content),
  };
}

export function toReview(row: UnitReviewsTable): UnitReview {
  return {
    id: row.id,
    reviewerId: row.reviewer_id,
    version: row.version,
    action: row.action as ReviewAction,
    comment: row.comment,
    elementReviews: JSON.parse(row.element_reviews) as ElementReview[],
    createdAt: row.created_at,
  };
}

/**
 * Corrections the reviewers of the current version stand by (each one's latest review): the
 * author's to-do list. Superseded reviews keep theirs in history.
 */
function proposedChanges(reviews: readonly UnitReview[], version: number): ProposedChange[] {
  const latest = new Map(reviews.filter((r) => r.version === version).map((r) => [r.reviewerId, r]));
  return [...latest.values()]
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .flatMap((r) =>
      r.elementReviews.flatMap((er, i) =>
        isElementApproval(er.action)
          ? []
          : [{
              id: `${r.id}-${i}`,
              reviewId: r.id,
              elementId: er.elementId,
              action: er.action,
              value: er.value ?? null,
              comment: er.comment ?? null,
              reviewerId: r.reviewerId,
              createdAt: r.createdAt,
            }],
      ),
    );
}

/** A stored unit with its reviews (oldest first) as the API returns it. */
export function toUnit(row: UnitsTable, reviews: readonly UnitReview[]): Unit {
  return {
    id: row.id,
    slug: row.slug,
    ...contentOf(row),
    status: row.status as UnitStatus,
    version: row.version,
    verificationScore: row.verification_score,
    approvalRate: row.approval_rate,
    authorId: row.author_id,
    exampleResults: JSON.parse(row.example_results) as UnitExampleResults,
    reviewers: JSON.parse(row.reviewers) as string[],
    proposedChanges: proposedChanges(reviews, row.version),
    reviews: [...reviews],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toEdge(row: UnitEdgesTable): UnitEdge {
  return {
    id: row.id,
    sourceUnitId: row.source_unit_id,
    targetUnitId: row.target_unit_id,
    kind: row.kind as UnitEdge['kind'],
    mapping: JSON.parse(row.mapping) as Record<string, string>,
    createdAt: row.created_at,
  };
}
