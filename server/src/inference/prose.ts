/**
 * The prose stage: orders the unit segments by the part of the question they answer and adds the
 * connective text around them. The local writer is honest and plain: it says which parts no unit
 * covers and never makes anything up, so it writes no neural text. A model writer (model-roles.ts)
 * may add synthesized or neural segments, but only around the unit segments, never in them.
 */
import type { Evaluation, PlacedSegment } from './engine.js';
import type { Segment } from './trust.js';

export interface ProseInput {
  clauses: readonly string[];
  evaluation: Evaluation;
  includeUnverified: boolean;
}

/** Text a writer adds: after the unit segments of `clause` (or at the start when -1). */
export type Addition = Segment & { clause: number };

const quote = (text: string) => `“${text.replace(/[?.!\s]+$/, '')}”`;

/** The local writer's additions: a notice for each part no unit covers. */
export function localAdditions(input: ProseInput): Addition[] {
  const which = input.includeUnverified ? 'unit' : 'verified unit';
  if (input.clauses.length === 0) {
    return [{ clause: -1, text: 'The question has no part that a unit could answer.', trustLevel: 'synthesized', unitId: null, unitName: null }];
  }
  return input.evaluation.uncovered.map((clause) => ({
    clause,
    text: `No ${which} covers ${quote(input.clauses[clause]!)}.`,
    trustLevel: 'synthesized' as const,
    unitId: null,
    unitName: null,
  }));
}

/** Unit segments and additions in the order of the question's parts. */
export function arrange(unitSegments: readonly PlacedSegment[], additions: readonly Addition[]): Segment[] {
  const placed = [
    ...unitSegments.map((s, i) => ({ s, key: s.clause, order: i })),
    ...additions.map((s, i) => ({ s, key: s.clause, order: unitSegments.length + i })),
  ];
  placed.sort((a, b) => a.key - b.key || a.order - b.order);
  return placed.map(({ s }) => ({ text: s.text, trustLevel: s.trustLevel, unitId: s.unitId, unitName: s.unitName }));
}

export const responseOf = (segments: readonly Segment[]): string => segments.map((s) => s.text).join(' ');
