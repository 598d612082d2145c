import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { type AiEdit, applyLocalEdit, LOCAL_EDIT_GRAMMAR } from './ai-edit.js';
import type { UnitContent } from './unit-record.js';
import type { FrameworkDefinition, IoSchema, PatternDefinition, ProgramDefinition, ProtocolDefinition } from './definition.js';
import { validateUnitDefinition } from './validate-definition.js';

const schema = (properties: IoSchema['properties'], required: string[] = []): IoSchema => ({ type: 'object', properties, required });

const vacation = (): UnitContent => ({
  name: 'Vacation accrual',
  unitType: 'program',
  domainId: 'dom_01jd5x4a7b9c2d3e4f5g6h7j8k',
  description: 'Annual vacation days by years of service.',
  given: 'A full-time employee',
  when: 'the employee asks how many vacation days they accrue',
  then: 'The employee accrues {{vacation_days}} vacation days per year.',
  inputSchema: schema(
    {
      years_of_service: { type: 'number', title: 'Years of service', 'x-aliases': ['tenure', 'seniority'] },
      tier: { type: 'string', enum: ['tier1', 'tier2'] },
      part_time: { type: 'boolean' },
    },
    ['years_of_service'],
  ),
  outputSchema: schema({ vacation_days: { type: 'integer' } }),
  jurisdiction: 'US',
  definition: {
    steps: [
      { id: 'base', set: 'vacation_days', expr: '10' },
      { id: 'senior', if: 'years_of_service >= 5', set: 'vacation_days', expr: '15' },
      { id: 'veteran', if: 'years_of_service >= 10', set: 'vacation_days', expr: '20' },
      { id: 'part_time', if: 'part_time', set: 'vacation_days', expr: 'vacation_days / 2', exception: true },
    ],
  },
  examples: [{ name: 'twelve years', inputs: { years_of_service: 12 }, expected: { vacation_days: 20 } }],
});

const creditRisk = (): UnitContent => ({
  name: 'Consumer credit risk',
  unitType: 'framework',
  domainId: 'dom_01jd5x4a7b9c2d3e4f5g6h7j8k',
  description: 'Scores a consumer loan application.',
  given: null,
  when: null,
  then: null,
  inputSchema: schema({
    dti: { type: 'number', 'x-aliases': ['debt-to-income ratio'] },
    credit_score: { type: 'integer' },
    late_payments: { type: 'integer' },
    employment: { type: 'string' },
  }),
  outputSchema: schema({ score: { type: 'number' }, passed: { type: 'boolean' } }),
  jurisdiction: null,
  definition: {
    elements: [
      { id: 'dti', label: 'Low debt-to-income', weight: 2, when: 'dti < 0.36' },
      { id: 'score', label: 'Good credit score', weight: 3, when: 'credit_score >= 680' },
      { id: 'history', label: 'Few late payments', weight: 1.5, when: 'late_payments <= 2 && employment != "tier2-3"' },
      { id: 'base', label: 'Application complete', weight: 1 },
    ],
    threshold: 5,
    outcomes: { pass: 'Approved ({{score}} points).', fail: 'Declined ({{score}} < {{threshold}}).' },
  },
  examples: [],
});

const program = (unit: UnitContent): ProgramDefinition => unit.definition as ProgramDefinition;
const framework = (unit: UnitContent): FrameworkDefinition => unit.definition as FrameworkDefinition;

/** The vacation program with one step's condition replaced. */
function withCondition(condition: string): UnitContent {
  const unit = vacation();
  program(unit).steps[1]!.if = condition;
  return unit;
}

/** The condition of step `senior` after an edit. */
const seniorIf = (edit: AiEdit): string | undefined => (edit.patch.definition as ProgramDefinition).steps[1]!.if;
/** The condition of a framework's first element after an edit. */
const firstWhen = (edit: AiEdit): string | undefined => (edit.patch.definition as FrameworkDefinition).elements[0]!.when;

/** The 400's `issue`, failing the test when the edit succeeds or throws anything else. */
function issueOf(unit: UnitContent, instruction: string): string {
  try {
    applyLocalEdit(unit, instruction);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'instruction' } });
    return (err as AppError).details.issue as string;
  }
  throw new Error(`expected "${instruction}" to be refused`);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe('rename', () => {
  it('renames, with a human-readable summary and only the name in the patch', () => {
    expect(applyLocalEdit(vacation(), 'rename to "Vacation accrual (CA)"')).toEqual({
      patch: { name: 'Vacation accrual (CA)' },
      summary: 'renamed "Vacation accrual" to "Vacation accrual (CA)"',
    });
  });

  it.each([
    ['double quotes', 'rename to "PTO accrual"'],
    ['single quotes', "rename to 'PTO accrual'"],
    ['curly double quotes', 'rename to “PTO accrual”'],
    ['curly single quotes', 'rename to ‘PTO accrual’'],
    ['upper-case keywords', 'RENAME TO "PTO accrual"'],
    ['mixed case and extra spaces', '  Rename   To   "PTO accrual"  '],
    ['a trailing period', 'rename to "PTO accrual".'],
    ['spaces inside the quotes', 'rename to "  PTO accrual "'],
  ])('understands %s', (_, instruction) => {
    expect(applyLocalEdit(vacation(), instruction).patch).toEqual({ name: 'PTO accrual' });
  });

  it('keeps apostrophes, inner quotes, periods and semicolons inside the quotes', () => {
    expect(applyLocalEdit(vacation(), 'rename to "Employee\'s leave; 2026 rules."').patch).toEqual({ name: "Employee's leave; 2026 rules." });
    expect(applyLocalEdit(vacation(), "rename to 'Employee's leave'").patch).toEqual({ name: "Employee's leave" });
    expect(applyLocalEdit(vacation(), 'rename to ‘Employee’s leave’').patch).toEqual({ name: 'Employee’s leave' });
    expect(applyLocalEdit(vacation(), 'rename to "The "senior" rule"').patch).toEqual({ name: 'The "senior" rule' });
  });

  it('refuses an empty, over-long or unchanged name and an unquoted one', () => {
    expect(issueOf(vacation(), 'rename to ""')).toBe('the name must not be empty');
    expect(issueOf(vacation(), `rename to "${'x'.repeat(201)}"`)).toBe('the name must be at most 200 characters (got 201)');
    expect(applyLocalEdit(vacation(), `rename to "${'x'.repeat(200)}"`).patch.name).toHaveLength(200);
    expect(issueOf(vacation(), 'rename to "Vacation accrual"')).toBe('changes nothing: the unit is already named "Vacation accrual"');
    expect(issueOf(vacation(), 'rename to PTO accrual')).toMatch(/^not understood: "rename to PTO accrual"/);
  });
});

describe('set description / given / when / then', () => {
  it.each([
    ['description', 'Vacation days by tenure (2026).'],
    ['given', 'An employee in California'],
    ['when', 'asked about annual leave'],
    ['then', 'Accrues {{vacation_days}} days.'],
  ] as const)('sets %s', (field, text) => {
    const edit = applyLocalEdit(vacation(), `set ${field} to "${text}"`);
    expect(edit.patch).toEqual({ [field]: text });
    expect(edit.summary).toBe(`set ${field} to "${text}"`);
  });

  it('is case-insensitive in the field name and keeps the text\'s case', () => {
    expect(applyLocalEdit(vacation(), 'Set THEN to “Accrues {{vacation_days}} DAYS.”').patch).toEqual({ then: 'Accrues {{vacation_days}} DAYS.' });
  });

  it('clears a text with empty quotes', () => {
    expect(applyLocalEdit(vacation(), 'set given to ""')).toEqual({ patch: { given: null }, summary: 'cleared given' });
    expect(issueOf(creditRisk(), 'set given to ""')).toBe('changes nothing: the unit has no given text');
  });

  it('shortens a long text in the summary, not in the patch', () => {
    const text = 'Employees accrue vacation days on a schedule that grows with their years of service at the company.';
    const edit = applyLocalEdit(vacation(), `set description to "${text}"`);
    expect(edit.patch.description).toBe(text);
    expect(edit.summary).toBe('set description to "Employees accrue vacation days on a schedule that grows w…"');
  });

  it('refuses an unchanged or over-long text', () => {
    expect(issueOf(vacation(), 'set description to "Annual vacation days by years of service."'))
      .toBe('changes nothing: description is already "Annual vacation days by years of service."');
    expect(issueOf(vacation(), `set description to "${'d'.repeat(2001)}"`)).toBe('the description text must be at most 2000 characters (got 2001)');
    expect(applyLocalEdit(vacation(), `set then to "${'t'.repeat(4000)}"`).patch.then).toHaveLength(4000);
    expect(issueOf(vacation(), `set then to "${'t'.repeat(4001)}"`)).toBe('the then text must be at most 4000 characters (got 4001)');
  });
});

describe('jurisdiction', () => {
  it('sets a code, keeping its case, with or without "to"', () => {
    expect(applyLocalEdit(vacation(), 'set jurisdiction US-CA')).toEqual({ patch: { jurisdiction: 'US-CA' }, summary: 'set jurisdiction from US to US-CA' });
    expect(applyLocalEdit(creditRisk(), 'SET JURISDICTION eu.de_by')).toEqual({ patch: { jurisdiction: 'eu.de_by' }, summary: 'set jurisdiction to eu.de_by' });
    expect(applyLocalEdit(vacation(), 'set jurisdiction to US-NY.').patch).toEqual({ jurisdiction: 'US-NY' });
    expect(applyLocalEdit(vacation(), 'set jurisdiction "US-WA"').patch).toEqual({ jurisdiction: 'US-WA' });
    expect(applyLocalEdit(vacation(), `set jurisdiction ${'A'.repeat(32)}`).patch).toEqual({ jurisdiction: 'A'.repeat(32) });
  });

  it.each(['-US', '.US', 'US/CA', 'US:CA', 'ÜS', 'A'.repeat(33)])('refuses the code %s', (code) => {
    expect(issueOf(vacation(), `set jurisdiction ${code}`)).toBe(
      `"${code}" is not a jurisdiction code: up to 32 letters, digits, "_", "." or "-", starting with a letter or digit (e.g. US-CA)`,
    );
  });

  it('refuses an unchanged code (case counts) and a code with spaces', () => {
    expect(issueOf(vacation(), 'set jurisdiction US')).toBe('changes nothing: the jurisdiction is already US');
    expect(applyLocalEdit(vacation(), 'set jurisdiction us').patch).toEqual({ jurisdiction: 'us' });
    expect(issueOf(vacation(), 'set jurisdiction US CA')).toMatch(/^not understood: "set jurisdiction US CA"/);
  });

  it('clears the jurisdiction', () => {
    expect(applyLocalEdit(vacation(), 'clear jurisdiction')).toEqual({ patch: { jurisdiction: null }, summary: 'cleared jurisdiction (was US)' });
    expect(applyLocalEdit(vacation(), 'Clear Jurisdiction.').patch).toEqual({ jurisdiction: null });
    expect(issueOf(creditRisk(), 'clear jurisdiction')).toBe('changes nothing: the unit has no jurisdiction');
  });
});

describe('set threshold to <number> (framework)', () => {
  it('sets the framework threshold', () => {
    const edit = applyLocalEdit(creditRisk(), 'set threshold to 6');
    expect(edit.summary).toBe('set threshold from 5 to 6');
    expect(Object.keys(edit.patch)).toEqual(['definition']);
    expect(framework({ ...creditRisk(), ...edit.patch })).toEqual({ ...framework(creditRisk()), threshold: 6 });
  });

  it.each([
    ['6.5', 6.5, '6.5'],
    ['4.50', 4.5, '4.5'],
    ['.5', 0.5, '0.5'],
    ['-1', -1, '-1'],
    ['0', 0, '0'],
    ['-0', 0, '0'],
    ['007', 7, '7'],
  ])('writes %s as %s', (written, value, shownAs) => {
    const edit = applyLocalEdit(creditRisk(), `set threshold to ${written}`);
    expect(framework({ ...creditRisk(), ...edit.patch }).threshold).toBe(value);
    expect(Object.is(framework({ ...creditRisk(), ...edit.patch }).threshold, -0)).toBe(false);
    expect(edit.summary).toBe(`set threshold from 5 to ${shownAs}`);
  });

  it('refuses a unit that is not a framework with a definition, or no change', () => {
    expect(issueOf(vacation(), 'set threshold to 7')).toBe(
      '"set threshold to <number>" applies to frameworks; this unit is a program; to change a step\'s condition use "set threshold <stepId> to <number>"',
    );
    expect(issueOf({ ...vacation(), unitType: 'pattern', definition: null }, 'set threshold to 7'))
      .toBe('"set threshold to <number>" applies to frameworks; this unit is a pattern');
    expect(issueOf({ ...creditRisk(), definition: null }, 'set threshold to 7'))
      .toBe('"set threshold to <number>" needs a framework definition; this framework has none');
    expect(issueOf(creditRisk(), 'set threshold to 5.0')).toBe('changes nothing: the threshold is already 5');
    expect(issueOf(creditRisk(), `set threshold to 1${'0'.repeat(21)}`)).toBe(`1${'0'.repeat(21)} is too large a number`);
  });

  it('does not take words or malformed numbers for numbers', () => {
    for (const instruction of ['set threshold to five', 'set threshold to 1e3', 'set threshold to 1.2.3', 'set threshold to +3', 'set threshold to']) {
      expect(issueOf(creditRisk(), instruction)).toMatch(/^not understood: /);
    }
  });
});

describe('set threshold <stepId> to <number> (a condition\'s numeric literal)', () => {
  it('replaces the number of a program step\'s condition, keeping the operator', () => {
    const edit = applyLocalEdit(vacation(), 'set threshold senior to 7');
    expect(edit.summary).toBe('set threshold of step senior from 5 to 7');
    expect(Object.keys(edit.patch)).toEqual(['definition']);
    const expected = program(vacation());
    expected.steps[1]!.if = 'years_of_service >= 7';
    expect(edit.patch.definition).toEqual(expected);
  });

  it.each([
    ['years_of_service >= 5', '7', 'years_of_service >= 7'],
    ['years_of_service>=5', '7.5', 'years_of_service>=7.5'],
    ['years_of_service >= 4.5', '6', 'years_of_service >= 6'],
    ['years_of_service >= 5', '5.25', 'years_of_service >= 5.25'],
    ['years_of_service >= 5', '7.50', 'years_of_service >= 7.5'],
    ['balance > -100', '-250', 'balance > -250'],
    ['balance > -100', '50', 'balance > 50'],
    ['balance > - 100', '50', 'balance > 50'],
    ['balance >= 0', '-3', 'balance >= -3'],
    ['(years_of_service >= 5)', '3', '(years_of_service >= 3)'],
    ['years_of_service - 5 > base_years || false', '1', 'years_of_service - 1 > base_years || false'],
    ['tier == "tier2" && years_of_service >= 5', '8', 'tier == "tier2" && years_of_service >= 8'],
    ["tier != 'level 3' && years_of_service > 5", '8', "tier != 'level 3' && years_of_service > 8"],
    ['tier == """3 "or" 4""" || years_of_service >= 5', '9', 'tier == """3 "or" 4""" || years_of_service >= 9'],
    ['tier == "say \\"5\\"" || years_of_service >= 5', '9', 'tier == "say \\"5\\"" || years_of_service >= 9'],
    ['tier == r"C:\\2" || years_of_service >= 5', '9', 'tier == r"C:\\2" || years_of_service >= 9'],
    ['tier2_years >= 5', '6', 'tier2_years >= 6'],
    ['size(tier) > 2', '3', 'size(tier) > 3'],
  ])('in `%s` writes %s to give `%s`', (condition, to, result) => {
    expect(seniorIf(applyLocalEdit(withCondition(condition), `set threshold senior to ${to}`))).toBe(result);
  });

  it('does not glue a negative number to a subtraction', () => {
    expect(seniorIf(applyLocalEdit(withCondition('years_of_service-5 > x'), 'set threshold senior to -3'))).toBe('years_of_service- -3 > x');
    expect(seniorIf(applyLocalEdit(withCondition('years_of_service - 5 > x'), 'set threshold senior to -3'))).toBe('years_of_service - -3 > x');
  });

  it('shows the literal as written in the summary', () => {
    expect(applyLocalEdit(withCondition('balance > -100'), 'set threshold senior to 50').summary)
      .toBe('set threshold of step senior from -100 to 50');
    expect(applyLocalEdit(withCondition('dti < 0.36'), 'set threshold senior to 0.4').summary)
      .toBe('set threshold of step senior from 0.36 to 0.4');
  });

  it.each([
    ['part_time', 'no number'],
    ['tier == "tier2"', 'no number'],
    ["tier in ['tier1', 'tier2']", 'no number'],
    ['tier2 && part_time', 'no number'],
    ['years_of_service >= 5 && years_of_service < 10', '2 numbers (5, 10)'],
    ['years_of_service - 5 > 0', '2 numbers (5, 0)'],
    ['scores[0] >= 5', '2 numbers (0, 5)'],
    ['years_of_service >= -5 || years_of_service == 2.5', '2 numbers (-5, 2.5)'],
  ])('refuses `%s`: %s', (condition, found) => {
    expect(issueOf(withCondition(condition), 'set threshold senior to 7')).toBe(
      `the condition of step senior (\`${condition}\`) has ${found}; "set threshold" changes a condition with exactly one`,
    );
  });

  it('names the step when it is unknown or has no condition', () => {
    expect(issueOf(vacation(), 'set threshold senor to 7')).toBe('no step "senor" in this program (its steps: base, senior, veteran, part_time)');
    expect(issueOf(vacation(), 'set threshold base to 7')).toBe('step base has no condition (`if`), so it has no threshold to set');
    expect(issueOf({ ...vacation(), definition: null }, 'set threshold senior to 7'))
      .toBe('"set threshold <stepId> to <number>" needs a definition with steps or elements; this program has none');
  });

  it('refuses an unchanged value, however it is written', () => {
    expect(issueOf(vacation(), 'set threshold senior to 5')).toBe('changes nothing: the threshold of step senior is already 5');
    expect(issueOf(vacation(), 'set threshold senior to 5.0')).toBe('changes nothing: the threshold of step senior is already 5');
    expect(issueOf(withCondition('balance > -100'), 'set threshold senior to -100'))
      .toBe('changes nothing: the threshold of step senior is already -100');
  });

  it('accepts the step id in another case and upper-case keywords', () => {
    const edit = applyLocalEdit(vacation(), 'SET THRESHOLD Veteran TO 12.');
    expect(edit.summary).toBe('set threshold of step veteran from 10 to 12');
    expect((edit.patch.definition as ProgramDefinition).steps[2]!.if).toBe('years_of_service >= 12');
  });

  it('works on a framework element\'s `when`', () => {
    const edit = applyLocalEdit(creditRisk(), 'set threshold score to 700');
    expect(edit.summary).toBe('set threshold of element score from 680 to 700');
    expect(framework({ ...creditRisk(), ...edit.patch }).elements[1]!.when).toBe('credit_score >= 700');
    expect(firstWhen(applyLocalEdit(creditRisk(), 'set threshold dti to 0.4'))).toBe('dti < 0.4');
    // The digits inside the string literal "tier2-3" are not numbers.
    expect(framework({ ...creditRisk(), ...applyLocalEdit(creditRisk(), 'set threshold history to 3').patch }).elements[2]!.when)
      .toBe('late_payments <= 3 && employment != "tier2-3"');
    expect(issueOf(creditRisk(), 'set threshold base to 1')).toBe('element base has no condition (`when`), so it has no threshold to set');
    expect(issueOf(creditRisk(), 'set threshold income to 1')).toBe('no element "income" in this framework (its elements: dti, score, history, base)');
  });

  it('works on pattern conditions and protocol steps too', () => {
    const overtime: UnitContent = {
      ...vacation(),
      unitType: 'pattern',
      inputSchema: schema({ hours: { type: 'number' } }),
      outputSchema: schema({}),
      definition: {
        elements: [{ id: 'over', kind: 'condition', when: 'hours > 40' }, { id: 'ot', kind: 'conclusion', text: 'Overtime.' }],
      } satisfies PatternDefinition,
    };
    expect(applyLocalEdit(overtime, 'set threshold over to 37.5').summary).toBe('set threshold of element over from 40 to 37.5');
    expect(issueOf(overtime, 'set threshold ot to 1')).toBe('element ot has no condition (`when`), so it has no threshold to set');

    const onboarding: UnitContent = {
      ...vacation(),
      unitType: 'protocol',
      definition: {
        steps: [
          { id: 'welcome', text: 'Welcome.' },
          { id: 'pension', if: 'years_of_service >= 1', gate: { name: 'pension', question: 'Join the plan?', options: ['yes', 'no'] } },
        ],
      } satisfies ProtocolDefinition,
    };
    const edit = applyLocalEdit(onboarding, 'set threshold pension to 2');
    expect(edit.summary).toBe('set threshold of step pension from 1 to 2');
    expect((edit.patch.definition as ProtocolDefinition).steps[1]!.if).toBe('years_of_service >= 2');
  });
});

describe('set weight', () => {
  it('sets an element\'s weight', () => {
    const edit = applyLocalEdit(creditRisk(), 'set weight history to 2.5');
    expect(edit.summary).toBe('set weight of element history from 1.5 to 2.5');
    const expected = framework(creditRisk());
    expected.elements[2]!.weight = 2.5;
    expect(edit.patch).toEqual({ definition: expected });
    expect(framework({ ...creditRisk(), ...applyLocalEdit(creditRisk(), 'set weight dti to -1').patch }).elements[0]!.weight).toBe(-1);
  });

  it('refuses an unknown element, a non-framework and no change', () => {
    expect(issueOf(creditRisk(), 'set weight income to 2')).toBe('no element "income" in this framework (its elements: dti, score, history, base)');
    expect(issueOf(vacation(), 'set weight senior to 2')).toBe('"set weight <elementId> to <number>" applies to frameworks; this unit is a program; to change a step\'s condition use "set threshold <stepId> to <number>"');
    expect(issueOf({ ...creditRisk(), definition: null }, 'set weight dti to 2')).toBe('"set weight <elementId> to <number>" needs a framework definition; this framework has none');
    expect(issueOf(creditRisk(), 'set weight score to 3')).toBe('changes nothing: the weight of element score is already 3');
    expect(issueOf(creditRisk(), 'set weight score to three')).toMatch(/^not understood: /);
  });
});

describe('set expr', () => {
  it('sets a step\'s expression, the rest of the line as written', () => {
    const edit = applyLocalEdit(vacation(), 'set expr senior to 15 + (years_of_service - 5) / 2');
    expect(edit.summary).toBe('set expr of step senior from "15" to "15 + (years_of_service - 5) / 2"');
    const expected = program(vacation());
    expected.steps[1]!.expr = '15 + (years_of_service - 5) / 2';
    expect(edit.patch).toEqual({ definition: expected });
  });

  it('does not check the CEL and keeps quotes and semicolons inside its strings', () => {
    expect(program({ ...vacation(), ...applyLocalEdit(vacation(), 'set expr base to tier == "a;b" ? 12 : 10').patch }).steps[0]!.expr)
      .toBe('tier == "a;b" ? 12 : 10');
    expect(program({ ...vacation(), ...applyLocalEdit(vacation(), 'Set Expr base to ((( nonsense').patch }).steps[0]!.expr).toBe('((( nonsense');
  });

  it('refuses an unknown step, a non-program and no change', () => {
    expect(issueOf(vacation(), 'set expr junior to 5')).toBe('no step "junior" in this program (its steps: base, senior, veteran, part_time)');
    expect(issueOf(creditRisk(), 'set expr dti to 5')).toBe('"set expr <stepId> to <CEL expression>" applies to programs; this unit is a framework');
    expect(issueOf({ ...vacation(), definition: null }, 'set expr base to 5')).toBe('"set expr <stepId> to <CEL expression>" needs a program definition; this program has none');
    expect(issueOf(vacation(), 'set expr senior to 15')).toBe('changes nothing: the expr of step senior is already "15"');
    expect(issueOf(vacation(), `set expr senior to ${'1'.repeat(2001)}`)).toBe('the expression must be at most 2000 characters (got 2001)');
  });
});

describe('aliases', () => {
  const aliasesOf = (io: IoSchema | undefined, variable: string) => io?.properties?.[variable]?.['x-aliases'];

  it('adds a word to an input variable', () => {
    const edit = applyLocalEdit(vacation(), 'add alias service to years_of_service');
    expect(edit.summary).toBe('added alias "service" to years_of_service');
    const expected = vacation().inputSchema;
    expected.properties!.years_of_service!['x-aliases'] = ['tenure', 'seniority', 'service'];
    expect(edit.patch).toEqual({ inputSchema: expected });
  });

  it('adds a quoted or unquoted phrase, creating the list when needed', () => {
    expect(aliasesOf(applyLocalEdit(vacation(), 'add alias "years worked" to years_of_service').patch.inputSchema, 'years_of_service'))
      .toEqual(['tenure', 'seniority', 'years worked']);
    expect(aliasesOf(applyLocalEdit(vacation(), 'add alias ‘time to retire’ to years_of_service').patch.inputSchema, 'years_of_service'))
      .toEqual(['tenure', 'seniority', 'time to retire']);
    expect(aliasesOf(applyLocalEdit(vacation(), 'ADD ALIAS time  served TO years_of_service').patch.inputSchema, 'years_of_service'))
      .toEqual(['tenure', 'seniority', 'time served']);
    const edit = applyLocalEdit(vacation(), 'add alias half-time to part_time');
    expect(edit.patch.inputSchema?.properties?.part_time).toEqual({ type: 'boolean', 'x-aliases': ['half-time'] });
  });

  it('adds to an output when the variable is an output only', () => {
    const edit = applyLocalEdit(vacation(), 'add alias PTO to vacation_days');
    expect(edit).toEqual({
      patch: { outputSchema: schema({ vacation_days: { type: 'integer', 'x-aliases': ['PTO'] } }) },
      summary: 'added alias "PTO" to vacation_days',
    });
  });

  it('prefers the input when a variable is both', () => {
    const unit = vacation();
    unit.outputSchema.properties!.years_of_service = { type: 'number' };
    expect(Object.keys(applyLocalEdit(unit, 'add alias service to years_of_service').patch)).toEqual(['inputSchema']);
  });

  it('accepts a variable name in another case when it is unambiguous', () => {
    expect(applyLocalEdit(vacation(), 'add alias service to Years_Of_Service').summary).toBe('added alias "service" to years_of_service');
  });

  it('refuses a duplicate (case-insensitively), an unknown variable, an empty or over-long alias and a 21st', () => {
    expect(issueOf(vacation(), 'add alias Tenure to years_of_service')).toBe('"tenure" is already an alias of years_of_service');
    expect(issueOf(creditRisk(), 'add alias "Debt-to-income  ratio" to dti')).toBe('"debt-to-income ratio" is already an alias of dti');
    expect(issueOf(vacation(), 'add alias tenure to years')).toBe(
      'unknown variable "years" (the unit\'s variables: years_of_service, tier, part_time, vacation_days)',
    );
    expect(issueOf({ ...vacation(), inputSchema: {}, outputSchema: {} }, 'add alias tenure to years')).toBe('unknown variable "years" (the unit\'s variables: none)');
    expect(issueOf(vacation(), 'add alias "" to years_of_service')).toBe('an alias must not be empty');
    expect(issueOf(vacation(), `add alias ${'a'.repeat(101)} to years_of_service`)).toBe('an alias must be at most 100 characters (got 101)');
    const full = vacation();
    full.inputSchema.properties!.tier!['x-aliases'] = Array.from({ length: 20 }, (_, i) => `level ${i}`);
    expect(issueOf(full, 'add alias grade to tier')).toBe('tier already has 20 aliases, the most a variable may have');
  });

  it('removes an alias, case-insensitively, and the list with its last entry', () => {
    const edit = applyLocalEdit(vacation(), 'remove alias TENURE from years_of_service');
    expect(edit.summary).toBe('removed alias "tenure" from years_of_service');
    expect(aliasesOf(edit.patch.inputSchema, 'years_of_service')).toEqual(['seniority']);

    const both = applyLocalEdit(vacation(), 'remove alias tenure from years_of_service; remove alias "seniority" from years_of_service');
    expect(both.patch.inputSchema?.properties?.years_of_service).toEqual({ type: 'number', title: 'Years of service' });
  });

  it('refuses removing what is not an alias or from an unknown variable', () => {
    expect(issueOf(vacation(), 'remove alias service from years_of_service'))
      .toBe('"service" is not an alias of years_of_service (its aliases: "tenure", "seniority")');
    expect(issueOf(vacation(), 'remove alias ft from part_time')).toBe('"ft" is not an alias of part_time (it has none)');
    expect(issueOf(vacation(), 'remove alias tenure from seniority')).toMatch(/^unknown variable "seniority"/);
  });
});

describe('several instructions', () => {
  it('applies them in order, joined by ";" or newlines, to the progressively edited unit', () => {
    const edit = applyLocalEdit(
      vacation(),
      'rename to "Vacation accrual (CA)"; set jurisdiction US-CA\nset threshold senior to 4;\n\n  add alias service to years_of_service.\r\nrename to "Vacation accrual (California)";',
    );
    expect(edit.summary).toBe([
      'renamed "Vacation accrual" to "Vacation accrual (CA)"',
      'set jurisdiction from US to US-CA',
      'set threshold of step senior from 5 to 4',
      'added alias "service" to years_of_service',
      'renamed "Vacation accrual (CA)" to "Vacation accrual (California)"',
    ].join('; '));
    expect(Object.keys(edit.patch).sort()).toEqual(['definition', 'inputSchema', 'jurisdiction', 'name']);
    expect(edit.patch.name).toBe('Vacation accrual (California)');
    expect(seniorIf(edit)).toBe('years_of_service >= 4');
  });

  it('sees earlier edits: a later instruction acts on the result of an earlier one', () => {
    const edit = applyLocalEdit(vacation(), 'add alias service to years_of_service; remove alias tenure from years_of_service; set threshold senior to 6; set threshold senior to 7');
    expect(edit.patch.inputSchema?.properties?.years_of_service?.['x-aliases']).toEqual(['seniority', 'service']);
    expect(seniorIf(edit)).toBe('years_of_service >= 7');
    expect(edit.summary).toContain('set threshold of step senior from 6 to 7');
    expect(issueOf(vacation(), 'add alias service to years_of_service; add alias SERVICE to years_of_service'))
      .toBe('"service" is already an alias of years_of_service');
  });

  it('leaves out of the patch a field edited back to where it was, and refuses edits that cancel out', () => {
    const edit = applyLocalEdit(vacation(), 'rename to "X"; rename to "Vacation accrual"; clear jurisdiction');
    expect(edit.patch).toEqual({ jurisdiction: null });
    expect(issueOf(vacation(), 'add alias service to years_of_service; remove alias service from years_of_service')).toBe(
      'changes nothing: the instructions cancel each other out (added alias "service" to years_of_service; removed alias "service" from years_of_service)',
    );
  });

  it('applies none when one fails', () => {
    expect(issueOf(vacation(), 'rename to "PTO"; set weight senior to 2')).toMatch(/^"set weight <elementId> to <number>" applies to frameworks/);
    expect(issueOf(vacation(), 'rename to "PTO"; make it better')).toMatch(/^not understood: "make it better"/);
  });
});

describe('the edited unit', () => {
  it('still validates when the instructions keep the CEL well-formed (the caller validates every edit)', () => {
    for (const [make, instructions] of [
      [vacation, 'set threshold senior to 4.5; set threshold veteran to 12; set expr senior to 15 + 1; add alias PTO to vacation_days'],
      [creditRisk, 'set threshold dti to 0.4; set threshold score to -1; set weight history to 2; set threshold to 4.5'],
    ] as const) {
      const unit = make();
      expect(validateUnitDefinition(unit)).toBeNull();
      expect(validateUnitDefinition({ ...unit, ...applyLocalEdit(unit, instructions).patch })).toBeNull();
    }
  });
});

describe('instructions it does not understand', () => {
  it('names the instruction and lists every form', () => {
    expect(issueOf(vacation(), '  Make the senior step kick in earlier. ')).toBe(
      'not understood: "Make the senior step kick in earlier"; the local editor understands: rename to "<name>"; set description to "<text>"; '
      + 'set given to "<text>"; set when to "<text>"; set then to "<text>"; set jurisdiction <code>; clear jurisdiction; '
      + 'set threshold to <number>; set threshold <stepId> to <number>; set weight <elementId> to <number>; '
      + 'set expr <stepId> to <CEL expression>; add alias <word or "phrase"> to <variable>; remove alias <word or "phrase"> from <variable>',
    );
  });

  it('refuses an empty instruction', () => {
    expect(issueOf(vacation(), ' ;\n . ')).toMatch(/^is empty; the local editor understands: rename to "<name>"; /);
  });

  it('uses the full message as the error message', () => {
    expect(() => applyLocalEdit(vacation(), 'delete everything')).toThrow(/^instruction: not understood: "delete everything"/);
  });

  it('exposes the grammar one form per line', () => {
    expect(LOCAL_EDIT_GRAMMAR).toHaveLength(13);
    expect(Object.isFrozen(LOCAL_EDIT_GRAMMAR)).toBe(true);
    expect(LOCAL_EDIT_GRAMMAR).toContain('set threshold <stepId> to <number>');
  });
});

describe('immutability', () => {
  it('never mutates the unit it is given, and the patch shares nothing with it', () => {
    for (const make of [vacation, creditRisk]) {
      const unit = make();
      const before = structuredClone(unit);
      deepFreeze(unit);
      const instructions = make === vacation
        ? 'rename to "A"; set then to "B"; set jurisdiction US-CA; set threshold senior to 6; set expr base to 11; add alias service to years_of_service; remove alias tenure from years_of_service; add alias PTO to vacation_days'
        : 'set jurisdiction EU; set given to "An applicant"; set threshold to 6; set weight dti to 4; set threshold score to 700; add alias DTI ratio to dti';
      const edit = applyLocalEdit(unit, instructions);
      expect(unit).toEqual(before);
      // Editing the result must not reach back into the input either.
      const patch = edit.patch as Record<string, unknown>;
      for (const value of Object.values(patch)) {
        if (typeof value === 'object' && value !== null) {
          for (const original of Object.values(unit)) expect(value).not.toBe(original);
        }
      }
      expect(Object.isFrozen(edit.patch.definition)).toBe(false);
    }
  });

  it('leaves the input as it was when an edit fails half-way', () => {
    const unit = vacation();
    const before = structuredClone(unit);
    expect(issueOf(unit, 'rename to "A"; add alias service to years_of_service; set weight x to 1')).toMatch(/applies to frameworks/);
    expect(unit).toEqual(before);
  });
});
