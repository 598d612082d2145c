import type { DomainTemplate } from './index.js';

/** Lending and payments: credit risk, mortgage underwriting, AML reporting and payment controls. */
export const finance: DomainTemplate = {
  id: 'finance',
  name: 'Finance',
  description:
    'Lending and payments: credit-risk scoring, mortgage underwriting (loan-to-value, debt-to-income, qualified ' +
    'mortgages), cash-transaction reporting and wire-transfer controls. Figures are examples of US federal rules and ' +
    'common credit policy; calibrate them to your own policy and regulator. Not financial or legal advice.',
  jurisdiction: 'US',
  units: [
    {
      name: 'Mortgage loan-to-value and mortgage insurance',
      unitType: 'program',
      description:
        'Computes the loan-to-value ratio, its pricing band and whether mortgage insurance is required: conventional ' +
        'loans need private mortgage insurance (PMI) above 80% LTV; FHA loans always carry mortgage insurance premium ' +
        '(MIP); VA loans carry none. Maximum LTV is 97% conventional, 96.5% FHA and 100% VA. Example of common US ' +
        'agency guidelines.',
      given: 'A purchase mortgage of {{loan_amount}} on a property valued at {{property_value}}',
      when: 'The loan-to-value ratio is underwritten',
      then: 'LTV is {{ltv}}% ({{ltv_band}} band); mortgage insurance required: {{mortgage_insurance_required}}; within the {{loan_program}} maximum of {{max_ltv}}%: {{within_max_ltv}}.',
      inputSchema: {
        type: 'object',
        properties: {
          loan_amount: {
            type: 'number',
            title: 'Loan amount (USD)',
            minimum: 0,
            'x-aliases': ['mortgage amount', 'principal', 'loan size'],
          },
          property_value: {
            type: 'number',
            title: 'Property value (USD)',
            description: 'The lower of the appraised value and the purchase price.',
            exclusiveMinimum: 0,
            'x-aliases': ['appraised value', 'home value', 'purchase price'],
          },
          loan_program: {
            type: 'string',
            title: 'Loan program',
            enum: ['conventional', 'fha', 'va'],
            'x-aliases': ['loan type', 'mortgage type'],
          },
        },
        required: ['loan_amount', 'property_value', 'loan_program'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          ltv: { type: 'number', title: 'Loan-to-value (%)', 'x-aliases': ['LTV', 'loan to value'] },
          ltv_band: { type: 'string', title: 'LTV band', enum: ['80 or less', '80.01-90', '90.01-95', 'above 95'] },
          mortgage_insurance_required: { type: 'boolean', title: 'Mortgage insurance required', 'x-aliases': ['PMI', 'MIP'] },
          max_ltv: { type: 'number', title: 'Program maximum LTV (%)' },
          within_max_ltv: { type: 'boolean', title: 'Within the program maximum' },
        },
        required: ['ltv', 'ltv_band', 'mortgage_insurance_required', 'max_ltv', 'within_max_ltv'],
      },
      definition: {
        steps: [
          { id: 'ltv', set: 'ltv', expr: 'loan_amount * 100.0 / property_value' },
          { id: 'band_80', set: 'ltv_band', expr: '"80 or less"' },
          { id: 'band_90', if: 'ltv > 80', set: 'ltv_band', expr: '"80.01-90"' },
          { id: 'band_95', if: 'ltv > 90', set: 'ltv_band', expr: '"90.01-95"' },
          { id: 'band_above_95', if: 'ltv > 95', set: 'ltv_band', expr: '"above 95"' },
          { id: 'pmi', set: 'mortgage_insurance_required', expr: 'ltv > 80' },
          { id: 'max_conventional', set: 'max_ltv', expr: '97.0' },
          { id: 'max_fha', if: 'loan_program == "fha"', set: 'max_ltv', expr: '96.5' },
          { id: 'max_va', if: 'loan_program == "va"', set: 'max_ltv', expr: '100.0' },
          { id: 'within_max', set: 'within_max_ltv', expr: 'ltv <= max_ltv' },
          { id: 'fha_mip', if: 'loan_program == "fha"', set: 'mortgage_insurance_required', expr: 'true', exception: true },
          { id: 'va_no_mi', if: 'loan_program == "va"', set: 'mortgage_insurance_required', expr: 'false', exception: true },
        ],
      },
      examples: [
        {
          name: 'conventional at exactly 80% needs no PMI',
          inputs: { loan_amount: 400000, property_value: 500000, loan_program: 'conventional' },
          expected: {
            ltv: 80,
            ltv_band: '80 or less',
            mortgage_insurance_required: false,
            within_max_ltv: true,
            texts: ['LTV is 80% (80 or less band); mortgage insurance required: false; within the conventional maximum of 97%: true.'],
          },
        },
        {
          name: 'conventional just above 80% needs PMI',
          inputs: { loan_amount: 400050, property_value: 500000, loan_program: 'conventional' },
          expected: { ltv: 80.01, ltv_band: '80.01-90', mortgage_insurance_required: true },
        },
        {
          name: 'FHA at 96.5% is within its maximum and carries MIP',
          inputs: { loan_amount: 289500, property_value: 300000, loan_program: 'fha' },
          expected: { ltv: 96.5, ltv_band: 'above 95', mortgage_insurance_required: true, max_ltv: 96.5, within_max_ltv: true },
        },
        {
          name: 'VA at 100% has no mortgage insurance; conventional would exceed 97%',
          inputs: { loan_amount: 350000, property_value: 350000, loan_program: 'va' },
          expected: { ltv: 100, mortgage_insurance_required: false, max_ltv: 100, within_max_ltv: true },
        },
      ],
    },
    {
      name: 'Commercial credit-risk scorecard',
      unitType: 'framework',
      description:
        'A Basel-style obligor assessment for small-business loans: debt-service coverage, leverage, payment history, ' +
        'collateral, operating history and sector risk, scored out of 100. A score of 70 is acceptable risk; below it ' +
        'the file goes to the credit committee. An obligor 90 or more days past due is in default under the Basel ' +
        'definition and fails regardless. Weights are an example credit policy.',
      given: 'A small-business borrower applying for credit',
      when: 'The obligor risk is scored',
      then: 'Credit-risk score {{score}} of 100 against a threshold of {{threshold}}.',
      inputSchema: {
        type: 'object',
        properties: {
          dscr: {
            type: 'number',
            title: 'Debt-service coverage ratio',
            description: 'Net operating income divided by total debt service.',
            'x-aliases': ['DSCR', 'debt service coverage', 'coverage ratio'],
          },
          debt_to_ebitda: {
            type: 'number',
            title: 'Debt / EBITDA',
            'x-aliases': ['leverage', 'leverage ratio', 'debt to EBITDA'],
          },
          max_days_past_due: {
            type: 'integer',
            title: 'Worst days past due in the last 12 months',
            minimum: 0,
            'x-aliases': ['days past due', 'DPD', 'delinquency'],
          },
          collateral_coverage: {
            type: 'number',
            title: 'Collateral coverage',
            description: 'Discounted collateral value divided by the exposure.',
            'x-aliases': ['collateral ratio', 'security coverage'],
          },
          years_in_business: { type: 'number', title: 'Years in business', 'x-aliases': ['operating history', 'business age'] },
          sector_risk: {
            type: 'string',
            title: 'Sector risk',
            enum: ['low', 'medium', 'high'],
            'x-aliases': ['industry risk', 'industry'],
          },
        },
        required: ['dscr', 'debt_to_ebitda', 'max_days_past_due', 'collateral_coverage', 'years_in_business', 'sector_risk'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          score: { type: 'number', title: 'Credit-risk score' },
          passed: { type: 'boolean', title: 'Acceptable risk', 'x-aliases': ['approved'] },
          outcome: { type: 'string', enum: ['pass', 'fail'] },
        },
      },
      definition: {
        elements: [
          { id: 'dscr', label: 'Debt-service coverage of at least 1.25x', weight: 25, when: 'dscr >= 1.25' },
          { id: 'leverage', label: 'Debt / EBITDA of at most 3.5x', weight: 20, when: 'debt_to_ebitda <= 3.5' },
          { id: 'payment_history', label: 'Never 30+ days past due in the last 12 months', weight: 20, when: 'max_days_past_due < 30' },
          { id: 'collateral', label: 'Collateral covers the exposure', weight: 15, when: 'collateral_coverage >= 1.0' },
          { id: 'history', label: 'At least 3 years in business', weight: 10, when: 'years_in_business >= 3' },
          { id: 'sector', label: 'Sector risk is not high', weight: 10, when: 'sector_risk != "high"' },
          { id: 'default', label: 'In default: 90+ days past due (Basel definition)', weight: -100, when: 'max_days_past_due >= 90' },
        ],
        threshold: 70,
        outcomes: {
          pass: 'Acceptable credit risk (score {{score}}); proceed under delegated authority.',
          fail: 'Elevated credit risk (score {{score}} below {{threshold}}); refer to the credit committee.',
        },
      },
      examples: [
        {
          name: 'strong borrower',
          inputs: { dscr: 1.6, debt_to_ebitda: 2.1, max_days_past_due: 0, collateral_coverage: 1.3, years_in_business: 12, sector_risk: 'low' },
          expected: { score: 100, passed: true, outcome: 'pass' },
        },
        {
          name: 'exactly at the threshold, every ratio on its boundary',
          inputs: { dscr: 1.25, debt_to_ebitda: 3.5, max_days_past_due: 30, collateral_coverage: 1.0, years_in_business: 3, sector_risk: 'high' },
          expected: {
            score: 70,
            passed: true,
            texts: ['Acceptable credit risk (score 70); proceed under delegated authority.', 'Credit-risk score 70 of 100 against a threshold of 70.'],
          },
        },
        {
          name: 'thin coverage and a 30-day delinquency fall short',
          inputs: { dscr: 1.24, debt_to_ebitda: 3.0, max_days_past_due: 30, collateral_coverage: 1.1, years_in_business: 5, sector_risk: 'high' },
          expected: { score: 45, passed: false, outcome: 'fail' },
        },
        {
          name: 'a defaulted obligor fails whatever its ratios',
          inputs: { dscr: 2.0, debt_to_ebitda: 1.0, max_days_past_due: 90, collateral_coverage: 2.0, years_in_business: 20, sector_risk: 'low' },
          expected: { score: -20, passed: false },
        },
      ],
    },
    {
      name: 'Debt-to-income ratio for mortgage qualification',
      unitType: 'program',
      description:
        'Front-end (housing) and back-end (total) debt-to-income ratios from gross monthly income. A back-end DTI of ' +
        'up to 43% is the traditional qualified-mortgage benchmark; 36% or less is the comfortable range many lenders ' +
        'price best. Example credit policy.',
      given: 'A borrower with gross monthly income of {{gross_monthly_income}}',
      when: 'Debt-to-income ratios are calculated',
      then: 'Front-end DTI {{front_end_dti}}%, back-end DTI {{back_end_dti}}% ({{dti_assessment}}).',
      inputSchema: {
        type: 'object',
        properties: {
          gross_monthly_income: {
            type: 'number',
            title: 'Gross monthly income (USD)',
            exclusiveMinimum: 0,
            'x-aliases': ['monthly income', 'income', 'gross income'],
          },
          housing_payment: {
            type: 'number',
            title: 'Proposed monthly housing payment (USD)',
            description: 'Principal, interest, taxes, insurance and HOA dues.',
            'x-aliases': ['PITI', 'mortgage payment', 'housing cost'],
          },
          other_monthly_debt: {
            type: 'number',
            title: 'Other monthly debt payments (USD)',
            description: 'Minimum payments on cards, auto, student and other loans.',
            'x-aliases': ['monthly debts', 'recurring debt', 'other debts'],
          },
        },
        required: ['gross_monthly_income', 'housing_payment', 'other_monthly_debt'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          front_end_dti: { type: 'number', title: 'Front-end DTI (%)', 'x-aliases': ['housing ratio'] },
          back_end_dti: { type: 'number', title: 'Back-end DTI (%)', 'x-aliases': ['DTI', 'debt to income', 'total debt ratio'] },
          dti_assessment: { type: 'string', title: 'Assessment', enum: ['within guidelines', 'compensating factors needed', 'exceeds guidelines'] },
        },
        required: ['front_end_dti', 'back_end_dti', 'dti_assessment'],
      },
      definition: {
        steps: [
          { id: 'front_end', set: 'front_end_dti', expr: 'housing_payment * 100.0 / gross_monthly_income' },
          { id: 'back_end', set: 'back_end_dti', expr: '(housing_payment + other_monthly_debt) * 100.0 / gross_monthly_income' },
          { id: 'within', set: 'dti_assessment', expr: '"within guidelines"' },
          { id: 'compensating', if: 'back_end_dti > 36', set: 'dti_assessment', expr: '"compensating factors needed"' },
          { id: 'exceeds', if: 'back_end_dti > 43', set: 'dti_assessment', expr: '"exceeds guidelines"' },
        ],
      },
      examples: [
        {
          name: 'comfortable ratios',
          inputs: { gross_monthly_income: 10000, housing_payment: 2500, other_monthly_debt: 500 },
          expected: { front_end_dti: 25, back_end_dti: 30, dti_assessment: 'within guidelines', texts: ['Front-end DTI 25%, back-end DTI 30% (within guidelines).'] },
        },
        {
          name: 'exactly 43% back-end still qualifies with compensating factors',
          inputs: { gross_monthly_income: 10000, housing_payment: 3000, other_monthly_debt: 1300 },
          expected: { back_end_dti: 43, dti_assessment: 'compensating factors needed' },
        },
        {
          name: 'above 43% exceeds guidelines',
          inputs: { gross_monthly_income: 8000, housing_payment: 2800, other_monthly_debt: 700 },
          expected: { front_end_dti: 35, back_end_dti: 43.75, dti_assessment: 'exceeds guidelines' },
        },
      ],
    },
    {
      name: 'Currency transaction report (CTR) requirement',
      unitType: 'pattern',
      jurisdiction: 'US',
      description:
        'Under the Bank Secrecy Act a financial institution files a Currency Transaction Report with FinCEN for cash ' +
        'transactions by or for one person that total more than $10,000 in one business day; multiple transactions ' +
        'are aggregated. Structuring to avoid the report is itself reportable. Example of federal policy. Not legal advice.',
      given: 'Cash transactions conducted by or on behalf of one person during one business day',
      when: 'The branch reviews the day\'s cash activity',
      then: 'Complete FinCEN Form 112 for {{daily_cash_total}} USD in cash.',
      inputSchema: {
        type: 'object',
        properties: {
          daily_cash_total: {
            type: 'number',
            title: 'Aggregated cash in or out for the business day (USD)',
            'x-aliases': ['cash total', 'cash deposits', 'cash withdrawals', 'cash amount'],
          },
          exempt_person: {
            type: 'boolean',
            title: 'Customer is a designated exempt person',
            description: 'E.g. a bank, government agency, listed company or eligible non-listed business designated under 31 CFR 1020.315.',
            'x-aliases': ['CTR exemption', 'exempt customer'],
          },
        },
        required: ['daily_cash_total', 'exempt_person'],
      },
      outputSchema: { type: 'object', properties: { fires: { type: 'boolean', title: 'CTR required', 'x-aliases': ['file CTR'] } } },
      definition: {
        elements: [
          { id: 'over_10k', kind: 'condition', when: 'daily_cash_total > 10000' },
          { id: 'not_exempt', kind: 'condition', when: '!exempt_person' },
          { id: 'file_ctr', kind: 'conclusion', text: 'A Currency Transaction Report is required: file it with FinCEN within 15 calendar days of the transaction date.' },
          { id: 'identify', kind: 'conclusion', text: 'Verify and record the identity of each person conducting the transactions.' },
        ],
      },
      examples: [
        {
          name: 'just over 10,000 aggregated',
          inputs: { daily_cash_total: 10000.01, exempt_person: false },
          expected: {
            fires: true,
            texts: [
              'A Currency Transaction Report is required: file it with FinCEN within 15 calendar days of the transaction date.',
              'Verify and record the identity of each person conducting the transactions.',
              'Complete FinCEN Form 112 for 10000.01 USD in cash.',
            ],
          },
        },
        { name: 'exactly 10,000 is not over the threshold', inputs: { daily_cash_total: 10000, exempt_person: false }, expected: { fires: false, texts: [] } },
        { name: 'exempt person', inputs: { daily_cash_total: 50000, exempt_person: true }, expected: { fires: false } },
      ],
    },
    {
      name: 'General qualified mortgage (QM) status',
      unitType: 'argument',
      jurisdiction: 'US',
      description:
        'Whether a first-lien loan is a General Qualified Mortgage under Regulation Z (12 CFR 1026.43(e)(2)) and so ' +
        'presumed to comply with the ability-to-repay rule: no negative amortization, interest-only or balloon ' +
        'features, a term of 30 years or less, points and fees within 3% (for loans at or above the annual threshold), ' +
        'and an APR less than 2.25 points above the average prime offer rate. Unverified income or assets defeats it. ' +
        'Example of federal policy; smaller loans have higher limits. Not legal advice.',
      given: 'A closed-end first-lien residential mortgage',
      when: 'QM status is determined',
      then: 'Document the QM determination in the loan file.',
      inputSchema: {
        type: 'object',
        properties: {
          term_years: { type: 'integer', title: 'Loan term (years)', 'x-aliases': ['term', 'loan term', 'amortization period'] },
          risky_features: {
            type: 'boolean',
            title: 'Negative amortization, interest-only or balloon features',
            'x-aliases': ['interest only', 'balloon', 'negative amortization'],
          },
          points_and_fees_pct: {
            type: 'number',
            title: 'Points and fees (% of loan amount)',
            'x-aliases': ['points and fees', 'fees'],
          },
          apr_spread_over_apor: {
            type: 'number',
            title: 'APR minus average prime offer rate (percentage points)',
            'x-aliases': ['rate spread', 'APOR spread', 'APR spread'],
          },
          income_verified: {
            type: 'boolean',
            title: 'Income and assets verified',
            description: 'Verified with third-party records as 12 CFR 1026.43(c)(4) requires.',
            'x-aliases': ['income verification', 'verified income'],
          },
        },
        required: ['term_years', 'risky_features', 'points_and_fees_pct', 'apr_spread_over_apor', 'income_verified'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          stands: { type: 'boolean', title: 'Qualified mortgage', 'x-aliases': ['QM', 'qualified mortgage'] },
          defeatedBy: { type: 'string', title: 'Defeating defect' },
        },
      },
      definition: {
        elements: [
          { id: 'no_risky_features', kind: 'premise', text: 'The loan has no negative amortization, interest-only or balloon features.', when: '!risky_features' },
          { id: 'term', kind: 'premise', text: 'The term does not exceed 30 years.', when: 'term_years <= 30' },
          { id: 'points_fees', kind: 'premise', text: 'Points and fees are at most 3% of the loan amount.', when: 'points_and_fees_pct <= 3.0' },
          { id: 'pricing', kind: 'premise', text: 'The APR is less than 2.25 percentage points above APOR.', when: 'apr_spread_over_apor < 2.25' },
          {
            id: 'unverified_income',
            kind: 'rebuttal',
            text: 'Income or assets were not verified as the ability-to-repay rule requires, so the loan cannot be a QM.',
            when: '!income_verified',
          },
          {
            id: 'qm',
            kind: 'conclusion',
            text: 'The loan is a General QM with an APR spread of {{apr_spread_over_apor}} points over APOR (a safe harbor below 1.5 points, a rebuttable presumption from 1.5).',
          },
        ],
      },
      examples: [
        {
          name: 'safe-harbor QM',
          inputs: { term_years: 30, risky_features: false, points_and_fees_pct: 2.5, apr_spread_over_apor: 1.2, income_verified: true },
          expected: {
            stands: true,
            texts: [
              'The loan is a General QM with an APR spread of 1.2 points over APOR (a safe harbor below 1.5 points, a rebuttable presumption from 1.5).',
              'Document the QM determination in the loan file.',
            ],
          },
        },
        {
          name: 'a spread of exactly 2.25 points is not QM',
          inputs: { term_years: 30, risky_features: false, points_and_fees_pct: 3.0, apr_spread_over_apor: 2.25, income_verified: true },
          expected: { stands: false, defeatedBy: null },
        },
        {
          name: 'a 40-year term is not QM',
          inputs: { term_years: 40, risky_features: false, points_and_fees_pct: 1, apr_spread_over_apor: 0.5, income_verified: true },
          expected: { stands: false },
        },
        {
          name: 'unverified income defeats QM status',
          inputs: { term_years: 15, risky_features: false, points_and_fees_pct: 1, apr_spread_over_apor: 0.5, income_verified: false },
          expected: {
            stands: false,
            defeatedBy: 'unverified_income',
            texts: ['Income or assets were not verified as the ability-to-repay rule requires, so the loan cannot be a QM.'],
          },
        },
      ],
    },
    {
      name: 'Outgoing wire transfer release controls',
      unitType: 'protocol',
      description:
        'Controls before releasing an outgoing wire: call-back verification of the instruction on a known number, ' +
        'sanctions (OFAC) screening, and Travel Rule recordkeeping for transfers of $3,000 or more. A potential ' +
        'sanctions match is held and escalated. Example operating procedure. Not legal advice.',
      given: 'An outgoing wire of {{amount}} USD to {{beneficiary}}',
      when: 'Payment operations prepares to release it',
      then: 'Log the control results for the wire to {{beneficiary}} in the payment record.',
      inputSchema: {
        type: 'object',
        properties: {
          amount: { type: 'number', title: 'Amount (USD)', 'x-aliases': ['wire amount', 'transfer amount', 'payment amount'] },
          beneficiary: { type: 'string', title: 'Beneficiary', 'x-aliases': ['payee', 'recipient'] },
          international: { type: 'boolean', title: 'Cross-border wire', 'x-aliases': ['international wire', 'foreign'] },
        },
        required: ['amount', 'beneficiary', 'international'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          callback_verified: { type: 'string', title: 'Call-back verification', enum: ['confirmed', 'not confirmed'] },
          sanctions_screening: { type: 'string', title: 'Sanctions screening result', enum: ['no match', 'potential match'] },
        },
      },
      definition: {
        steps: [
          {
            id: 'travel_rule',
            if: 'amount >= 3000',
            text: 'Record the originator and beneficiary information and pass it with the transfer (Travel Rule, 31 CFR 1010.410(f)).',
          },
          {
            id: 'callback',
            gate: {
              name: 'callback_verified',
              question: 'Was the instruction to pay {{beneficiary}} confirmed by calling the customer on a number already on file?',
              options: ['confirmed', 'not confirmed'],
            },
          },
          {
            id: 'callback_failed',
            if: 'callback_verified == "not confirmed"',
            text: 'Do not release: treat as possible business-email compromise and escalate to the fraud team.',
          },
          {
            id: 'screening',
            if: 'callback_verified == "confirmed"',
            gate: {
              name: 'sanctions_screening',
              question: 'What did sanctions screening of the parties and banks return?',
              options: ['no match', 'potential match'],
            },
          },
          {
            id: 'hold',
            if: 'sanctions_screening == "potential match"',
            text: 'Hold the wire and escalate to the BSA/AML officer; if the match is confirmed, block or reject it and report to OFAC within 10 business days.',
          },
          {
            id: 'dual_control',
            if: 'sanctions_screening == "no match" && (amount >= 100000 || international)',
            text: 'Obtain second-officer approval (dual control) before release.',
          },
          { id: 'release', if: 'sanctions_screening == "no match"', text: 'Release the wire and send the confirmation to the customer.' },
        ],
      },
      examples: [
        {
          name: 'pauses for call-back verification',
          inputs: { amount: 5000, beneficiary: 'Acme Supplies', international: false },
          expected: {
            status: 'paused',
            texts: ['Record the originator and beneficiary information and pass it with the transfer (Travel Rule, 31 CFR 1010.410(f)).'],
          },
        },
        {
          name: 'failed call-back stops the wire',
          inputs: { amount: 2999.99, beneficiary: 'Acme Supplies', international: false, callback_verified: 'not confirmed' },
          expected: {
            status: 'completed',
            texts: [
              'Do not release: treat as possible business-email compromise and escalate to the fraud team.',
              'Log the control results for the wire to Acme Supplies in the payment record.',
            ],
          },
        },
        {
          name: 'clean international wire needs dual control',
          inputs: { amount: 3000, beneficiary: 'Globex GmbH', international: true, callback_verified: 'confirmed', sanctions_screening: 'no match' },
          expected: {
            status: 'completed',
            callback_verified: 'confirmed',
            sanctions_screening: 'no match',
            texts: [
              'Record the originator and beneficiary information and pass it with the transfer (Travel Rule, 31 CFR 1010.410(f)).',
              'Obtain second-officer approval (dual control) before release.',
              'Release the wire and send the confirmation to the customer.',
              'Log the control results for the wire to Globex GmbH in the payment record.',
            ],
          },
        },
        {
          name: 'potential sanctions match is held',
          inputs: { amount: 250000, beneficiary: 'Initech', international: true, callback_verified: 'confirmed', sanctions_screening: 'potential match' },
          expected: {
            texts: [
              'Record the originator and beneficiary information and pass it with the transfer (Travel Rule, 31 CFR 1010.410(f)).',
              'Hold the wire and escalate to the BSA/AML officer; if the match is confirmed, block or reject it and report to OFAC within 10 business days.',
              'Log the control results for the wire to Initech in the payment record.',
            ],
          },
        },
      ],
    },
  ],
};
