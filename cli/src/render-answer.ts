import type { InferenceResult, PendingQuestion, TrustLevel } from '@lemma/sdk';
import type { Output } from './output.js';

type Colors = Output['color'];

/** How each trust level is shown: a plain marker, a colour, and what it means. */
export const TRUST_LEVELS: Record<TrustLevel, { marker: string; paint: (c: Colors, s: string) => string; meaning: string }> = {
  verified: { marker: '[verified]', paint: (c, s) => c.green(s), meaning: 'from a verified unit' },
  expert_reviewed: { marker: '[expert]', paint: (c, s) => c.cyan(s), meaning: 'from a partially verified unit' },
  synthesized: { marker: '[synth]', paint: (c, s) => c.yellow(s), meaning: 'synthesized, not verified' },
  neural: { marker: '[neural]', paint: (c, s) => c.magenta(s), meaning: 'written by a model, not verified' },
};

const ORDER: TrustLevel[] = ['verified', 'expert_reviewed', 'synthesized', 'neural'];

/**
 * One line per segment, in the answer's order (the order `segmentIndex` counts, from 0). Without
 * colour each line starts with its plain marker; with colour the marker and text take the
 * level's colour. The unit that produced a segment follows it, dimmed.
 */
export function segmentLines(data: Pick<InferenceResult, 'segments' | 'response'>, c: Colors): string[] {
  const segments = data.segments ?? [];
  if (segments.length === 0) return data.response ? [data.response] : [];
  return segments.map((s) => {
    const level = TRUST_LEVELS[s.trustLevel] ?? { marker: `[${s.trustLevel}]`, paint: (_c: Colors, t: string) => t, meaning: '' };
    const unit = s.unitName ? c.dim(`  (unit: ${s.unitName})`) : '';
    return `${level.paint(c, `${level.marker} ${s.text}`)}${unit}`;
  });
}

export function legendLine(c: Colors): string {
  return `${c.dim('Legend:')} ${ORDER.map((l) => `${TRUST_LEVELS[l].paint(c, TRUST_LEVELS[l].marker)} ${TRUST_LEVELS[l].meaning}`).join(c.dim(' · '))}`;
}

/** A finished answer: segments, legend, trust summary, coverage and mode, units used, log id. */
export function answerLines(data: InferenceResult, c: Colors): string[] {
  const lines = [...segmentLines(data, c), '', legendLine(c)];
  const t = data.trustSummary;
  if (t) lines.push(`${c.dim('Trust:')} ${t.verified} verified, ${t.expertReviewed} expert-reviewed, ${t.synthesized} synthesized, ${t.neural} neural`);
  if (data.coveragePercent !== undefined) lines.push(`${c.dim('Coverage:')} ${formatPercent(data.coveragePercent)}${data.mode ? ` (${data.mode})` : ''}`);
  const units = data.unitsUsed ?? [];
  lines.push(`${c.dim('Units used:')}${units.length === 0 ? ' none' : ''}`);
  for (const u of units) lines.push(`  ${u.name}  ${c.dim(`${u.type}, ${u.status}, score ${u.verificationScore}`)}`);
  lines.push(`${c.dim('Inference log:')} ${data.inferenceLogId}  ${c.dim(`(feedback: lemma feedback ${data.inferenceLogId} <segment number from 0> confirm|incorrect)`)}`);
  return lines;
}

export function formatPercent(value: number): string {
  return `${Math.round(value * 10) / 10}%`;
}

/** The example `--answer` flags for questions still open. */
export function answerFlags(questions: readonly PendingQuestion[]): string {
  return questions.map((q) => `--answer ${q.name}=<${q.options.join('|')}>`).join(' ');
}

/**
 * A paused run: the answer so far, then the questions it waits on (listed with their options
 * unless they are about to be asked one by one on the terminal).
 */
export function pausedLines(data: InferenceResult, c: Colors, opts: { listQuestions: boolean }): string[] {
  const lines: string[] = [];
  const sofar = segmentLines(data, c);
  if (sofar.length > 0) lines.push(c.dim('Answer so far:'), ...sofar, '');
  const n = data.pendingQuestions.length;
  lines.push(`${c.bold('Paused')}: ${n} question${n === 1 ? '' : 's'} to answer (session ${data.sessionId}).`);
  if (opts.listQuestions) for (const q of data.pendingQuestions) lines.push(`  ${q.name}: ${q.question} ${c.dim(`[${q.options.join('|')}]`)}`);
  return lines;
}
