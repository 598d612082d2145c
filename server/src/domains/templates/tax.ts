import type { DomainTemplate } from './index.js';

/** US federal individual and small-business tax. */
export const tax: DomainTemplate = {
  id: 'tax',
  name: 'Tax',
  description:
    'US federal individual and small-business tax: deductions, estimated payments, information returns, worker ' +
    'classification, home-office deductions and IRS notices. Amounts are tax-year 2024 figures as examples of ' +
    'policy; they are indexed or changed by legislation most years, so update them for the year at hand. Not tax advice.',
  jurisdiction: 'US',
  units: [
    {
      name: 'Standard deduction or itemize (tax year 2024)',
      unitType: 'program',
      description:
        'Compares the 2024 standard deduction (single or married filing separately $14,600; married filing jointly ' +
        '$29,200; head of household $21,900; plus $1,950 per age-65-or-blind box for single or head of household, ' +
        '$1,550 for married filers) with itemized deductions, capping state and local taxes (SALT) at $10,000 ($5,000 ' +
        'married filing separately). A married person filing separately must itemize if their spouse does. Example ' +
        'of federal policy for 2024 only. Not tax advice.',
      given: 'A taxpayer filing as {{filing_status}}',
      when: 'The deduction method is chosen',
      then: 'Take the {{deduction_method}} deduction of {{deduction}} (standard {{standard_deduction}}, itemized {{itemized_deduction}}).',
      inputSchema: {
        type: 'object',
        properties: {
          filing_status: {
            type: 'string',
            title: 'Filing status',
            enum: ['single', 'married_joint', 'married_separate', 'head_of_household'],
            'x-aliases': ['status', 'MFJ', 'MFS', 'HOH'],
          },
          age_or_blind_boxes: {
            type: 'integer',
            title: 'Number of age-65-or-older and blindness boxes checked',
            minimum: 0,
            maximum: 4,
            'x-aliases': ['over 65', 'blind', 'additional standard deduction'],
          },
          salt_paid: {
            type: 'number',
            title: 'State and local income/sales and property taxes paid (USD)',
            'x-aliases': ['SALT', 'state taxes', 'property tax'],
          },
          mortgage_interest: { type: 'number', title: 'Deductible home mortgage interest (USD)', 'x-aliases': ['mortgage interest', 'Form 1098'] },
          charitable_gifts: { type: 'number', title: 'Deductible charitable contributions (USD)', 'x-aliases': ['donations', 'charity'] },
          other_itemized: {
            type: 'number',
            title: 'Other itemized deductions (USD)',
            description: 'E.g. medical expenses above 7.5% of AGI, casualty losses in a federally declared disaster.',
            'x-aliases': ['medical expenses', 'other deductions'],
          },
          spouse_itemizes: {
            type: 'boolean',
            title: 'Spouse itemizes on a separate return',
            description: 'Only relevant for married filing separately.',
            'x-aliases': ['spouse itemizing'],
          },
        },
        required: ['filing_status', 'age_or_blind_boxes', 'salt_paid', 'mortgage_interest', 'charitable_gifts', 'other_itemized', 'spouse_itemizes'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          standard_deduction: { type: 'number', title: 'Standard deduction (USD)' },
          itemized_deduction: { type: 'number', title: 'Itemized deductions after the SALT cap (USD)', 'x-aliases': ['Schedule A'] },
          deduction_method: { type: 'string', title: 'Method', enum: ['standard', 'itemized'] },
          deduction: { type: 'number', title: 'Deduction taken (USD)', 'x-aliases': ['deduction amount'] },
        },
        required: ['standard_deduction', 'itemized_deduction', 'deduction_method', 'deduction'],
      },
      definition: {
        steps: [
          { id: 'base_single', set: 'standard_deduction', expr: '14600.0' },
          { id: 'base_joint', if: 'filing_status == "married_joint"', set: 'standard_deduction', expr: '29200.0' },
          { id: 'base_hoh', if: 'filing_status == "head_of_household"', set: 'standard_deduction', expr: '21900.0' },
          {
            id: 'additional',
            set: 'standard_deduction',
            expr: 'standard_deduction + age_or_blind_boxes * (filing_status in ["single", "head_of_household"] ? 1950 : 1550)',
          },
          { id: 'salt_cap', set: 'salt_cap', expr: 'filing_status == "married_separate" ? 5000.0 : 10000.0' },
          {
            id: 'itemized',
            set: 'itemized_deduction',
            expr: '(salt_paid < salt_cap ? salt_paid : salt_cap) + mortgage_interest + charitable_gifts + other_itemized',
          },
          { id: 'choose', set: 'deduction_method', expr: 'itemized_deduction > standard_deduction ? "itemized" : "standard"' },
          {
            id: 'mfs_must_itemize',
            if: 'filing_status == "married_separate" && spouse_itemizes',
            set: 'deduction_method',
            expr: '"itemized"',
            exception: true,
          },
          {
            id: 'mfs_no_standard',
            if: 'filing_status == "married_separate" && spouse_itemizes',
            set: 'standard_deduction',
            expr: '0.0',
            exception: true,
          },
          {
            id: 'amount',
            set: 'deduction',
            expr: 'deduction_method == "itemized" ? itemized_deduction : standard_deduction',
            exception: true,
          },
        ],
      },
      examples: [
        {
          name: 'single renter takes the standard deduction',
          inputs: {
            filing_status: 'single', age_or_blind_boxes: 0, salt_paid: 6000, mortgage_interest: 0, charitable_gifts: 500,
            other_itemized: 0, spouse_itemizes: false,
          },
          expected: {
            standard_deduction: 14600,
            itemized_deduction: 6500,
            deduction_method: 'standard',
            deduction: 14600,
            texts: ['Take the standard deduction of 14600 (standard 14600, itemized 6500).'],
          },
        },
        {
          name: 'joint filers over 65 with SALT above the cap itemize',
          inputs: {
            filing_status: 'married_joint', age_or_blind_boxes: 2, salt_paid: 18000, mortgage_interest: 19000, charitable_gifts: 4000,
            other_itemized: 0, spouse_itemizes: false,
          },
          expected: { standard_deduction: 32300, itemized_deduction: 33000, deduction_method: 'itemized', deduction: 33000 },
        },
        {
          name: 'equal amounts keep the standard deduction',
          inputs: {
            filing_status: 'head_of_household', age_or_blind_boxes: 1, salt_paid: 10000, mortgage_interest: 12000, charitable_gifts: 1850,
            other_itemized: 0, spouse_itemizes: false,
          },
          expected: { standard_deduction: 23850, itemized_deduction: 23850, deduction_method: 'standard' },
        },
        {
          name: 'married filing separately must itemize when the spouse does',
          inputs: {
            filing_status: 'married_separate', age_or_blind_boxes: 0, salt_paid: 9000, mortgage_interest: 2000, charitable_gifts: 0,
            other_itemized: 0, spouse_itemizes: true,
          },
          expected: { standard_deduction: 0, itemized_deduction: 7000, deduction_method: 'itemized', deduction: 7000 },
        },
      ],
    },
    {
      name: 'Estimated tax safe harbor',
      unitType: 'program',
      description:
        'The annual estimated-tax payment that avoids the underpayment penalty (IRC 6654): the smaller of 90% of this ' +
        'year\'s tax and 100% of last year\'s (110% when last year\'s AGI exceeded $150,000, or $75,000 married filing ' +
        'separately), less withholding, paid in four installments. No estimates are needed when the expected balance ' +
        'due after withholding is under $1,000. Example of federal policy. Not tax advice.',
      given: 'A taxpayer expecting {{current_year_tax}} of tax this year',
      when: 'Quarterly estimated payments are planned',
      then: 'Pay {{quarterly_installment}} per quarter ({{required_estimates}} a year) to meet the safe harbor of {{safe_harbor}}.',
      inputSchema: {
        type: 'object',
        properties: {
          current_year_tax: { type: 'number', title: 'Expected total tax this year (USD)', 'x-aliases': ['this year tax', 'projected tax'] },
          prior_year_tax: {
            type: 'number',
            title: 'Total tax on last year\'s return (USD)',
            description: 'Use the current-year test only when there was no prior-year return covering 12 months.',
            'x-aliases': ['last year tax', 'prior tax'],
          },
          prior_year_agi: { type: 'number', title: 'Last year\'s adjusted gross income (USD)', 'x-aliases': ['AGI', 'last year AGI', 'income'] },
          married_filing_separately: { type: 'boolean', title: 'Married filing separately', 'x-aliases': ['MFS'] },
          withholding: { type: 'number', title: 'Expected withholding this year (USD)', 'x-aliases': ['tax withheld', 'W-2 withholding'] },
        },
        required: ['current_year_tax', 'prior_year_tax', 'prior_year_agi', 'married_filing_separately', 'withholding'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          safe_harbor: { type: 'number', title: 'Safe-harbor total payments (USD)' },
          required_estimates: { type: 'number', title: 'Estimated payments needed this year (USD)', 'x-aliases': ['estimated tax', 'estimated payments'] },
          quarterly_installment: { type: 'number', title: 'Each quarterly installment (USD)', 'x-aliases': ['quarterly payment', '1040-ES'] },
        },
        required: ['safe_harbor', 'required_estimates', 'quarterly_installment'],
      },
      definition: {
        steps: [
          { id: 'current_test', set: 'current_test', expr: 'current_year_tax * 0.9' },
          { id: 'prior_factor', set: 'prior_factor', expr: '1.0' },
          {
            id: 'high_income',
            if: 'prior_year_agi > (married_filing_separately ? 75000 : 150000)',
            set: 'prior_factor',
            expr: '1.1',
          },
          { id: 'prior_test', set: 'prior_test', expr: 'prior_year_tax * prior_factor' },
          { id: 'safe_harbor', set: 'safe_harbor', expr: 'current_test < prior_test ? current_test : prior_test' },
          { id: 'net', set: 'required_estimates', expr: 'safe_harbor > withholding ? safe_harbor - withholding : 0.0' },
          { id: 'de_minimis', if: 'current_year_tax - withholding < 1000', set: 'required_estimates', expr: '0.0', exception: true },
          { id: 'quarterly', set: 'quarterly_installment', expr: 'required_estimates / 4', exception: true },
        ],
      },
      examples: [
        {
          name: 'prior-year test is cheaper',
          inputs: { current_year_tax: 40000, prior_year_tax: 30000, prior_year_agi: 140000, married_filing_separately: false, withholding: 10000 },
          expected: {
            safe_harbor: 30000,
            required_estimates: 20000,
            quarterly_installment: 5000,
            texts: ['Pay 5000 per quarter (20000 a year) to meet the safe harbor of 30000.'],
          },
        },
        {
          name: 'AGI above 150,000 needs 110% of last year',
          inputs: { current_year_tax: 60000, prior_year_tax: 40000, prior_year_agi: 150001, married_filing_separately: false, withholding: 0 },
          expected: { safe_harbor: 44000, quarterly_installment: 11000 },
        },
        {
          name: 'AGI of exactly 150,000 keeps 100%',
          inputs: { current_year_tax: 60000, prior_year_tax: 40000, prior_year_agi: 150000, married_filing_separately: false, withholding: 0 },
          expected: { safe_harbor: 40000 },
        },
        {
          name: 'balance due under 1,000 needs no estimates',
          inputs: { current_year_tax: 12000, prior_year_tax: 15000, prior_year_agi: 90000, married_filing_separately: false, withholding: 11001 },
          expected: { safe_harbor: 10800, required_estimates: 0, quarterly_installment: 0 },
        },
      ],
    },
    {
      name: 'Form 1099-NEC filing requirement',
      unitType: 'pattern',
      description:
        'A business files Form 1099-NEC for payments of $600 or more in the calendar year to a non-employee for ' +
        'services in the course of its trade or business, generally not to corporations (attorneys\' fees are ' +
        'reported even when paid to a corporation). Payments made by card or a payment network are reported by the ' +
        'processor on Form 1099-K instead. The $600 threshold applies to payments through 2025 (it rises to $2,000 ' +
        'for payments made after 2025). Example of federal policy. Not tax advice.',
      given: 'Payments of {{total_paid}} to {{payee}} during the calendar year',
      when: 'Year-end information returns are prepared',
      then: 'File Form 1099-NEC for {{payee}} reporting {{total_paid}}.',
      inputSchema: {
        type: 'object',
        properties: {
          payee: { type: 'string', title: 'Payee', 'x-aliases': ['contractor', 'vendor', 'freelancer'] },
          total_paid: { type: 'number', title: 'Total paid in the calendar year (USD)', 'x-aliases': ['amount paid', 'payments'] },
          for_services_in_business: { type: 'boolean', title: 'Paid for services in the course of the business', 'x-aliases': ['business services'] },
          payee_is_corporation: { type: 'boolean', title: 'Payee is a C or S corporation', 'x-aliases': ['incorporated', 'corporation'] },
          attorney_fees: { type: 'boolean', title: 'Payments are fees for legal services', 'x-aliases': ['legal fees', 'lawyer'] },
          paid_by_card_or_network: {
            type: 'boolean',
            title: 'Paid by credit card or a third-party payment network',
            'x-aliases': ['credit card', 'PayPal', 'payment app'],
          },
        },
        required: ['payee', 'total_paid', 'for_services_in_business', 'payee_is_corporation', 'attorney_fees', 'paid_by_card_or_network'],
      },
      outputSchema: { type: 'object', properties: { fires: { type: 'boolean', title: '1099-NEC required', 'x-aliases': ['file 1099'] } } },
      definition: {
        elements: [
          { id: 'threshold', kind: 'condition', when: 'total_paid >= 600' },
          { id: 'services', kind: 'condition', when: 'for_services_in_business' },
          { id: 'reportable_payee', kind: 'condition', when: '!payee_is_corporation || attorney_fees' },
          { id: 'not_card', kind: 'condition', when: '!paid_by_card_or_network' },
          {
            id: 'file',
            kind: 'conclusion',
            text: 'Form 1099-NEC is required: furnish it to the payee and file it with the IRS by January 31.',
          },
          { id: 'tin', kind: 'conclusion', text: 'Make sure a Form W-9 with the payee\'s TIN is on file; without one, backup withholding at 24% applies.' },
        ],
      },
      examples: [
        {
          name: 'exactly 600 to an individual contractor',
          inputs: {
            payee: 'Jane Doe Design', total_paid: 600, for_services_in_business: true, payee_is_corporation: false,
            attorney_fees: false, paid_by_card_or_network: false,
          },
          expected: {
            fires: true,
            texts: [
              'Form 1099-NEC is required: furnish it to the payee and file it with the IRS by January 31.',
              'Make sure a Form W-9 with the payee\'s TIN is on file; without one, backup withholding at 24% applies.',
              'File Form 1099-NEC for Jane Doe Design reporting 600.',
            ],
          },
        },
        {
          name: '599.99 is below the threshold',
          inputs: {
            payee: 'Jane Doe Design', total_paid: 599.99, for_services_in_business: true, payee_is_corporation: false,
            attorney_fees: false, paid_by_card_or_network: false,
          },
          expected: { fires: false, texts: [] },
        },
        {
          name: 'law firm corporation is still reported',
          inputs: {
            payee: 'Smith & Lee LLP', total_paid: 12000, for_services_in_business: true, payee_is_corporation: true,
            attorney_fees: true, paid_by_card_or_network: false,
          },
          expected: { fires: true },
        },
        {
          name: 'paid by credit card goes on the processor\'s 1099-K',
          inputs: {
            payee: 'Acme Consulting', total_paid: 5000, for_services_in_business: true, payee_is_corporation: false,
            attorney_fees: false, paid_by_card_or_network: true,
          },
          expected: { fires: false },
        },
      ],
    },
    {
      name: 'Worker classification: employee or independent contractor',
      unitType: 'framework',
      description:
        'Weighs the IRS common-law factors in its three categories (behavioral control, financial control and the ' +
        'relationship of the parties) to gauge whether a worker is an employee. A score of 8 of 16 points toward ' +
        'employee status; no single factor decides. Weights are an example of a firm\'s review policy; state tests ' +
        '(e.g. the ABC test in California) can be stricter. Form SS-8 asks the IRS to decide. Not tax advice.',
      given: 'A worker engaged by the business',
      when: 'Their federal employment-tax status is reviewed',
      then: 'Classification score {{score}} of 16 (employee from {{threshold}}).',
      inputSchema: {
        type: 'object',
        properties: {
          controls_how_work_done: {
            type: 'boolean',
            title: 'Business controls how, when and where the work is done',
            'x-aliases': ['behavioral control', 'instructions', 'supervision'],
          },
          provides_training: { type: 'boolean', title: 'Business trains the worker in its methods', 'x-aliases': ['training'] },
          worker_has_investment: {
            type: 'boolean',
            title: 'Worker has a significant investment in tools or facilities',
            'x-aliases': ['own equipment', 'investment'],
          },
          worker_can_profit_or_lose: {
            type: 'boolean',
            title: 'Worker can realize a profit or loss',
            'x-aliases': ['profit or loss', 'entrepreneurial risk'],
          },
          paid_by_time: { type: 'boolean', title: 'Paid by the hour, week or month rather than by the job', 'x-aliases': ['hourly pay', 'salary'] },
          serves_other_clients: { type: 'boolean', title: 'Offers services to the market and other clients', 'x-aliases': ['other clients', 'open market'] },
          receives_benefits: { type: 'boolean', title: 'Receives employee-type benefits', 'x-aliases': ['benefits', 'insurance', 'paid leave'] },
          indefinite_relationship: { type: 'boolean', title: 'Relationship expected to continue indefinitely', 'x-aliases': ['permanent', 'ongoing'] },
          key_activity: { type: 'boolean', title: 'Services are a key aspect of the regular business', 'x-aliases': ['core business', 'key activity'] },
        },
        required: [
          'controls_how_work_done', 'provides_training', 'worker_has_investment', 'worker_can_profit_or_lose', 'paid_by_time',
          'serves_other_clients', 'receives_benefits', 'indefinite_relationship', 'key_activity',
        ],
      },
      outputSchema: {
        type: 'object',
        properties: {
          score: { type: 'number', title: 'Employee-indicator score' },
          passed: { type: 'boolean', title: 'Likely an employee', 'x-aliases': ['employee', 'misclassified'] },
          outcome: { type: 'string', enum: ['pass', 'fail'] },
        },
      },
      definition: {
        elements: [
          { id: 'behavioral_control', label: 'Behavioral: the business controls how the work is done', weight: 3, when: 'controls_how_work_done' },
          { id: 'training', label: 'Behavioral: the business provides training', weight: 1, when: 'provides_training' },
          { id: 'no_investment', label: 'Financial: no significant investment by the worker', weight: 1, when: '!worker_has_investment' },
          { id: 'no_profit_loss', label: 'Financial: no opportunity for profit or loss', weight: 2, when: '!worker_can_profit_or_lose' },
          { id: 'time_based_pay', label: 'Financial: paid by time rather than by the job', weight: 2, when: 'paid_by_time' },
          { id: 'exclusive', label: 'Financial: does not serve other clients', weight: 1, when: '!serves_other_clients' },
          { id: 'benefits', label: 'Relationship: employee-type benefits', weight: 2, when: 'receives_benefits' },
          { id: 'permanency', label: 'Relationship: expected to continue indefinitely', weight: 2, when: 'indefinite_relationship' },
          { id: 'key_services', label: 'Relationship: services are key to the regular business', weight: 2, when: 'key_activity' },
        ],
        threshold: 8,
        outcomes: {
          pass: 'Likely an employee (score {{score}}): withhold income tax and FICA and issue a Form W-2.',
          fail: 'Likely an independent contractor (score {{score}}): document the factors and issue a Form 1099-NEC when required.',
        },
      },
      examples: [
        {
          name: 'full-time worker under direction',
          inputs: {
            controls_how_work_done: true, provides_training: true, worker_has_investment: false, worker_can_profit_or_lose: false,
            paid_by_time: true, serves_other_clients: false, receives_benefits: true, indefinite_relationship: true, key_activity: true,
          },
          expected: { score: 16, passed: true, outcome: 'pass' },
        },
        {
          name: 'one point below the threshold',
          inputs: {
            controls_how_work_done: true, provides_training: false, worker_has_investment: true, worker_can_profit_or_lose: true,
            paid_by_time: true, serves_other_clients: true, receives_benefits: false, indefinite_relationship: true, key_activity: false,
          },
          expected: { score: 7, passed: false },
        },
        {
          name: 'exactly at the threshold: training tips it',
          inputs: {
            controls_how_work_done: true, provides_training: true, worker_has_investment: true, worker_can_profit_or_lose: true,
            paid_by_time: true, serves_other_clients: true, receives_benefits: false, indefinite_relationship: true, key_activity: false,
          },
          expected: {
            score: 8,
            passed: true,
            texts: [
              'Likely an employee (score 8): withhold income tax and FICA and issue a Form W-2.',
              'Classification score 8 of 16 (employee from 8).',
            ],
          },
        },
        {
          name: 'independent consultant',
          inputs: {
            controls_how_work_done: false, provides_training: false, worker_has_investment: true, worker_can_profit_or_lose: true,
            paid_by_time: false, serves_other_clients: true, receives_benefits: false, indefinite_relationship: false, key_activity: true,
          },
          expected: { score: 2, outcome: 'fail' },
        },
      ],
    },
    {
      name: 'Home office deduction',
      unitType: 'argument',
      description:
        'Whether a taxpayer may deduct business use of the home (IRC 280A): a part of the home used regularly and ' +
        'exclusively for the business, as the principal place of business or to meet clients. Since 2018 employees ' +
        'cannot deduct it (unreimbursed employee expenses are not deductible), so it needs self-employment income. The ' +
        'simplified method allows $5 per square foot up to 300 square feet. Example of federal policy. Not tax advice.',
      given: 'A taxpayer using {{office_sq_ft}} square feet of the home for work',
      when: 'The home office deduction is claimed',
      then: 'Under the simplified method, deduct $5 per square foot for up to 300 square feet, limited to the business\'s gross income.',
      inputSchema: {
        type: 'object',
        properties: {
          office_sq_ft: { type: 'number', title: 'Office area (square feet)', 'x-aliases': ['square footage', 'office size'] },
          regular_use: { type: 'boolean', title: 'Used regularly for the business', 'x-aliases': ['regular use'] },
          exclusive_use: { type: 'boolean', title: 'Used exclusively for the business', 'x-aliases': ['exclusive use', 'dedicated space'] },
          principal_place_or_clients: {
            type: 'boolean',
            title: 'Principal place of business, or used to meet clients',
            'x-aliases': ['principal place of business', 'meet clients'],
          },
          self_employed: { type: 'boolean', title: 'Has self-employment (Schedule C or F) income', 'x-aliases': ['self-employed', 'sole proprietor', 'freelancer'] },
        },
        required: ['office_sq_ft', 'regular_use', 'exclusive_use', 'principal_place_or_clients', 'self_employed'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          stands: { type: 'boolean', title: 'Deduction allowed', 'x-aliases': ['deductible'] },
          defeatedBy: { type: 'string', title: 'Reason it is not allowed' },
        },
      },
      definition: {
        elements: [
          { id: 'regular', kind: 'premise', text: 'The space is used regularly for the business.', when: 'regular_use' },
          { id: 'exclusive', kind: 'premise', text: 'The space is used exclusively for the business.', when: 'exclusive_use' },
          { id: 'principal', kind: 'premise', text: 'It is the principal place of business or a place to meet clients.', when: 'principal_place_or_clients' },
          {
            id: 'employee_only',
            kind: 'rebuttal',
            text: 'Without self-employment income the expense is an unreimbursed employee expense, which is not deductible (since 2018).',
            when: '!self_employed',
          },
          { id: 'deductible', kind: 'conclusion', text: 'The {{office_sq_ft}} square-foot home office is deductible business use of the home.' },
        ],
      },
      examples: [
        {
          name: 'freelancer with a dedicated office',
          inputs: { office_sq_ft: 200, regular_use: true, exclusive_use: true, principal_place_or_clients: true, self_employed: true },
          expected: {
            stands: true,
            texts: [
              'The 200 square-foot home office is deductible business use of the home.',
              'Under the simplified method, deduct $5 per square foot for up to 300 square feet, limited to the business\'s gross income.',
            ],
          },
        },
        {
          name: 'W-2 employee working from home',
          inputs: { office_sq_ft: 150, regular_use: true, exclusive_use: true, principal_place_or_clients: true, self_employed: false },
          expected: { stands: false, defeatedBy: 'employee_only' },
        },
        {
          name: 'dining table is not exclusive use',
          inputs: { office_sq_ft: 80, regular_use: true, exclusive_use: false, principal_place_or_clients: true, self_employed: true },
          expected: { stands: false, defeatedBy: null, texts: [] },
        },
      ],
    },
    {
      name: 'Responding to an IRS CP2000 notice',
      unitType: 'protocol',
      description:
        'Steps for a CP2000 (proposed changes from mismatched information returns): check the deadline, decide ' +
        'whether you agree, respond with payment or documentation, and arrange a payment plan when needed. If no ' +
        'response arrives the IRS may issue a statutory notice of deficiency, after which there are 90 days to ' +
        'petition the Tax Court. Example procedure. Not tax advice.',
      given: 'A CP2000 notice proposing {{proposed_amount}} of additional tax for {{tax_year}}',
      when: 'The taxpayer prepares a response',
      then: 'Keep copies of the notice and the response for the {{tax_year}} file.',
      inputSchema: {
        type: 'object',
        properties: {
          tax_year: { type: 'integer', title: 'Tax year', 'x-aliases': ['year'] },
          proposed_amount: { type: 'number', title: 'Proposed additional tax, penalty and interest (USD)', 'x-aliases': ['amount due', 'balance'] },
          lives_abroad: { type: 'boolean', title: 'Taxpayer lives outside the US', 'x-aliases': ['overseas', 'abroad'] },
        },
        required: ['tax_year', 'proposed_amount', 'lives_abroad'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          position: { type: 'string', title: 'Response', enum: ['agree', 'partially agree', 'disagree'] },
          can_pay_in_full: { type: 'string', title: 'Can pay in full', enum: ['yes', 'no'] },
        },
      },
      definition: {
        steps: [
          { id: 'deadline', if: '!lives_abroad', text: 'Respond by the date on the notice, normally 30 days from its date.' },
          { id: 'deadline_abroad', if: 'lives_abroad', text: 'Respond by the date on the notice, normally 60 days from its date for taxpayers abroad.' },
          {
            id: 'compare',
            text: 'Compare each item on the notice with your records and the {{tax_year}} return; the mismatch is often income reported by a payer (W-2, 1099).',
          },
          {
            id: 'position_gate',
            gate: { name: 'position', question: 'Do you agree with the proposed changes for {{tax_year}}?', options: ['agree', 'partially agree', 'disagree'] },
          },
          {
            id: 'explain',
            if: 'position != "agree"',
            text: 'Mark the response form, and send a signed explanation with supporting documents for each item you dispute; do not file an amended return for it.',
          },
          {
            id: 'pay_gate',
            if: 'position != "disagree"',
            gate: { name: 'can_pay_in_full', question: 'Can you pay the agreed amount in full now?', options: ['yes', 'no'] },
          },
          { id: 'pay', if: 'can_pay_in_full == "yes"', text: 'Sign the response and pay the agreed amount to stop further interest.' },
          {
            id: 'installments',
            if: 'can_pay_in_full == "no"',
            text: 'Sign the response and request an installment agreement (online payment plan or Form 9465).',
          },
        ],
      },
      examples: [
        {
          name: 'pauses on whether the taxpayer agrees',
          inputs: { tax_year: 2023, proposed_amount: 1840, lives_abroad: false },
          expected: {
            status: 'paused',
            texts: [
              'Respond by the date on the notice, normally 30 days from its date.',
              'Compare each item on the notice with your records and the 2023 return; the mismatch is often income reported by a payer (W-2, 1099).',
            ],
          },
        },
        {
          name: 'agree but cannot pay in full',
          inputs: { tax_year: 2023, proposed_amount: 6400, lives_abroad: true, position: 'agree', can_pay_in_full: 'no' },
          expected: {
            status: 'completed',
            position: 'agree',
            can_pay_in_full: 'no',
            texts: [
              'Respond by the date on the notice, normally 60 days from its date for taxpayers abroad.',
              'Compare each item on the notice with your records and the 2023 return; the mismatch is often income reported by a payer (W-2, 1099).',
              'Sign the response and request an installment agreement (online payment plan or Form 9465).',
              'Keep copies of the notice and the response for the 2023 file.',
            ],
          },
        },
        {
          name: 'disagree entirely',
          inputs: { tax_year: 2022, proposed_amount: 950, lives_abroad: false, position: 'disagree' },
          expected: {
            status: 'completed',
            texts: [
              'Respond by the date on the notice, normally 30 days from its date.',
              'Compare each item on the notice with your records and the 2022 return; the mismatch is often income reported by a payer (W-2, 1099).',
              'Mark the response form, and send a signed explanation with supporting documents for each item you dispute; do not file an amended return for it.',
              'Keep copies of the notice and the response for the 2022 file.',
            ],
          },
        },
      ],
    },
  ],
};
