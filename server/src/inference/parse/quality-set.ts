/**
 * A quality set for the local parser: questions as a user would type them, each aimed at one
 * domain-template unit (`<template id>/<unit name>`), with every input the question states and the
 * value it states (in the unit of the template's input: a "2-year" term for a `months` input is 24).
 * `jurisdiction` is the region code the question names, when it names one.
 *
 * quality.test.ts binds each question against its unit's inputSchema and reports the share bound
 * exactly right. The questions were written before the parser and are not phrased around it; a
 * question that needs knowledge the schemas do not carry (synonyms a template lacks, an unquoted
 * free-text value) stays in the set and counts as a miss.
 */

/** One question of the quality set. */
export interface QualityQuestion {
  question: string;
  /** `<template id>/<unit name>` of a unit in DOMAIN_TEMPLATES. */
  unit: string;
  /** Every input the question states, by the template unit's input names. */
  expected: Record<string, unknown>;
  /** The region code the question names (e.g. 'US-CA'); absent when it names none. */
  jurisdiction?: string;
}

const LTV = 'finance/Mortgage loan-to-value and mortgage insurance';
const SCORECARD = 'finance/Commercial credit-risk scorecard';
const DTI = 'finance/Debt-to-income ratio for mortgage qualification';
const CTR = 'finance/Currency transaction report (CTR) requirement';
const QM = 'finance/General qualified mortgage (QM) status';
const WIRE = 'finance/Outgoing wire transfer release controls';
const GDPR = 'legal/GDPR lawful basis for processing';
const FRAUDS = 'legal/Statute of frauds: writing requirement';
const NON_COMPETE = 'legal/Non-compete enforceability screen';
const LIMITATION = 'legal/Breach of contract limitation period (California)';
const DE_NOTICE = 'legal/Statutory notice period for employer dismissal (Germany)';
const LIT_HOLD = 'legal/Litigation hold';
const QSOFA = 'healthcare/qSOFA sepsis screen';
const CRCL = 'healthcare/Creatinine clearance and renal dose adjustment (Cockcroft-Gault)';
const METFORMIN = 'healthcare/Metformin contraindication in reduced kidney function';
const CONSENT = 'healthcare/Valid informed consent to a procedure';
const HIPAA_MIN = 'healthcare/HIPAA minimum-necessary disclosure review';
const HIPAA_BREACH = 'healthcare/HIPAA breach notification deadlines';
const VACATION = 'hr/Vacation accrual by years of service';
const FLSA = 'hr/FLSA overtime eligibility (white-collar exemption test)';
const TERMINATION = 'hr/Employee termination with separation-agreement consent';
const FMLA = 'hr/FMLA leave eligibility';
const PROMOTION = 'hr/Promotion readiness assessment';
const CA_FINAL_PAY = 'hr/California final paycheck deadline';
const TRIAGE = 'insurance/Claim triage: special investigations referral';
const COINSURANCE = 'insurance/Property claim payout with coinsurance';
const TOTAL_LOSS = 'insurance/Auto total-loss determination';
const HOMEOWNERS = 'insurance/Homeowners coverage for a reported loss';
const FNOL = 'insurance/First notice of loss handling';
const STD_DEDUCTION = 'tax/Standard deduction or itemize (tax year 2024)';
const SAFE_HARBOR = 'tax/Estimated tax safe harbor';
const NEC = 'tax/Form 1099-NEC filing requirement';
const CLASSIFICATION = 'tax/Worker classification: employee or independent contractor';
const HOME_OFFICE = 'tax/Home office deduction';
const CP2000 = 'tax/Responding to an IRS CP2000 notice';

export const QUALITY_SET: readonly QualityQuestion[] = [
  // ---- finance ----
  {
    question: 'Does a conventional loan of $400,000 on a home appraised at $500,000 need PMI?',
    unit: LTV,
    expected: { loan_amount: 400000, property_value: 500000, loan_program: 'conventional' },
  },
  {
    question: "We're looking at an FHA mortgage: the loan is 289,500 dollars and the purchase price is $300k. What's the LTV?",
    unit: LTV,
    expected: { loan_amount: 289500, property_value: 300000, loan_program: 'fha' },
  },
  {
    question: 'What is the loan-to-value for a $350K VA loan on a house worth $350K in Texas, and is mortgage insurance required?',
    unit: LTV,
    expected: { loan_amount: 350000, property_value: 350000, loan_program: 'va' },
    jurisdiction: 'US-TX',
  },
  {
    question:
      'Credit score for a borrower with a debt service coverage ratio of 1.24, leverage of 3.0x, worst days past due of 30, ' +
      'collateral coverage of 1.1, five years in business and a high-risk industry?',
    unit: SCORECARD,
    expected: {
      dscr: 1.24, debt_to_ebitda: 3.0, max_days_past_due: 30, collateral_coverage: 1.1, years_in_business: 5, sector_risk: 'high',
    },
  },
  {
    question:
      'The obligor has been 90 days past due. DSCR is 2.0, debt/EBITDA 1.0, collateral coverage 2.0, an operating history of ' +
      'twenty years and medium industry risk. Does it pass the scorecard?',
    unit: SCORECARD,
    expected: {
      max_days_past_due: 90, dscr: 2.0, debt_to_ebitda: 1.0, collateral_coverage: 2.0, years_in_business: 20, sector_risk: 'medium',
    },
  },
  {
    question:
      "My gross monthly income is $10,000, my mortgage payment would be $2,500 and I pay $500 a month on other debts. What's my DTI?",
    unit: DTI,
    expected: { gross_monthly_income: 10000, housing_payment: 2500, other_monthly_debt: 500 },
  },
  {
    question: 'Borrower earns 8k a month gross income, proposed housing payment $2,800, other debts of $700 monthly. Does the DTI qualify?',
    unit: DTI,
    expected: { gross_monthly_income: 8000, housing_payment: 2800, other_monthly_debt: 700 },
  },
  {
    question: 'A customer deposited $12,500 in cash today. Do we need to file a CTR? The customer is not an exempt person.',
    unit: CTR,
    expected: { daily_cash_total: 12500, exempt_person: false },
  },
  {
    question: 'Cash withdrawals totaling $9,800 by one exempt customer in a business day: is a CTR required?',
    unit: CTR,
    expected: { daily_cash_total: 9800, exempt_person: true },
  },
  {
    question:
      'Is a 30-year loan with no balloon or interest-only features, points and fees of 2.5% and an APR spread of 1.2 points ' +
      'over APOR a qualified mortgage if income was verified?',
    unit: QM,
    expected: { term_years: 30, risky_features: false, points_and_fees_pct: 2.5, apr_spread_over_apor: 1.2, income_verified: true },
  },
  {
    question: '40-year term, fees at 1%, rate spread of 0.5 percentage points, income not verified. Is it a QM?',
    unit: QM,
    expected: { term_years: 40, points_and_fees_pct: 1, apr_spread_over_apor: 0.5, income_verified: false },
  },
  {
    question: 'What release controls apply to an international wire of $250,000 to beneficiary "Initech"?',
    unit: WIRE,
    expected: { amount: 250000, international: true, beneficiary: 'Initech' },
  },
  {
    question: 'Outgoing wire for $5,000 to a foreign bank: what checks do we run before release?',
    unit: WIRE,
    expected: { amount: 5000, international: true },
  },

  // ---- legal ----
  {
    question:
      'We process personal data of users in the EU on the basis of legitimate interests. The balancing test passed, the purpose ' +
      'is specified, the data is minimised and there is no special category data. Is it lawful?',
    unit: GDPR,
    expected: {
      lawful_basis: 'legitimate_interests', balancing_test_passed: true, purpose_specified: true, data_minimised: true, special_category: false,
    },
    jurisdiction: 'EU',
  },
  {
    question: 'Can we process health data based on consent when we have explicit consent under Article 9 but the consent is bundled with the service?',
    unit: GDPR,
    expected: { lawful_basis: 'consent', special_category: true, article9_condition: true, consent_bundled: true },
  },
  {
    question: "Is an oral contract to sell land for $200,000 enforceable? There's no signed writing.",
    unit: FRAUDS,
    expected: { contract_type: 'land', price: 200000, signed_writing: false },
  },
  {
    question: 'A sale of goods worth $750 with nothing in writing: does the statute of frauds make it unenforceable?',
    unit: FRAUDS,
    expected: { contract_type: 'sale_of_goods', price: 750, signed_writing: false },
  },
  {
    question: 'A suretyship promise to pay $5,000, signed in writing by the guarantor. Is it enforceable?',
    unit: FRAUDS,
    expected: { contract_type: 'suretyship', price: 5000, signed_writing: true },
  },
  {
    question:
      'Is a 12-month non-compete enforceable for an engineer in Texas earning $150,000 a year? It is limited to her territory, ' +
      'protects trade secrets and she got a signing bonus as consideration.',
    unit: NON_COMPETE,
    expected: {
      duration_months: 12, annual_earnings: 150000, employee_state: 'TX', geography_limited: true, protectable_interest: true,
      consideration_given: true,
    },
    jurisdiction: 'US-TX',
  },
  {
    question: 'Would a two-year non-compete with no geographic limit hold up for a California employee paid $80k?',
    unit: NON_COMPETE,
    expected: { duration_months: 24, geography_limited: false, annual_earnings: 80000, employee_state: 'CA' },
    jurisdiction: 'US-CA',
  },
  {
    question: 'Is a claim for breach of a written contract from 3 years ago time-barred in California if there was no tolling?',
    unit: LIMITATION,
    expected: { contract_form: 'written', years_since_breach: 3, tolling_years: 0 },
    jurisdiction: 'US-CA',
  },
  {
    question: "Our client's oral agreement was breached 18 months ago and the claim was tolled for six months. Can we still sue in CA?",
    unit: LIMITATION,
    expected: { contract_form: 'oral', years_since_breach: 1.5, tolling_years: 0.5 },
    jurisdiction: 'US-CA',
  },
  {
    question: 'What notice must an employer give in Germany to an employee with 12 years of service who is not in probation?',
    unit: DE_NOTICE,
    expected: { years_of_service: 12, in_probation: false },
    jurisdiction: 'DE',
  },
  {
    question:
      'An employee in Germany has been with the company for eighteen months and is no longer on probation. What is the statutory notice period?',
    unit: DE_NOTICE,
    expected: { years_of_service: 1.5, in_probation: false },
    jurisdiction: 'DE',
  },
  {
    question: 'Litigation hold for matter "Acme v. Globex" with fourteen custodians: what do we do first?',
    unit: LIT_HOLD,
    expected: { matter: 'Acme v. Globex', custodian_count: 14 },
  },

  // ---- healthcare ----
  {
    question: 'Patient with suspected infection: respiratory rate 24, GCS 14, systolic BP 95. What is the qSOFA?',
    unit: QSOFA,
    expected: { respiratory_rate: 24, gcs: 14, systolic_bp: 95 },
  },
  {
    question: 'RR of twenty-two breaths per minute, GCS 15 and a systolic blood pressure of 100 mmHg. Is the sepsis screen positive?',
    unit: QSOFA,
    expected: { respiratory_rate: 22, gcs: 15, systolic_bp: 100 },
  },
  {
    question: 'Creatinine clearance for a 60-year-old man weighing 72 kg with a serum creatinine of 1.0 mg/dL?',
    unit: CRCL,
    expected: { age: 60, weight_kg: 72, serum_creatinine: 1.0, sex: 'male' },
  },
  {
    question: '80 year old female, weight 60 kg, SCr 2.0: how should I adjust the dose?',
    unit: CRCL,
    expected: { age: 80, weight_kg: 60, serum_creatinine: 2.0, sex: 'female' },
  },
  {
    question: 'Can I start metformin in a patient whose eGFR is 28?',
    unit: METFORMIN,
    expected: { medication: 'metformin', egfr: 28 },
  },
  {
    question: 'New order for medication "metformin 500 mg" and the latest GFR is 25. Any alert?',
    unit: METFORMIN,
    expected: { medication: 'metformin 500 mg', egfr: 25 },
  },
  {
    question:
      'The patient is 45, has capacity, the risks were explained, she agreed voluntarily and has not withdrawn consent. Can we proceed with surgery?',
    unit: CONSENT,
    expected: { patient_age: 45, has_capacity: true, risks_disclosed: true, voluntary: true, consent_withdrawn: false },
  },
  {
    question: 'A 17-year-old needs surgery but her parents did not consent. She has capacity, the risks were disclosed and she agrees voluntarily.',
    unit: CONSENT,
    expected: { patient_age: 17, guardian_consent: false, has_capacity: true, risks_disclosed: true, voluntary: true },
  },
  {
    question: 'We received a request for PHI for law enforcement purposes. What is the minimum-necessary process?',
    unit: HIPAA_MIN,
    expected: { purpose: 'law_enforcement' },
  },
  {
    question: 'Disclosure request from requester "Blue Shield of California" for payment. How do we handle it?',
    unit: HIPAA_MIN,
    expected: { requester: 'Blue Shield of California', purpose: 'payment' },
  },
  {
    question:
      'A breach of unsecured PHI affected 1,200 patients, with 600 residents of one state, and the risk assessment did not show a ' +
      'low probability of compromise. Whom do we notify?',
    unit: HIPAA_BREACH,
    expected: { affected_individuals: 1200, max_residents_in_one_state: 600, low_probability_of_compromise: false },
  },
  {
    question:
      'A lost laptop held records of 300 patients affected, at most 120 residents in any single state, and our risk assessment shows a low probability of compromise.',
    unit: HIPAA_BREACH,
    expected: { affected_individuals: 300, max_residents_in_one_state: 120, low_probability_of_compromise: true },
  },

  // ---- hr ----
  {
    question: 'How much vacation does a regular employee with 12 years of service get at 0.8 FTE?',
    unit: VACATION,
    expected: { years_of_service: 12, employment_type: 'regular', fte: 0.8 },
  },
  {
    question: 'A temporary worker with eighteen months of service working half-time: how many vacation days?',
    unit: VACATION,
    expected: { years_of_service: 1.5, employment_type: 'temporary', fte: 0.5 },
  },
  {
    question: 'She is not a temporary worker, has 6 years of service and works 100% of full time. What is her annual vacation?',
    unit: VACATION,
    expected: { employment_type: 'regular', years_of_service: 6, fte: 1 },
  },
  {
    question: 'For our office in the UK: a regular employee with ten years of service at 0.6 FTE, how many vacation days accrue?',
    unit: VACATION,
    expected: { employment_type: 'regular', years_of_service: 10, fte: 0.6 },
    jurisdiction: 'GB',
  },
  {
    question: 'Is a salaried manager paid $900 a week who worked 50 hours this week and meets the executive duties test owed overtime?',
    unit: FLSA,
    expected: { weekly_salary: 900, hours_worked: 50, salary_basis: true, duties_test_met: true },
  },
  {
    question: "An hourly worker earning $600 per week worked 45 hours; she is not paid on a salary basis and doesn't meet the duties test. Overtime?",
    unit: FLSA,
    expected: { weekly_salary: 600, hours_worked: 45, salary_basis: false, duties_test_met: false },
  },
  {
    question: 'We need to let our employee "Bo Chen" go. He is 52 years old and no longer on probation. What are the steps?',
    unit: TERMINATION,
    expected: { employee_name: 'Bo Chen', age: 52, in_probation: false },
  },
  {
    question: 'Termination steps for an employee aged thirty-nine who is still in the probationary period?',
    unit: TERMINATION,
    expected: { age: 39, in_probation: true },
  },
  {
    question:
      'Is she eligible for FMLA? She has worked here 14 months, put in 1,400 hours in the last 12 months, the employer has 80 ' +
      'employees within 75 miles, she needs leave for a serious health condition and she has used 3 weeks of FMLA leave already.',
    unit: FMLA,
    expected: {
      months_of_service: 14, hours_last_12_months: 1400, employees_within_75_miles: 80, qualifying_reason: true, fmla_weeks_used: 3,
    },
  },
  {
    question: 'Employee with two years of service, 1,249 hours worked, 120 employees within 75 miles, a qualifying event and no leave used. FMLA eligible?',
    unit: FMLA,
    expected: {
      months_of_service: 24, hours_last_12_months: 1249, employees_within_75_miles: 120, qualifying_reason: true, fmla_weeks_used: 0,
    },
  },
  {
    question:
      'Is she ready for promotion? Performance rating 4, 18 months in role, her manager endorses her, development plan not completed, no active written warning.',
    unit: PROMOTION,
    expected: {
      performance_rating: 4, months_in_role: 18, manager_endorsement: true, development_plan_completed: false, active_written_warning: false,
    },
  },
  {
    question: 'Candidate rated 3 out of 5 with two and a half years in the role, without manager support but with leadership training done.',
    unit: PROMOTION,
    expected: { performance_rating: 3, months_in_role: 30, manager_endorsement: false, development_plan_completed: true },
  },
  {
    question: "An employee in California resigned and gave 48 hours' notice. When are her final wages due?",
    unit: CA_FINAL_PAY,
    expected: { separation_type: 'resignation', notice_hours: 48 },
    jurisdiction: 'US-CA',
  },
  {
    question: 'When is the final paycheck due in CA after a layoff?',
    unit: CA_FINAL_PAY,
    expected: { separation_type: 'layoff' },
    jurisdiction: 'US-CA',
  },
  {
    question: "Our California employee gave three days' notice before her resignation. When must we pay her?",
    unit: CA_FINAL_PAY,
    expected: { notice_hours: 72, separation_type: 'resignation' },
    jurisdiction: 'US-CA',
  },

  // ---- insurance ----
  {
    question:
      'New theft claim for $30,000 on a policy incepted 20 days before the loss, one prior claim in the last 3 years, reported 3 ' +
      'days after the loss, no police report and consistent statements. Refer to SIU?',
    unit: TRIAGE,
    expected: {
      claim_amount: 30000, policy_age_days: 20, prior_claims_3y: 1, days_to_report: 3, loss_type: 'theft', police_report: false,
      inconsistent_statements: false,
    },
  },
  {
    question:
      'Water damage claim of $4,200; the policy age is 900 days, no prior claims, a reporting delay of 2 days, police report filed and no discrepancies.',
    unit: TRIAGE,
    expected: {
      claim_amount: 4200, loss_type: 'water', policy_age_days: 900, prior_claims_3y: 0, days_to_report: 2, police_report: true,
      inconsistent_statements: false,
    },
  },
  {
    question:
      'Covered loss of $100,000, a $1,000 deductible, a $300,000 limit, replacement cost of $500,000 and an 80% coinsurance clause: what do we pay?',
    unit: COINSURANCE,
    expected: { loss_amount: 100000, deductible: 1000, policy_limit: 300000, replacement_cost: 500000, coinsurance_pct: 0.8 },
  },
  {
    question: 'Replacement value $500k, coverage limit 450,000 with 90% coinsurance, a total loss of $500,000 and a deductible of $2,500. Payout?',
    unit: COINSURANCE,
    expected: { replacement_cost: 500000, policy_limit: 450000, coinsurance_pct: 0.9, loss_amount: 500000, deductible: 2500 },
  },
  {
    question: 'Repair estimate of $7,500 on a car with an actual cash value of $10,000, in a state with a 75% total loss threshold. Total loss?',
    unit: TOTAL_LOSS,
    expected: { repair_estimate: 7500, actual_cash_value: 10000, total_loss_threshold: 0.75 },
  },
  {
    question: "Is the vehicle totaled if the repair cost is $9,000, its market value is $12,000 and the TLT is 70 percent? We're in Texas.",
    unit: TOTAL_LOSS,
    expected: { repair_estimate: 9000, actual_cash_value: 12000, total_loss_threshold: 0.7 },
    jurisdiction: 'US-TX',
  },
  {
    question: 'Is a fire loss covered if the policy was in force, notice came after 5 days and there was no intentional act or misrepresentation?',
    unit: HOMEOWNERS,
    expected: { cause_of_loss: 'fire', policy_in_force: true, days_to_notice: 5, intentional_act: false, material_misrepresentation: false },
  },
  {
    question: 'Our basement flooded during a storm. The policy is active and we reported it two days later. Are we covered?',
    unit: HOMEOWNERS,
    expected: { cause_of_loss: 'flood', policy_in_force: true, days_to_notice: 2 },
  },
  {
    question: 'First notice of loss on policy number "HO-4471023" dated March 3, 2026, estimated loss $80,000. Next steps?',
    unit: FNOL,
    expected: { policy_number: 'HO-4471023', estimated_loss: 80000 },
  },
  {
    question: 'A claim came in on 2026-01-15 with an estimated loss of about 15 thousand dollars. How do we handle it?',
    unit: FNOL,
    expected: { estimated_loss: 15000 },
  },

  // ---- tax ----
  {
    question:
      'Should a married couple filing jointly itemize with $10,000 of state and local taxes, $18,000 of mortgage interest and $4,000 in charitable donations?',
    unit: STD_DEDUCTION,
    expected: { filing_status: 'married_joint', salt_paid: 10000, mortgage_interest: 18000, charitable_gifts: 4000 },
  },
  {
    question: 'Single filer with $6,000 SALT, no mortgage interest, $2,000 of donations and $3,000 of medical expenses. Standard deduction or itemize?',
    unit: STD_DEDUCTION,
    expected: { filing_status: 'single', salt_paid: 6000, mortgage_interest: 0, charitable_gifts: 2000, other_itemized: 3000 },
  },
  {
    question: 'Head of household with $12,000 in property tax, $9,000 in mortgage interest and $500 to charity: itemize or not?',
    unit: STD_DEDUCTION,
    expected: { filing_status: 'head_of_household', salt_paid: 12000, mortgage_interest: 9000, charitable_gifts: 500 },
  },
  {
    question:
      "This year I expect $40,000 of total tax. Last year's tax was $30,000 with an AGI of $180,000 and my withholding will be $12,000. " +
      'How much estimated tax must I pay to avoid a penalty?',
    unit: SAFE_HARBOR,
    expected: { current_year_tax: 40000, prior_year_tax: 30000, prior_year_agi: 180000, withholding: 12000 },
  },
  {
    question: 'Married filing separately, last year AGI $90k, prior tax $15,000, projected tax of $20,000 this year and no tax withheld. Safe harbor amount?',
    unit: SAFE_HARBOR,
    expected: { married_filing_separately: true, prior_year_agi: 90000, prior_year_tax: 15000, current_year_tax: 20000, withholding: 0 },
  },
  {
    question:
      "Do we need to file a 1099-NEC for a freelancer we paid $1,200 for business services? They aren't incorporated and we paid by bank transfer.",
    unit: NEC,
    expected: { total_paid: 1200, for_services_in_business: true, payee_is_corporation: false },
  },
  {
    question: 'Our vendor "Smith Legal LLP" was paid $650 in legal fees by check, and it is a corporation. Is a 1099-NEC required?',
    unit: NEC,
    expected: { payee: 'Smith Legal LLP', total_paid: 650, attorney_fees: true, payee_is_corporation: true },
  },
  {
    question:
      "We control how the work is done, provide training, pay by the hour and she gets benefits; she has no investment of her own, can't make " +
      "a profit or loss and doesn't serve other clients. The relationship is ongoing and her work is our core business. Employee or contractor?",
    unit: CLASSIFICATION,
    expected: {
      controls_how_work_done: true, provides_training: true, paid_by_time: true, receives_benefits: true, worker_has_investment: false,
      worker_can_profit_or_lose: false, serves_other_clients: false, indefinite_relationship: true, key_activity: true,
    },
  },
  {
    question:
      "Independent consultant: we don't control how the work is done, there's no training from us, she uses her own equipment, is paid by the job, " +
      'serves other clients and gets no benefits. How should we classify her?',
    unit: CLASSIFICATION,
    expected: {
      controls_how_work_done: false, provides_training: false, worker_has_investment: true, paid_by_time: false, serves_other_clients: true,
      receives_benefits: false,
    },
  },
  {
    question:
      "I'm a self-employed designer using a 200 sq ft room regularly and exclusively for business; it's my principal place of business. Can I deduct it?",
    unit: HOME_OFFICE,
    expected: { office_sq_ft: 200, regular_use: true, exclusive_use: true, principal_place_or_clients: true, self_employed: true },
  },
  {
    question:
      "I'm a W-2 employee, not self-employed, with a 150-square-foot home office used regularly and exclusively for work as my principal place of business.",
    unit: HOME_OFFICE,
    expected: { self_employed: false, office_sq_ft: 150, regular_use: true, exclusive_use: true, principal_place_or_clients: true },
  },
  {
    question: 'I got a CP2000 for tax year 2023 proposing $1,840 more, and I live abroad. What do I do?',
    unit: CP2000,
    expected: { tax_year: 2023, proposed_amount: 1840, lives_abroad: true },
  },
  {
    question: "The IRS sent a CP2000 notice dated 3 March 2026 for the 2022 tax year with an amount due of $950. I don't live overseas. How do I respond?",
    unit: CP2000,
    expected: { tax_year: 2022, proposed_amount: 950, lives_abroad: false },
  },
];
