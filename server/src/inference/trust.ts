/**
 * Trust levels and the numbers derived from them (DESIGN §7). A segment's level comes from how
 * its text was made, never from what a model says about it.
 */
import type { UnitStatus } from '../units/review-state.js';

export type TrustLevel = 'verified' | 'expert_reviewed' | 'synthesized' | 'neural';
export type InferenceMode = 'full_coverage' | 'partial_coverage' | 'neural_only';

export interface Segment {
  text: string;
  trustLevel: TrustLevel;
  unitId: string | null;
  unitName: string | null;
}

export interface TrustSummary {
  verified: number;
  expertReviewed: number;
  synthesized: number;
  neural: number;
}

/** The level of text rendered deterministically from a unit in this status. */
export function trustLevelOf(status: UnitStatus): TrustLevel {
  if (status === 'verified') return 'verified';
  if (status === 'partial_verified') return 'expert_reviewed';
  return 'synthesized';
}

/** Whether a unit in this status covers the part of a question it answers. */
export const covers = (status: UnitStatus): boolean => status === 'verified' || status === 'partial_verified';

export function summarize(segments: readonly Segment[]): TrustSummary {
  const summary: TrustSummary = { verified: 0, expertReviewed: 0, synthesized: 0, neural: 0 };
  for (const s of segments) {
    if (s.trustLevel === 'expert_reviewed') summary.expertReviewed++;
    else summary[s.trustLevel]++;
  }
  return summary;
}

export function modeOf(coveragePercent: number): InferenceMode {
  if (coveragePercent >= 100) return 'full_coverage';
  return coveragePercent > 0 ? 'partial_coverage' : 'neural_only';
}
