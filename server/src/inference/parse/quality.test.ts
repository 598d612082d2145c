import { describe, expect, it } from 'vitest';
import { DOMAIN_TEMPLATES } from '../../domains/templates/index.js';
import type { UnitTemplate } from '../../domains/templates/index.js';
import { bindInputs } from './bind-inputs.js';
import { parseQuery } from './parse-query.js';
import { QUALITY_SET, type QualityQuestion } from './quality-set.js';

const UNITS = new Map<string, UnitTemplate>(DOMAIN_TEMPLATES.flatMap((t) => t.units.map((u) => [`${t.id}/${u.name}`, u] as const)));

const same = (a: unknown, b: unknown) => (typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) < 1e-6 : a === b);

/** What a question's binding got wrong: missing, wrong or extra inputs. */
function differences(q: QualityQuestion): string[] {
  const unit = UNITS.get(q.unit)!;
  const { inputs } = bindInputs(parseQuery(q.question), unit.inputSchema ?? {});
  const names = new Set([...Object.keys(q.expected), ...Object.keys(inputs)]);
  return [...names]
    .filter((name) => !same(inputs[name], q.expected[name]))
    .map((name) => `${name}: bound ${JSON.stringify(inputs[name])}, stated ${JSON.stringify(q.expected[name])}`);
}

describe('quality set', () => {
  it('is at least 60 questions over every domain and unit type, naming real inputs', () => {
    expect(QUALITY_SET.length).toBeGreaterThanOrEqual(60);
    const domains = new Set(QUALITY_SET.map((q) => q.unit.split('/')[0]));
    expect([...domains].sort()).toEqual(DOMAIN_TEMPLATES.map((t) => t.id).sort());
    const types = new Set(QUALITY_SET.map((q) => UNITS.get(q.unit)?.unitType));
    expect([...types].sort()).toEqual(['argument', 'framework', 'pattern', 'program', 'protocol']);
    for (const q of QUALITY_SET) {
      const unit = UNITS.get(q.unit);
      expect(unit, q.unit).toBeDefined();
      const inputs = Object.keys(unit!.inputSchema?.properties ?? {});
      for (const name of Object.keys(q.expected)) expect(inputs, `${q.unit}: ${name}`).toContain(name);
    }
  });

  it('binds at least 95% of the questions exactly right', () => {
    const misses = QUALITY_SET.map((q) => ({ q, diffs: differences(q) })).filter((r) => r.diffs.length > 0);
    const right = QUALITY_SET.length - misses.length;
    const share = right / QUALITY_SET.length;
    const report = misses.map((m) => `  ✗ ${m.q.question}\n      ${m.diffs.join('\n      ')}`).join('\n');
    console.log(`parse quality: ${right}/${QUALITY_SET.length} questions bound exactly right (${(share * 100).toFixed(1)}%)\n${report}`);
    expect(share).toBeGreaterThanOrEqual(0.95);
  });

  it('reads the jurisdiction each question names, and none where it names none', () => {
    const wrong = QUALITY_SET.filter((q) => parseQuery(q.question).jurisdiction !== (q.jurisdiction ?? null));
    console.log(`jurisdiction: ${QUALITY_SET.length - wrong.length}/${QUALITY_SET.length} right`);
    expect(wrong.map((q) => q.question)).toEqual([]);
  });
});
