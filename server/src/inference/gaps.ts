/**
 * Gaps: parts of questions no unit covers (DESIGN §7). A gap is keyed by the content words of
 * the part, stemmed and sorted, so that differently worded asks for the same thing group together
 * in `generate-from-gaps`; its `output` is those words in their order, to name the unit drafted.
 */
import { stemmer } from 'stemmer';

// Question and function words that say nothing about the missing output.
const STOP = new Set(
  ('a an and are as at be been being but by can could did do does doing for from had has have how i if in into is it its ' +
    'me my of on or our should so than that the their them then there these they this to was we were what when where which ' +
    'who whom why will with would you your much many any get gets got tell know need please about after before under over ' +
    'per each every also just than only same other some such own more most very').split(' '),
);

export function gapOf(clause: string): { key: string; output: string } | null {
  const words = (clause.toLowerCase().match(/[a-z]+(?:'[a-z]+)?/g) ?? []).filter((w) => w.length > 1 && !STOP.has(w));
  const unique = [...new Set(words)].slice(0, 6);
  if (unique.length === 0) return null;
  return { key: [...new Set(unique.map((w) => stemmer(w)))].sort().join(' '), output: unique.join(' ') };
}
