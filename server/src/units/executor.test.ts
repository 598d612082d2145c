import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import type { ExecutableUnit, IoSchema } from './definition.js';
import {
  clearCompileCache, compileUnit, type CompletedRun, execute, ExecutionError, type ExecutionResult, runExamples,
} from './executor.js';

const schema = (properties: IoSchema['properties'], required: string[] = []): IoSchema => ({ type: 'object', properties, required });

function completedRun(result: ExecutionResult): CompletedRun {
  if (result.status !== 'completed') throw new Error(`expected a completed run, got ${JSON.stringify(result)}`);
  return result;
}

/** The thrown error, so a test can assert on its type and fields. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

const vacation: ExecutableUnit = {
  unitType: 'program',
  then: 'The employee accrues {{vacation_days}} vacation days per year.',
  inputSchema: schema({ years_of_service: { type: 'number', 'x-aliases': ['tenure'] } }, ['years_of_service']),
  outputSchema: schema({ vacation_days: { type: 'integer' } }),
  definition: {
    steps: [
      { id: 'base', set: 'vacation_days', expr: '10' },
      { id: 'senior', if: 'years_of_service >= 5', set: 'vacation_days', expr: '15' },
      { id: 'veteran', if: 'years_of_service >= 10', set: 'vacation_days', expr: '20' },
    ],
  },
};

describe('program units', () => {
  const unit = compileUnit(vacation);

  it.each([
    [0, 10], [4.99, 10], [5, 15], [7.5, 15], [10, 20], [12, 20], [12.5, 20],
  ])('years_of_service %s gives %s days (integer or decimal input)', (years, days) => {
    const run = completedRun(execute(unit, { years_of_service: years }));
    expect(run.outputs).toEqual({ vacation_days: days });
    expect(run.texts).toEqual([`The employee accrues ${days} vacation days per year.`]);
  });

  it('traces every step: which held, the value set, what it overrode', () => {
    const run = completedRun(execute(unit, { years_of_service: 7 }));
    expect(run.trace).toEqual([
      { id: 'base', kind: 'step', held: true, value: 10, note: 'vacation_days' },
      { id: 'senior', kind: 'step', held: true, value: 15, note: 'vacation_days, overriding "base"' },
      { id: 'veteran', kind: 'step', held: false },
    ]);
  });

  it('reports missing required inputs instead of throwing', () => {
    expect(execute(unit, {})).toEqual({ status: 'missing_inputs', missing: ['years_of_service'], trace: [] });
    expect(execute(unit, { years_of_service: null })).toMatchObject({ status: 'missing_inputs' });
  });

  it('rejects an input of the wrong type, naming inputs.<name>', () => {
    const err = thrown(() => execute(unit, { years_of_service: 'twelve' }));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'inputs.years_of_service', issue: 'must be a number' } });
  });

  const bonus = compileUnit({
    unitType: 'program',
    then: 'Bonus: {{bonus}} ({{rate}} of {{salary}}).',
    inputSchema: schema(
      { salary: { type: 'number' }, grade: { type: 'integer' }, executive: { type: 'boolean' }, override: { type: 'number' } },
      ['salary', 'grade', 'executive'],
    ),
    outputSchema: schema({ bonus: { type: 'number' }, rate: { type: 'number' } }),
    definition: {
      steps: [
        // Listed first, yet runs after every ordinary step and overrides them.
        { id: 'exec', if: 'executive', set: 'rate', expr: '0.25', exception: true },
        { id: 'base_rate', set: 'rate', expr: '0.1' },
        { id: 'grade_rate', if: 'grade >= 3', set: 'rate', expr: '0.15' },
        { id: 'amount', set: 'bonus', expr: 'salary * rate' },
        { id: 'exec_amount', if: 'executive', set: 'bonus', expr: 'salary * rate', exception: true },
        { id: 'manual', if: 'executive && grade >= 5', set: 'bonus', expr: 'override', exception: true },
      ],
    },
  });

  it('runs exceptions after the ordinary steps; they override, and the later exception wins', () => {
    expect(completedRun(execute(bonus, { salary: 1000, grade: 1, executive: false })).outputs).toEqual({ bonus: 100, rate: 0.1 });
    expect(completedRun(execute(bonus, { salary: 1000, grade: 3, executive: false })).outputs).toEqual({ bonus: 150, rate: 0.15 });
    const exec = completedRun(execute(bonus, { salary: 1000, grade: 3, executive: true }));
    expect(exec.outputs).toEqual({ bonus: 250, rate: 0.25 });
    expect(exec.trace.map((t) => [t.id, t.kind, t.held])).toEqual([
      ['base_rate', 'step', true], ['grade_rate', 'step', true], ['amount', 'step', true],
      ['exec', 'exception', true], ['exec_amount', 'exception', true], ['manual', 'exception', false],
    ]);
    expect(exec.trace[4]).toMatchObject({ value: 250, note: 'bonus, overriding "amount"' });
    const manual = completedRun(execute(bonus, { salary: 1000, grade: 5, executive: true, override: 999.5 }));
    expect(manual.outputs.bonus).toBe(999.5);
    expect(manual.texts).toEqual(['Bonus: 999.5 (0.25 of 1000).']);
  });

  it('asks for an optional input only when the path taken needs it', () => {
    expect(execute(bonus, { salary: 1000, grade: 5, executive: true })).toMatchObject({ status: 'missing_inputs', missing: ['override'] });
    expect(execute(bonus, { salary: 1000, grade: 5, executive: false }).status).toBe('completed');
  });

  it('mixes int and double: integer inputs are ints, numbers doubles, literals either', () => {
    const mixed = compileUnit({
      unitType: 'program',
      inputSchema: schema({ days: { type: 'integer' }, hours: { type: 'number' } }, ['days', 'hours']),
      outputSchema: schema({ total: { type: 'number' }, whole_days: { type: 'integer' }, equal: { type: 'boolean' } }),
      definition: {
        steps: [
          { id: 'total', set: 'total', expr: 'days * 8 + hours * 2' },
          { id: 'whole', set: 'whole_days', expr: 'days / 2' },
          { id: 'eq', set: 'equal', expr: 'days == 4.0 && hours > 1' },
        ],
      },
    });
    expect(completedRun(execute(mixed, { days: 4, hours: 1.5 })).outputs).toEqual({ total: 35, whole_days: 2, equal: true });
    expect(thrown(() => execute(mixed, { days: 4.5, hours: 1 }))).toMatchObject({ details: { field: 'inputs.days', issue: 'must be an integer' } });
  });

  it('converts an integral double into an integer output and refuses a fraction', () => {
    const conv = compileUnit({
      unitType: 'program',
      inputSchema: schema({ data: { type: 'object' } }, ['data']),
      outputSchema: schema({ n: { type: 'integer' } }),
      definition: { steps: [{ id: 'n', set: 'n', expr: 'data.count' }] },
    });
    expect(completedRun(execute(conv, { data: { count: 3 } })).outputs).toEqual({ n: 3 });
    const err = thrown(() => execute(conv, { data: { count: 2.5 } }));
    expect(err).toBeInstanceOf(ExecutionError);
    expect(err).toMatchObject({ stepId: 'n', field: 'definition.steps[0].expr', code: 'not_an_integer' });
  });

  it('turns a CEL runtime error into an ExecutionError naming the step', () => {
    const div = compileUnit({
      unitType: 'program',
      inputSchema: schema({ total: { type: 'integer' }, parts: { type: 'integer' } }, ['total', 'parts']),
      outputSchema: schema({ share: { type: 'integer' } }),
      definition: { steps: [{ id: 'split', set: 'share', expr: 'total / parts' }] },
    });
    expect(completedRun(execute(div, { total: 9, parts: 2 })).outputs).toEqual({ share: 4 });
    const err = thrown(() => execute(div, { total: 9, parts: 0 }));
    expect(err).toBeInstanceOf(ExecutionError);
    expect(err).toMatchObject({ stepId: 'split', field: 'definition.steps[0].expr', code: 'division_by_zero' });
    expect((err as Error).message).toMatch(/step "split".*division by zero/);
  });

  it('names a variable no step set on the path taken', () => {
    const gap = compileUnit({
      unitType: 'program',
      inputSchema: schema({ x: { type: 'integer' } }, ['x']),
      outputSchema: schema({ y: { type: 'integer' } }),
      definition: {
        steps: [
          { id: 'maybe', if: 'x > 0', set: 'tmp', expr: 'x' },
          { id: 'use', set: 'y', expr: 'tmp + 1' },
        ],
      },
    });
    expect(completedRun(execute(gap, { x: 2 })).outputs).toEqual({ y: 3 });
    expect(thrown(() => execute(gap, { x: -1 }))).toMatchObject({ stepId: 'use', code: 'unknown_variable' });
  });

  it('checks enum inputs', () => {
    const tier = compileUnit({
      unitType: 'program',
      inputSchema: schema({ tier: { type: 'string', enum: ['gold', 'silver'] } }, ['tier']),
      outputSchema: schema({ discount: { type: 'number' } }),
      definition: { steps: [{ id: 'd', set: 'discount', expr: 'tier == "gold" ? 0.2 : 0.1' }] },
    });
    expect(completedRun(execute(tier, { tier: 'gold' })).outputs).toEqual({ discount: 0.2 });
    expect(thrown(() => execute(tier, { tier: 'bronze' }))).toMatchObject({ details: { field: 'inputs.tier' } });
  });
});

describe('placeholders', () => {
  const unit = compileUnit({
    unitType: 'program',
    then: '{{ name }} earns {{pay}} ({{ratio}}); note: {{note}}.',
    inputSchema: schema({ name: { type: 'string' }, hours: { type: 'number' }, note: { type: 'string' } }, ['name', 'hours']),
    outputSchema: schema({ pay: { type: 'number' }, ratio: { type: 'number' } }),
    definition: {
      steps: [
        { id: 'pay', set: 'pay', expr: 'hours * 0.1 + 0.2' },
        { id: 'ratio', set: 'ratio', expr: '1.0 / 3.0' },
      ],
    },
  });

  it('fills inputs and outputs, formats doubles without float noise, keeps unknown values visible', () => {
    expect(completedRun(execute(unit, { name: 'Ann', hours: 1 })).texts).toEqual(['Ann earns 0.3 (0.333333333333); note: {{note}}.']);
    expect(completedRun(execute(unit, { name: 'Ann', hours: 10, note: 'paid monthly' })).texts).toEqual([
      'Ann earns 1.2 (0.333333333333); note: paid monthly.',
    ]);
  });
});

describe('framework units', () => {
  const credit = compileUnit({
    unitType: 'framework',
    inputSchema: schema(
      {
        dti: { type: 'number' }, credit_score: { type: 'integer' }, years_employed: { type: 'number' },
        defaults: { type: 'integer' }, collateral: { type: 'boolean' },
      },
      ['dti', 'credit_score', 'years_employed', 'defaults', 'collateral'],
    ),
    outputSchema: schema({ passed: { type: 'boolean' }, outcome: { type: 'string' } }),
    then: 'Assessed against {{threshold}}.',
    definition: {
      elements: [
        { id: 'base', label: 'Application complete', weight: 0.1 },
        { id: 'dti', label: 'Debt-to-income under 36%', weight: 0.3, when: 'dti < 0.36' },
        { id: 'credit', label: 'Credit score 700+', weight: 0.3, when: 'credit_score >= 700' },
        { id: 'job', label: 'Two years employed', weight: 0.1, when: 'years_employed >= 2' },
        { id: 'clean', label: 'No defaults', weight: 0.2, when: 'defaults == 0 || collateral' },
      ],
      threshold: 0.8,
      outcomes: { pass: 'Low risk (score {{score}}).', fail: 'Refer for review (score {{score}}).' },
    },
  });
  const good = { dti: 0.2, credit_score: 720, years_employed: 3, defaults: 0, collateral: false };

  it.each([
    ['above', good, 1, true],
    ['at (0.1 + 0.3 + 0.3 + 0.1 = 0.8 despite float sums)', { ...good, defaults: 2 }, 0.8, true],
    ['just below', { ...good, years_employed: 1, defaults: 2 }, 0.7, false],
  ])('%s the threshold', (_label, inputs, score, passed) => {
    const run = completedRun(execute(credit, inputs));
    expect(run.outcome).toEqual({ score, threshold: 0.8, passed, outcome: passed ? 'pass' : 'fail' });
    expect(run.outputs).toEqual({ passed, outcome: passed ? 'pass' : 'fail' });
    expect(run.texts).toEqual([passed ? `Low risk (score ${score}).` : `Refer for review (score ${score}).`, 'Assessed against 0.8.']);
  });

  it('counts an element without `when` as always holding and traces each weight', () => {
    const run = completedRun(execute(credit, { ...good, dti: 0.5, credit_score: 600 }));
    expect(run.trace).toEqual([
      { id: 'base', kind: 'element', held: true, value: 0.1, note: 'Application complete' },
      { id: 'dti', kind: 'element', held: false, value: 0, note: 'Debt-to-income under 36%' },
      { id: 'credit', kind: 'element', held: false, value: 0, note: 'Credit score 700+' },
      { id: 'job', kind: 'element', held: true, value: 0.1, note: 'Two years employed' },
      { id: 'clean', kind: 'element', held: true, value: 0.2, note: 'No defaults' },
    ]);
  });

  it('handles integer weights and a negative factor', () => {
    const simple = compileUnit({
      unitType: 'framework',
      inputSchema: schema({ late: { type: 'boolean' }, loyal: { type: 'boolean' } }, ['late', 'loyal']),
      definition: {
        elements: [
          { id: 'loyal', label: 'Loyal', weight: 3, when: 'loyal' },
          { id: 'late', label: 'Late payer', weight: -2, when: 'late' },
        ],
        threshold: 2,
        outcomes: { pass: 'Eligible.', fail: 'Not eligible.' },
      },
    });
    expect(completedRun(execute(simple, { late: true, loyal: true })).outcome).toMatchObject({ score: 1, passed: false });
    expect(completedRun(execute(simple, { late: false, loyal: true })).outcome).toMatchObject({ score: 3, passed: true });
  });
});

describe('pattern units', () => {
  const overtime = compileUnit({
    unitType: 'pattern',
    inputSchema: schema({ hours: { type: 'number' }, exempt: { type: 'boolean' }, name: { type: 'string' } }, ['hours', 'exempt']),
    outputSchema: schema({ fires: { type: 'boolean' } }),
    then: 'Pay overtime for {{hours}} hours.',
    definition: {
      elements: [
        { id: 'over40', kind: 'condition', when: 'hours > 40' },
        { id: 'nonexempt', kind: 'condition', when: '!exempt' },
        { id: 'eligible', kind: 'conclusion', text: 'The employee is eligible for overtime.' },
        { id: 'rate', kind: 'conclusion', text: 'Overtime is paid at 1.5 times the regular rate.' },
      ],
    },
  });

  it('fires when every condition holds, producing every conclusion and then', () => {
    const run = completedRun(execute(overtime, { hours: 45, exempt: false }));
    expect(run.outcome).toEqual({ fires: true });
    expect(run.outputs).toEqual({ fires: true });
    expect(run.texts).toEqual([
      'The employee is eligible for overtime.', 'Overtime is paid at 1.5 times the regular rate.', 'Pay overtime for 45 hours.',
    ]);
    expect(run.trace.map((t) => [t.id, t.held])).toEqual([['over40', true], ['nonexempt', true], ['eligible', true], ['rate', true]]);
  });

  it.each([
    [{ hours: 40, exempt: false }, 'over40'],
    [{ hours: 50, exempt: true }, 'nonexempt'],
  ])('does not fire when a condition fails (%j)', (inputs, failing) => {
    const run = completedRun(execute(overtime, inputs));
    expect(run).toMatchObject({ outcome: { fires: false }, outputs: { fires: false }, texts: [] });
    expect(run.trace.find((t) => t.id === failing)?.held).toBe(false);
  });
});

describe('argument units', () => {
  const contract = compileUnit({
    unitType: 'argument',
    inputSchema: schema(
      { offer: { type: 'boolean' }, acceptance: { type: 'boolean' }, minor: { type: 'boolean' }, duress: { type: 'boolean' } },
      ['offer', 'acceptance', 'minor', 'duress'],
    ),
    outputSchema: schema({ stands: { type: 'boolean' }, defeatedBy: { type: 'string' } }),
    then: 'Enforceable.',
    definition: {
      elements: [
        { id: 'offer', kind: 'premise', text: 'An offer was made.', when: 'offer' },
        { id: 'accept', kind: 'premise', text: 'The offer was accepted.', when: 'acceptance' },
        { id: 'law', kind: 'premise', text: 'Agreements are binding.' },
        { id: 'minor', kind: 'rebuttal', text: 'A party was a minor.', when: 'minor' },
        { id: 'duress', kind: 'rebuttal', text: 'A party signed under duress.', when: 'duress' },
        { id: 'binding', kind: 'conclusion', text: 'The contract is binding.' },
      ],
    },
  });
  const sound = { offer: true, acceptance: true, minor: false, duress: false };

  it('stands when every premise holds and no rebuttal does', () => {
    const run = completedRun(execute(contract, sound));
    expect(run).toMatchObject({ outcome: { stands: true, defeatedBy: null }, outputs: { stands: true }, texts: ['The contract is binding.', 'Enforceable.'] });
    expect(run.trace.at(-1)).toEqual({ id: 'binding', kind: 'conclusion', held: true });
    expect(run.trace.find((t) => t.id === 'law')).toMatchObject({ held: true, note: 'Agreements are binding.' });
  });

  it('reports the rebuttal that defeated it', () => {
    const run = completedRun(execute(contract, { ...sound, duress: true }));
    expect(run).toMatchObject({ outcome: { stands: false, defeatedBy: 'duress' }, outputs: { stands: false, defeatedBy: 'duress' } });
    expect(run.texts).toEqual(['A party signed under duress.']);
    expect(run.trace.at(-1)).toEqual({ id: 'binding', kind: 'conclusion', held: false, note: 'defeated by "duress"' });
    const both = completedRun(execute(contract, { ...sound, minor: true, duress: true }));
    expect(both.outcome).toEqual({ stands: false, defeatedBy: 'minor' });
    expect(both.texts).toEqual(['A party was a minor.', 'A party signed under duress.']);
  });

  it('does not stand when a premise fails', () => {
    const run = completedRun(execute(contract, { ...sound, acceptance: false }));
    expect(run).toMatchObject({ outcome: { stands: false, defeatedBy: null }, texts: [] });
    expect(run.trace.at(-1)).toMatchObject({ held: false, note: 'a premise does not hold' });
  });
});

describe('protocol units', () => {
  const termination = compileUnit({
    unitType: 'protocol',
    inputSchema: schema({ employee: { type: 'string' }, probation: { type: 'boolean' } }, ['employee', 'probation']),
    outputSchema: schema({ consent: { type: 'string' }, severance: { type: 'string' } }),
    then: 'Termination of {{employee}} recorded (consent: {{consent}}).',
    definition: {
      steps: [
        { id: 'notify', text: 'Notify HR about {{employee}}.' },
        { id: 'probation_note', if: 'probation', text: 'Probation: no notice period applies.' },
        { id: 'consent', gate: { name: 'consent', question: 'Does {{employee}} consent to a mutual agreement?', options: ['yes', 'no'] } },
        { id: 'mutual', if: 'consent == "yes"', text: 'Draft a mutual termination agreement.' },
        { id: 'severance', if: '!probation', gate: { name: 'severance', question: 'Severance package?', options: ['standard', 'enhanced'] } },
        { id: 'enhanced', if: 'severance == "enhanced"', text: 'Get CFO sign-off for enhanced severance.' },
        { id: 'close', text: 'Close the case.' },
      ],
    },
  });

  it('walks steps in order and pauses at the first unanswered gate', () => {
    const run = execute(termination, { employee: 'Ann', probation: false });
    expect(run).toEqual({
      status: 'paused',
      pendingQuestions: [{ name: 'consent', question: 'Does Ann consent to a mutual agreement?', options: ['yes', 'no'] }],
      texts: ['Notify HR about Ann.'],
      trace: [
        { id: 'notify', kind: 'text', held: true },
        { id: 'probation_note', kind: 'text', held: false },
      ],
      position: 2,
    });
  });

  it('resumes with answers, pausing again at the next gate', () => {
    const second = execute(termination, { employee: 'Ann', probation: false }, { consent: 'yes' });
    expect(second).toMatchObject({ status: 'paused', position: 4, pendingQuestions: [{ name: 'severance' }] });
    const done = completedRun(execute(termination, { employee: 'Ann', probation: false }, { consent: 'yes', severance: 'enhanced' }));
    expect(done.texts).toEqual([
      'Notify HR about Ann.', 'Draft a mutual termination agreement.', 'Get CFO sign-off for enhanced severance.',
      'Close the case.', 'Termination of Ann recorded (consent: yes).',
    ]);
    expect(done.outputs).toEqual({ consent: 'yes', severance: 'enhanced' });
    expect(done.trace.filter((t) => t.kind === 'gate')).toEqual([
      { id: 'consent', kind: 'gate', held: true, value: 'yes' },
      { id: 'severance', kind: 'gate', held: true, value: 'enhanced' },
    ]);
  });

  it('skips a gate whose `if` fails; later conditions see it as unanswered', () => {
    const run = completedRun(execute(termination, { employee: 'Bo', probation: true }, { consent: 'no' }));
    expect(run.texts).toEqual([
      'Notify HR about Bo.', 'Probation: no notice period applies.', 'Close the case.', 'Termination of Bo recorded (consent: no).',
    ]);
    expect(run.outputs).toEqual({ consent: 'no' });
    expect(run.trace.find((t) => t.id === 'severance')).toEqual({ id: 'severance', kind: 'gate', held: false });
  });

  it('rejects an answer outside the options, naming additionalInputs.<name>', () => {
    const err = thrown(() => execute(termination, { employee: 'Ann', probation: false }, { consent: 'maybe' }));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'additionalInputs.consent', issue: 'must be one of: yes, no' } });
    expect(thrown(() => execute(termination, { employee: 'Ann', probation: false }, { consent: true }))).toMatchObject({
      details: { field: 'additionalInputs.consent' },
    });
  });

  it('ignores answers to questions it does not have', () => {
    expect(execute(termination, { employee: 'Ann', probation: true }, { consent: 'no', other: 'x' }).status).toBe('completed');
  });

  it('reports missing inputs before asking anything', () => {
    expect(execute(termination, { employee: 'Ann' })).toEqual({ status: 'missing_inputs', missing: ['probation'], trace: [] });
  });
});

describe('declarative units', () => {
  const unit = compileUnit({
    unitType: 'pattern',
    then: 'Residents of {{state}} must file by April 15.',
    inputSchema: schema({ state: { type: 'string' } }, ['state']),
  });

  it('produces its rendered then when its required inputs are known', () => {
    expect(execute(unit, { state: 'CA' })).toEqual({ status: 'completed', outputs: {}, texts: ['Residents of CA must file by April 15.'], trace: [] });
    expect(execute(unit, {})).toEqual({ status: 'missing_inputs', missing: ['state'], trace: [] });
  });
});

describe('compile cache', () => {
  it('compiles a unit version once and recompiles a new version', () => {
    clearCompileCache();
    const v1 = { ...vacation, id: 'unit_1', version: 1 };
    const first = compileUnit(v1);
    expect(compileUnit({ ...v1 })).toBe(first);
    const v2 = compileUnit({ ...v1, version: 2, then: 'Now {{vacation_days}} days.' });
    expect(v2).not.toBe(first);
    expect(completedRun(execute(v2, { years_of_service: 1 })).texts).toEqual(['Now 10 days.']);
    expect(compileUnit(v1)).toBe(first);
  });

  it('keeps at most 1000 compiled versions, evicting the least recently used', () => {
    clearCompileCache();
    const first = compileUnit({ ...vacation, id: 'unit_lru', version: 1 });
    const kept = compileUnit({ ...vacation, id: 'unit_kept', version: 1 });
    for (let i = 0; i < 998; i++) compileUnit({ ...vacation, id: `unit_${i}`, version: 1 });
    expect(compileUnit({ ...vacation, id: 'unit_kept', version: 1 })).toBe(kept); // used again: now the most recent
    compileUnit({ ...vacation, id: 'unit_overflow', version: 1 });
    expect(compileUnit({ ...vacation, id: 'unit_kept', version: 1 })).toBe(kept);
    expect(compileUnit({ ...vacation, id: 'unit_lru', version: 1 })).not.toBe(first);
  });

  it('does not cache a draft without id and version', () => {
    expect(compileUnit(vacation)).not.toBe(compileUnit(vacation));
  });

  it('refuses to compile an invalid unit, with the field', () => {
    const broken = { ...vacation, definition: { steps: [{ id: 'a', set: 'vacation_days', expr: '10 +' }] } };
    expect(thrown(() => compileUnit(broken))).toMatchObject({
      code: 'VALIDATION_ERROR', details: { field: 'definition.steps[0].expr' },
    });
  });
});

describe('runExamples', () => {
  it('counts passing and failing examples and says what differed', () => {
    const unit = compileUnit(vacation);
    const results = runExamples(unit, [
      { name: 'twelve years', inputs: { years_of_service: 12 }, expected: { vacation_days: 20 } },
      { name: 'texts', inputs: { years_of_service: 1 }, expected: { texts: ['The employee accrues 10 vacation days per year.'] } },
      { name: 'wrong', inputs: { years_of_service: 6 }, expected: { vacation_days: 20 } },
      { name: 'missing', inputs: {}, expected: { vacation_days: 10 } },
      { name: 'bad input', inputs: { years_of_service: 'x' }, expected: { vacation_days: 10 } },
    ]);
    expect(results).toEqual({
      passing: 2,
      failing: 3,
      failures: [
        { name: 'wrong', message: 'vacation_days: expected 20, got 15' },
        { name: 'missing', message: 'missing inputs years_of_service; vacation_days: expected 10, got nothing' },
        { name: 'bad input', message: 'inputs.years_of_service: must be a number' },
      ],
    });
  });

  it('compares numbers with a small tolerance and structured outcomes by name', () => {
    const unit = compileUnit({
      unitType: 'framework',
      inputSchema: schema({ a: { type: 'boolean' }, b: { type: 'boolean' } }, ['a', 'b']),
      definition: {
        elements: [
          { id: 'a', label: 'A', weight: 0.1, when: 'a' },
          { id: 'b', label: 'B', weight: 0.2, when: 'b' },
        ],
        threshold: 0.3,
        outcomes: { pass: 'Pass', fail: 'Fail' },
      },
    });
    const results = runExamples(unit, [
      { name: 'both', inputs: { a: true, b: true }, expected: { score: 0.30000000001, outcome: 'pass', passed: true, status: 'completed' } },
      { name: 'one', inputs: { a: true, b: false }, expected: { outcome: 'pass' } },
    ]);
    expect(results).toEqual({ passing: 1, failing: 1, failures: [{ name: 'one', message: 'outcome: expected "pass", got "fail"' }] });
  });

  it('passes protocol answers given in inputs and can expect a pause', () => {
    const unit = compileUnit({
      unitType: 'protocol',
      definition: {
        steps: [
          { id: 'ask', gate: { name: 'proceed', question: 'Proceed?', options: ['yes', 'no'] } },
          { id: 'go', if: 'proceed == "yes"', text: 'Proceeding.' },
        ],
      },
    });
    expect(runExamples(unit, [
      { name: 'answered', inputs: { proceed: 'yes' }, expected: { texts: ['Proceeding.'] } },
      { name: 'unanswered', inputs: {}, expected: { status: 'paused' } },
      { name: 'unexpected pause', inputs: {}, expected: { texts: ['Proceeding.'] } },
      { name: 'invalid answer', inputs: { proceed: 'later' }, expected: { status: 'completed' } },
    ])).toEqual({
      passing: 2,
      failing: 2,
      failures: [
        { name: 'unexpected pause', message: 'paused at gate proceed; texts: expected ["Proceeding."], got []' },
        { name: 'invalid answer', message: 'additionalInputs.proceed: must be one of: yes, no' },
      ],
    });
  });

  it('reports a CEL runtime error as the failure', () => {
    const unit = compileUnit({
      unitType: 'program',
      inputSchema: schema({ n: { type: 'integer' } }, ['n']),
      outputSchema: schema({ r: { type: 'integer' } }),
      definition: { steps: [{ id: 'div', set: 'r', expr: '10 / n' }] },
    });
    expect(runExamples(unit, [{ name: 'zero', inputs: { n: 0 }, expected: { r: 0 } }]).failures).toEqual([
      { name: 'zero', message: 'step "div" (definition.steps[0].expr): division by zero' },
    ]);
  });
});
