import type { DomainTemplate } from './index.js';

/** Human resources: leave, pay, separation and promotion rules. */
export const hr: DomainTemplate = {
  id: 'hr',
  name: 'HR',
  description:
    'Human-resources policy: leave accrual and entitlement, wage-and-hour classification, promotion readiness and ' +
    'separation procedures. Figures reflect common US practice and federal rules as examples of policy; adapt them ' +
    'to your handbook and state law. Not legal advice.',
  jurisdiction: 'US',
  units: [
    {
      name: 'Vacation accrual by years of service',
      unitType: 'program',
      description:
        'Annual paid vacation by service band (10 days under 3 years, 15 from 3, 20 from 5, 25 from 10), prorated ' +
        'by FTE and accrued monthly. Temporary staff accrue none. The bands are an example company policy.',
      given: 'An employee with a known length of service, FTE and employment type',
      when: 'Their annual vacation entitlement and monthly accrual are calculated',
      then: 'With {{years_of_service}} years of service at {{fte}} FTE, the employee accrues {{annual_days}} vacation days per year ({{monthly_accrual}} per month).',
      inputSchema: {
        type: 'object',
        properties: {
          years_of_service: {
            type: 'number',
            title: 'Years of service',
            description: 'Completed years of continuous service, decimals allowed.',
            minimum: 0,
            'x-aliases': ['tenure', 'service years', 'seniority', 'length of service'],
          },
          fte: {
            type: 'number',
            title: 'Full-time equivalent',
            description: 'Contracted hours as a fraction of full time (1 = full time, 0.5 = half time).',
            minimum: 0,
            maximum: 1,
            'x-aliases': ['FTE', 'full-time equivalent', 'part-time fraction'],
          },
          employment_type: {
            type: 'string',
            title: 'Employment type',
            enum: ['regular', 'temporary'],
            'x-aliases': ['contract type', 'worker type'],
          },
        },
        required: ['years_of_service', 'fte', 'employment_type'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          entitlement_days: { type: 'integer', title: 'Full-time entitlement', description: 'Days per year for a full-time employee in this band.' },
          annual_days: { type: 'number', title: 'Annual vacation days', 'x-aliases': ['PTO days', 'holiday entitlement'] },
          monthly_accrual: { type: 'number', title: 'Days accrued per month' },
        },
        required: ['entitlement_days', 'annual_days', 'monthly_accrual'],
      },
      definition: {
        steps: [
          { id: 'band_base', set: 'entitlement_days', expr: '10' },
          { id: 'band_3y', if: 'years_of_service >= 3', set: 'entitlement_days', expr: '15' },
          { id: 'band_5y', if: 'years_of_service >= 5', set: 'entitlement_days', expr: '20' },
          { id: 'band_10y', if: 'years_of_service >= 10', set: 'entitlement_days', expr: '25' },
          { id: 'prorate', set: 'annual_days', expr: 'entitlement_days * fte' },
          { id: 'monthly', set: 'monthly_accrual', expr: 'annual_days / 12' },
          { id: 'temporary_none', if: 'employment_type == "temporary"', set: 'annual_days', expr: '0.0', exception: true },
          { id: 'temporary_none_monthly', if: 'employment_type == "temporary"', set: 'monthly_accrual', expr: '0.0', exception: true },
        ],
      },
      examples: [
        {
          name: 'just under 3 years, full time',
          inputs: { years_of_service: 2.99, fte: 1, employment_type: 'regular' },
          expected: { entitlement_days: 10, annual_days: 10, monthly_accrual: 10 / 12 },
        },
        {
          name: 'exactly 5 years, 60% FTE',
          inputs: { years_of_service: 5, fte: 0.6, employment_type: 'regular' },
          expected: {
            entitlement_days: 20,
            annual_days: 12,
            monthly_accrual: 1,
            texts: ['With 5 years of service at 0.6 FTE, the employee accrues 12 vacation days per year (1 per month).'],
          },
        },
        {
          name: 'exactly 10 years, full time',
          inputs: { years_of_service: 10, fte: 1, employment_type: 'regular' },
          expected: { entitlement_days: 25, annual_days: 25 },
        },
        {
          name: 'temporary worker accrues nothing',
          inputs: { years_of_service: 6, fte: 1, employment_type: 'temporary' },
          expected: { entitlement_days: 20, annual_days: 0, monthly_accrual: 0 },
        },
      ],
    },
    {
      name: 'FLSA overtime eligibility (white-collar exemption test)',
      unitType: 'pattern',
      jurisdiction: 'US',
      description:
        'A worker is owed overtime (1.5x the regular rate for hours over 40 in a workweek) unless exempt. The executive, ' +
        'administrative and professional exemptions need all three of: paid on a salary basis, a salary of at least the ' +
        'threshold ($684/week, the level enforced after the 2024 rule was vacated), and the duties test. Example of ' +
        'federal policy; several states (e.g. CA, NY, WA) set higher thresholds or daily overtime. Not legal advice.',
      given: 'A worker who worked {{hours_worked}} hours in the workweek',
      when: 'Overtime eligibility under the FLSA is assessed',
      then: 'Pay {{hours_worked}} hours with time-and-a-half for every hour over 40.',
      inputSchema: {
        type: 'object',
        properties: {
          hours_worked: {
            type: 'number',
            title: 'Hours worked in the workweek',
            minimum: 0,
            'x-aliases': ['weekly hours', 'hours this week', 'hours'],
          },
          weekly_salary: {
            type: 'number',
            title: 'Weekly salary (USD)',
            description: 'Guaranteed pay per week; for hourly workers, their typical weekly earnings.',
            minimum: 0,
            'x-aliases': ['salary per week', 'weekly pay'],
          },
          salary_basis: {
            type: 'boolean',
            title: 'Paid on a salary basis',
            description: 'A predetermined amount not reduced for the quality or quantity of work.',
            'x-aliases': ['salaried', 'on salary'],
          },
          duties_test_met: {
            type: 'boolean',
            title: 'Meets an exempt duties test',
            description: 'Primary duties meet the executive, administrative or professional test.',
            'x-aliases': ['exempt duties', 'duties test'],
          },
        },
        required: ['hours_worked', 'weekly_salary', 'salary_basis', 'duties_test_met'],
      },
      outputSchema: {
        type: 'object',
        properties: { fires: { type: 'boolean', title: 'Overtime is due', 'x-aliases': ['overtime eligible', 'non-exempt'] } },
      },
      definition: {
        elements: [
          { id: 'over_40', kind: 'condition', when: 'hours_worked > 40' },
          { id: 'not_exempt', kind: 'condition', when: '!(salary_basis && weekly_salary >= 684 && duties_test_met)' },
          {
            id: 'overtime_due',
            kind: 'conclusion',
            text: 'The worker is non-exempt and is owed overtime at 1.5 times the regular rate for hours over 40 in the workweek.',
          },
        ],
      },
      examples: [
        {
          name: 'salaried below the threshold is owed overtime',
          inputs: { hours_worked: 45, weekly_salary: 600, salary_basis: true, duties_test_met: true },
          expected: {
            fires: true,
            texts: [
              'The worker is non-exempt and is owed overtime at 1.5 times the regular rate for hours over 40 in the workweek.',
              'Pay 45 hours with time-and-a-half for every hour over 40.',
            ],
          },
        },
        {
          name: 'exactly at the salary threshold with exempt duties is exempt',
          inputs: { hours_worked: 50, weekly_salary: 684, salary_basis: true, duties_test_met: true },
          expected: { fires: false, texts: [] },
        },
        {
          name: 'exactly 40 hours: no overtime',
          inputs: { hours_worked: 40, weekly_salary: 500, salary_basis: false, duties_test_met: false },
          expected: { fires: false },
        },
        {
          name: 'high salary but failing the duties test is owed overtime',
          inputs: { hours_worked: 40.5, weekly_salary: 1500, salary_basis: true, duties_test_met: false },
          expected: { fires: true },
        },
      ],
    },
    {
      name: 'Employee termination with separation-agreement consent',
      unitType: 'protocol',
      description:
        'Steps for ending employment: documentation review, the separation route, the employee\'s written consent to a ' +
        'mutual separation agreement (a gate), OWBPA release timing for employees aged 40 and over, and offboarding. ' +
        'Example procedure; final-pay deadlines and notice rules vary by state. Not legal advice.',
      given: 'A decision to end the employment of {{employee_name}}',
      when: 'HR runs the separation',
      then: 'Record the outcome for {{employee_name}} in the HR case file (route: {{separation_route}}).',
      inputSchema: {
        type: 'object',
        properties: {
          employee_name: { type: 'string', title: 'Employee', 'x-aliases': ['employee', 'worker', 'staff member'] },
          age: { type: 'integer', title: 'Age', minimum: 14, 'x-aliases': ['employee age'] },
          in_probation: {
            type: 'boolean',
            title: 'In introductory period',
            'x-aliases': ['probation', 'probationary', 'introductory period'],
          },
        },
        required: ['employee_name', 'age', 'in_probation'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          separation_route: { type: 'string', title: 'Separation route', enum: ['mutual', 'involuntary'] },
          consent: { type: 'string', title: 'Employee consent to the agreement', enum: ['yes', 'no'] },
          release_offered: { type: 'string', title: 'Severance offered for a release', enum: ['yes', 'no'] },
        },
      },
      definition: {
        steps: [
          {
            id: 'review_file',
            text: 'Confirm that the performance or conduct record for {{employee_name}} is documented and reviewed by HR and the manager.',
          },
          {
            id: 'route',
            gate: {
              name: 'separation_route',
              question: 'Is the separation of {{employee_name}} proposed as a mutual agreement or as an involuntary termination?',
              options: ['mutual', 'involuntary'],
            },
          },
          {
            id: 'consent',
            if: 'separation_route == "mutual"',
            gate: {
              name: 'consent',
              question: 'Has {{employee_name}} given written consent to the mutual separation agreement?',
              options: ['yes', 'no'],
            },
          },
          {
            id: 'no_consent',
            if: 'consent == "no"',
            text: 'Do not treat the separation as mutual without written consent: pause and escalate to HR and legal to reassess the route.',
          },
          {
            id: 'release',
            if: '!in_probation && consent != "no"',
            gate: {
              name: 'release_offered',
              question: 'Will severance be offered in exchange for a release of claims?',
              options: ['yes', 'no'],
            },
          },
          {
            id: 'owbpa',
            if: 'release_offered == "yes" && age >= 40',
            text: 'The employee is 40 or older: the release must advise consulting an attorney, give at least 21 days to consider (45 in a group program) and 7 days to revoke after signing (OWBPA).',
          },
          {
            id: 'final_pay',
            if: 'consent != "no"',
            text: 'Issue final pay, including any accrued vacation payable under policy or state law, within the state deadline.',
          },
          {
            id: 'offboard',
            if: 'consent != "no"',
            text: 'On the last day, revoke system access, collect company property and send benefits continuation (COBRA) information.',
          },
        ],
      },
      examples: [
        {
          name: 'pauses for the separation route',
          inputs: { employee_name: 'Ann', age: 35, in_probation: false },
          expected: { status: 'paused', texts: ['Confirm that the performance or conduct record for Ann is documented and reviewed by HR and the manager.'] },
        },
        {
          name: 'mutual route pauses for consent',
          inputs: { employee_name: 'Ann', age: 35, in_probation: false, separation_route: 'mutual' },
          expected: { status: 'paused' },
        },
        {
          name: 'consent refused: escalate and stop',
          inputs: { employee_name: 'Ann', age: 35, in_probation: false, separation_route: 'mutual', consent: 'no' },
          expected: {
            status: 'completed',
            consent: 'no',
            texts: [
              'Confirm that the performance or conduct record for Ann is documented and reviewed by HR and the manager.',
              'Do not treat the separation as mutual without written consent: pause and escalate to HR and legal to reassess the route.',
              'Record the outcome for Ann in the HR case file (route: mutual).',
            ],
          },
        },
        {
          name: 'age 40 with a release gets OWBPA timing',
          inputs: { employee_name: 'Bo', age: 40, in_probation: false, separation_route: 'mutual', consent: 'yes', release_offered: 'yes' },
          expected: {
            status: 'completed',
            separation_route: 'mutual',
            consent: 'yes',
            release_offered: 'yes',
            texts: [
              'Confirm that the performance or conduct record for Bo is documented and reviewed by HR and the manager.',
              'The employee is 40 or older: the release must advise consulting an attorney, give at least 21 days to consider (45 in a group program) and 7 days to revoke after signing (OWBPA).',
              'Issue final pay, including any accrued vacation payable under policy or state law, within the state deadline.',
              'On the last day, revoke system access, collect company property and send benefits continuation (COBRA) information.',
              'Record the outcome for Bo in the HR case file (route: mutual).',
            ],
          },
        },
      ],
    },
    {
      name: 'FMLA leave eligibility',
      unitType: 'argument',
      jurisdiction: 'US',
      description:
        'Whether an employee is entitled to up to 12 workweeks of unpaid, job-protected leave under the Family and ' +
        'Medical Leave Act: 12 months of service, 1,250 hours in the last 12 months, 50+ employees within 75 miles, ' +
        'and a qualifying reason, unless the 12-week entitlement is already used. Example of federal policy; state ' +
        'leave laws may give more. Not legal advice.',
      given: 'An employee requesting leave for a stated reason',
      when: 'FMLA eligibility is determined',
      then: 'Send the eligibility notice within 5 business days of the request.',
      inputSchema: {
        type: 'object',
        properties: {
          months_of_service: {
            type: 'number',
            title: 'Months of service',
            description: 'Total months employed by the employer (need not be consecutive).',
            'x-aliases': ['tenure in months', 'months employed'],
          },
          hours_last_12_months: {
            type: 'number',
            title: 'Hours worked in the last 12 months',
            'x-aliases': ['hours of service', 'hours worked'],
          },
          employees_within_75_miles: {
            type: 'integer',
            title: 'Employees within 75 miles of the worksite',
            'x-aliases': ['headcount', 'employer size'],
          },
          qualifying_reason: {
            type: 'boolean',
            title: 'Qualifying reason',
            description: 'Birth or placement of a child, a serious health condition of the employee or a family member, or a military exigency.',
            'x-aliases': ['serious health condition', 'qualifying event'],
          },
          fmla_weeks_used: {
            type: 'number',
            title: 'FMLA weeks already used in the 12-month period',
            'x-aliases': ['leave used', 'weeks taken'],
          },
        },
        required: ['months_of_service', 'hours_last_12_months', 'employees_within_75_miles', 'qualifying_reason', 'fmla_weeks_used'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          stands: { type: 'boolean', title: 'Entitled to FMLA leave', 'x-aliases': ['FMLA eligible'] },
          defeatedBy: { type: 'string', title: 'Reason the entitlement fails' },
        },
      },
      definition: {
        elements: [
          { id: 'service_12m', kind: 'premise', text: 'The employee has worked for the employer for at least 12 months.', when: 'months_of_service >= 12' },
          { id: 'hours_1250', kind: 'premise', text: 'The employee worked at least 1,250 hours in the last 12 months.', when: 'hours_last_12_months >= 1250' },
          { id: 'size_50', kind: 'premise', text: 'The employer has at least 50 employees within 75 miles of the worksite.', when: 'employees_within_75_miles >= 50' },
          { id: 'reason', kind: 'premise', text: 'The leave is for a qualifying reason.', when: 'qualifying_reason' },
          {
            id: 'exhausted',
            kind: 'rebuttal',
            text: 'The 12-week entitlement is exhausted: {{fmla_weeks_used}} weeks already used in the 12-month period.',
            when: 'fmla_weeks_used >= 12',
          },
          {
            id: 'entitled',
            kind: 'conclusion',
            text: 'The employee is entitled to unpaid, job-protected FMLA leave: up to 12 workweeks in the 12-month period, less the {{fmla_weeks_used}} weeks already used.',
          },
        ],
      },
      examples: [
        {
          name: 'eligible employee',
          inputs: { months_of_service: 14, hours_last_12_months: 1600, employees_within_75_miles: 120, qualifying_reason: true, fmla_weeks_used: 0 },
          expected: { stands: true, defeatedBy: null },
        },
        {
          name: '1,249 hours is one hour short',
          inputs: { months_of_service: 24, hours_last_12_months: 1249, employees_within_75_miles: 120, qualifying_reason: true, fmla_weeks_used: 0 },
          expected: { stands: false, defeatedBy: null, texts: [] },
        },
        {
          name: 'exactly 50 employees and 12 months qualifies',
          inputs: { months_of_service: 12, hours_last_12_months: 1250, employees_within_75_miles: 50, qualifying_reason: true, fmla_weeks_used: 11.5 },
          expected: { stands: true },
        },
        {
          name: 'entitlement already used',
          inputs: { months_of_service: 36, hours_last_12_months: 2000, employees_within_75_miles: 400, qualifying_reason: true, fmla_weeks_used: 12 },
          expected: {
            stands: false,
            defeatedBy: 'exhausted',
            texts: ['The 12-week entitlement is exhausted: 12 weeks already used in the 12-month period.'],
          },
        },
      ],
    },
    {
      name: 'Promotion readiness assessment',
      unitType: 'framework',
      description:
        'A weighted readiness score for promotion to the next level: performance, time in role, manager endorsement, ' +
        'development and conduct. A score of 7 of 10 recommends the candidate to the calibration panel. Example ' +
        'company policy.',
      given: 'A candidate nominated for promotion',
      when: 'Readiness is scored before calibration',
      then: 'Readiness score {{score}} of 10 (threshold {{threshold}}).',
      inputSchema: {
        type: 'object',
        properties: {
          performance_rating: {
            type: 'integer',
            title: 'Latest performance rating (1-5)',
            minimum: 1,
            maximum: 5,
            'x-aliases': ['rating', 'performance score', 'review rating'],
          },
          months_in_role: { type: 'number', title: 'Months in current role', 'x-aliases': ['time in role', 'time in grade'] },
          manager_endorsement: { type: 'boolean', title: 'Manager endorses', 'x-aliases': ['manager support', 'sponsor'] },
          development_plan_completed: {
            type: 'boolean',
            title: 'Development plan completed',
            'x-aliases': ['leadership training', 'development goals met'],
          },
          active_written_warning: {
            type: 'boolean',
            title: 'Active written warning',
            'x-aliases': ['disciplinary action', 'final warning'],
          },
        },
        required: ['performance_rating', 'months_in_role', 'manager_endorsement', 'development_plan_completed', 'active_written_warning'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          score: { type: 'number', title: 'Readiness score' },
          passed: { type: 'boolean', title: 'Recommended for promotion' },
          outcome: { type: 'string', title: 'Outcome', enum: ['pass', 'fail'] },
        },
      },
      definition: {
        elements: [
          { id: 'performance', label: 'Performance rated 4 or 5 in the latest cycle', weight: 3, when: 'performance_rating >= 4' },
          { id: 'time_in_role', label: 'At least 18 months in the current role', weight: 2, when: 'months_in_role >= 18' },
          { id: 'endorsement', label: 'Manager endorses the promotion', weight: 2, when: 'manager_endorsement' },
          { id: 'development', label: 'Development plan for the next level completed', weight: 1, when: 'development_plan_completed' },
          { id: 'conduct', label: 'No active written warning', weight: 2, when: '!active_written_warning' },
        ],
        threshold: 7,
        outcomes: {
          pass: 'Recommend for promotion at the next calibration (score {{score}}).',
          fail: 'Not yet ready (score {{score}} below {{threshold}}); agree a development plan with the manager.',
        },
      },
      examples: [
        {
          name: 'strong candidate',
          inputs: { performance_rating: 5, months_in_role: 24, manager_endorsement: true, development_plan_completed: true, active_written_warning: false },
          expected: { score: 10, passed: true, outcome: 'pass' },
        },
        {
          name: 'exactly at the threshold',
          inputs: { performance_rating: 4, months_in_role: 18, manager_endorsement: true, development_plan_completed: false, active_written_warning: true },
          expected: {
            score: 7,
            passed: true,
            texts: ['Recommend for promotion at the next calibration (score 7).', 'Readiness score 7 of 10 (threshold 7).'],
          },
        },
        {
          name: 'one month short of time in role',
          inputs: { performance_rating: 4, months_in_role: 17, manager_endorsement: true, development_plan_completed: false, active_written_warning: true },
          expected: { score: 5, passed: false, outcome: 'fail' },
        },
        {
          name: 'rating 3 without endorsement fails',
          inputs: { performance_rating: 3, months_in_role: 30, manager_endorsement: false, development_plan_completed: true, active_written_warning: false },
          expected: { score: 5, passed: false, outcome: 'fail' },
        },
      ],
    },
    {
      name: 'California final paycheck deadline',
      unitType: 'program',
      jurisdiction: 'US-CA',
      description:
        'When final wages are due in California (Labor Code 201-203): immediately on discharge; on the last day when ' +
        'the employee quits with at least 72 hours\' notice; otherwise within 72 hours of quitting. Late payment can ' +
        'incur waiting-time penalties of a day\'s wages per day, up to 30 days. Example of state policy. Not legal advice.',
      given: 'An employee whose employment ends',
      when: 'The final paycheck deadline is determined',
      then: 'Final wages are due {{final_pay_due}}; late payment risks up to {{max_penalty_days}} days of waiting-time penalties.',
      inputSchema: {
        type: 'object',
        properties: {
          separation_type: {
            type: 'string',
            title: 'How employment ended',
            enum: ['discharge', 'layoff', 'resignation'],
            'x-aliases': ['termination type', 'fired', 'quit'],
          },
          notice_hours: {
            type: 'number',
            title: 'Hours of notice the employee gave',
            description: 'For resignations; 0 when none.',
            'x-aliases': ['resignation notice', 'notice given'],
          },
        },
        required: ['separation_type', 'notice_hours'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          final_pay_due: { type: 'string', title: 'When final pay is due', 'x-aliases': ['final paycheck', 'last paycheck'] },
          max_penalty_days: { type: 'integer', title: 'Maximum waiting-time penalty days' },
        },
        required: ['final_pay_due', 'max_penalty_days'],
      },
      definition: {
        steps: [
          { id: 'employer_initiated', set: 'final_pay_due', expr: '"immediately at the time of separation"' },
          {
            id: 'quit_with_notice',
            if: 'separation_type == "resignation" && notice_hours >= 72',
            set: 'final_pay_due',
            expr: '"on the employee\'s last day of work"',
          },
          {
            id: 'quit_without_notice',
            if: 'separation_type == "resignation" && notice_hours < 72',
            set: 'final_pay_due',
            expr: '"within 72 hours of the resignation"',
          },
          { id: 'penalty_cap', set: 'max_penalty_days', expr: '30' },
        ],
      },
      examples: [
        {
          name: 'discharge is immediate',
          inputs: { separation_type: 'discharge', notice_hours: 0 },
          expected: {
            final_pay_due: 'immediately at the time of separation',
            texts: ['Final wages are due immediately at the time of separation; late payment risks up to 30 days of waiting-time penalties.'],
          },
        },
        {
          name: 'resignation with exactly 72 hours notice',
          inputs: { separation_type: 'resignation', notice_hours: 72 },
          expected: { final_pay_due: "on the employee's last day of work", max_penalty_days: 30 },
        },
        {
          name: 'resignation with 71 hours notice',
          inputs: { separation_type: 'resignation', notice_hours: 71 },
          expected: { final_pay_due: 'within 72 hours of the resignation' },
        },
      ],
    },
  ],
};
