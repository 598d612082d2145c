import {
  composeWorkflow, createDomain, createUnit, createUnitEdge, createWorkflow, createWorkflowVersion, deleteUnit, getWorkflow, listAuditEntries, listWorkflows, runInference, updateWorkflowStatus, verifyUnit, type LemmaClient, type UnitCreate,
} from '@lemma/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './expect-error.js';
import { dialect, startTestServer, type Tenant, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

type Vars = Record<string, 'number' | 'string' | 'integer'>;
const schema = (vars: Vars) => ({
  type: 'object' as const,
  properties: Object.fromEntries(Object.entries(vars).map(([k, type]) => [k, { type, title: k.replace(/_/g, ' ') }])),
  required: Object.keys(vars),
});

/** A program unit computing `outputs` (name -> CEL) from `inputs`. */
const calc = (domainId: string, name: string, inputs: Vars, outputs: Record<string, string>, then: string, description: string): UnitCreate => ({
  name,
  unitType: 'program',
  domainId,
  description,
  then,
  inputSchema: schema(inputs),
  outputSchema: schema(Object.fromEntries(Object.keys(outputs).map((k) => [k, 'number']))),
  definition: { steps: Object.entries(outputs).map(([set, expr], i) => ({ id: `s${i}`, set, expr })) },
});

interface Payroll extends Tenant {
  domainId: string;
  author: LemmaClient;
  viewer: LemmaClient;
  u: Record<'gross' | 'tax' | 'net' | 'commute' | 'clash' | 'approval', string>;
}

async function payroll(): Promise<Payroll> {
  const t = await server.newTenant('wf');
  const clients: Record<string, LemmaClient> = {};
  for (const role of ['author', 'reviewer', 'viewer'] as const) {
    clients[role] = (await t.addMember(role, role)).client;
  }
  const { data: domain } = await createDomain({ client: t.admin, body: { name: 'Payroll' } });
  const d = domain.id;
  const bodies: Record<keyof Payroll['u'], UnitCreate> = {
    gross: calc(d, 'Gross pay', { hours_worked: 'number', hourly_rate: 'number' }, { gross: 'hours_worked * hourly_rate' }, 'Gross pay is {{gross}}.', 'Gross pay from hours worked and the hourly rate.'),
    tax: calc(d, 'Tax withholding', { gross: 'number' }, { tax: 'gross * 0.2' }, 'Withhold {{tax}} in tax.', 'Tax withheld from gross pay.'),
    net: calc(d, 'Net pay', { gross: 'number', tax: 'number' }, { net: 'gross - tax' }, 'Net pay is {{net}}.', 'Net pay after tax withholding.'),
    commute: calc(d, 'Commute allowance', { distance_km: 'number' }, { allowance: 'distance_km * 0.3' }, 'The commute allowance is {{allowance}}.', 'Allowance for the commute distance.'),
    clash: { name: 'Gross pay label', unitType: 'pattern', domainId: d, description: 'Formats gross pay as a label.', then: 'Label: {{gross}}.', inputSchema: schema({ gross: 'string' }) },
    approval: {
      name: 'Payout approval',
      unitType: 'protocol',
      domainId: d,
      description: 'A manager approves the payout of net pay.',
      inputSchema: schema({ net: 'number' }),
      definition: {
        steps: [
          { id: 'check', text: 'Check the payout of {{net}}.' },
          { id: 'ask', gate: { name: 'approved', question: 'Does the manager approve the payout of {{net}}?', options: ['yes', 'no'] } },
          { id: 'pay', if: 'approved == "yes"', text: 'Release the payout of {{net}}.' },
          { id: 'hold', if: 'approved == "no"', text: 'Hold the payout.' },
        ],
      },
    },
  };
  const u = {} as Payroll['u'];
  for (const [key, body] of Object.entries(bodies) as [keyof Payroll['u'], UnitCreate][]) {
    const { data } = await createUnit({ client: clients.author!, body });
    u[key] = data.id;
    if (key !== 'commute') await verifyUnit({ client: clients.reviewer!, path: { id: data.id }, body: { action: 'approve' } });
  }
  return { ...t, domainId: d, author: clients.author!, viewer: clients.viewer!, u };
}

describe(`workflows [${dialect}]`, () => {
  let p: Payroll;
  beforeAll(async () => {
    p = await payroll();
  });

  it('creates a chain: io edges, typed inputs and outputs, verification, audited', async () => {
    const { data: wf } = await createWorkflow({ client: p.author, body: { name: 'Payroll chain', domainId: p.domainId, units: [p.u.gross, p.u.tax], description: 'Gross, then tax.', jurisdiction: 'US-CA' } });
    expect(wf).toMatchObject({ slug: 'payroll-chain', version: 1, status: 'draft', units: [p.u.gross, p.u.tax], description: 'Gross, then tax.', jurisdiction: 'US-CA' });
    expect(wf.dag.nodes.map((n) => [n.unitId, n.unitType, n.status])).toEqual([[p.u.gross, 'program', 'verified'], [p.u.tax, 'program', 'verified']]);
    expect(wf.dag.edges).toEqual([{ from: p.u.gross, to: p.u.tax, variable: 'gross', kind: 'io' }]);
    expect(wf.inputs).toEqual([{ name: 'hours_worked', type: 'number', unitId: p.u.gross }, { name: 'hourly_rate', type: 'number', unitId: p.u.gross }]);
    expect(wf.outputs).toEqual([{ name: 'gross', type: 'number', unitId: p.u.gross }, { name: 'tax', type: 'number', unitId: p.u.tax }]);
    expect(wf.verification).toEqual({ status: 'verified', verifiedUnits: 2, totalUnits: 2 });
    const { data: audit } = await listAuditEntries({ client: p.admin, query: { action: 'workflow.created', resourceId: wf.id } });
    expect(audit).toHaveLength(1);
  });

  it('a diamond and a disconnected unit; partial verification', async () => {
    const { data: wf } = await createWorkflow({ client: p.author, body: { name: 'Payroll diamond', domainId: p.domainId, units: [p.u.gross, p.u.tax, p.u.net, p.u.commute] } });
    expect(wf.dag.edges).toEqual([
      { from: p.u.gross, to: p.u.tax, variable: 'gross', kind: 'io' },
      { from: p.u.gross, to: p.u.net, variable: 'gross', kind: 'io' },
      { from: p.u.tax, to: p.u.net, variable: 'tax', kind: 'io' },
    ]);
    expect(wf.inputs.map((v) => v.name)).toEqual(['hours_worked', 'hourly_rate', 'distance_km']);
    expect(wf.inputs[2]).toEqual({ name: 'distance_km', type: 'number', unitId: p.u.commute });
    expect(wf.verification).toEqual({ status: 'partial', verifiedUnits: 3, totalUnits: 4 });
  });

  it('feeds edges join the DAG; one against the order is a cycle (400)', async () => {
    const { data: e } = await createUnitEdge({ client: p.author, path: { id: p.u.commute }, body: { targetUnitId: p.u.tax, kind: 'feeds', mapping: { allowance: 'gross' } } });
    expect(e.kind).toBe('feeds');
    const { data: wf } = await createWorkflow({ client: p.author, body: { name: 'Allowance tax', domainId: p.domainId, units: [p.u.commute, p.u.tax] } });
    expect(wf.dag.edges).toEqual([{ from: p.u.commute, to: p.u.tax, variable: 'gross', kind: 'feeds' }]);
    expect(wf.inputs.map((v) => v.name)).toEqual(['distance_km']);
    await expectError(createWorkflow({ client: p.author, body: { name: 'Backwards', domainId: p.domainId, units: [p.u.tax, p.u.commute] } }), 400, 'VALIDATION_ERROR', 'units[1]');
  });

  it('refuses bad unit lists with the field named, storing nothing and auditing nothing', async () => {
    const created = async () => (await listAuditEntries({ client: p.admin, query: { action: 'workflow.created', limit: 200 } })).meta.total;
    const before = await created();
    const clash = await expectError(createWorkflow({ client: p.author, body: { name: 'Clash', domainId: p.domainId, units: [p.u.gross, p.u.clash] } }), 400, 'VALIDATION_ERROR', 'units[1]');
    expect(clash.message).toMatch(/Gross pay produces gross as number but Gross pay label needs it as string/);
    await expectError(createWorkflow({ client: p.author, body: { name: 'Empty', domainId: p.domainId, units: [] } }), 400, 'VALIDATION_ERROR', 'units');
    await expectError(createWorkflow({ client: p.author, body: { name: 'Dup', domainId: p.domainId, units: [p.u.gross, p.u.gross] } }), 400, 'VALIDATION_ERROR', 'units');
    await expectError(createWorkflow({ client: p.author, body: { name: 'Ghost', domainId: p.domainId, units: [p.u.gross, 'unit_nope'] } }), 404, 'NOT_FOUND', 'units[1]');
    const other = await server.newTenant('wf-other');
    const { data: od } = await createDomain({ client: other.admin, body: { name: 'Theirs' } });
    const { data: foreign } = await createUnit({ client: other.admin, body: calc(od.id, 'Foreign', { x: 'number' }, { y: 'x' }, '{{y}}', 'x') });
    await expectError(createWorkflow({ client: p.author, body: { name: 'Foreign', domainId: p.domainId, units: [foreign.id] } }), 404, 'NOT_FOUND', 'units[0]');
    const { data: elsewhere } = await createDomain({ client: p.admin, body: { name: 'Elsewhere' } });
    await expectError(createWorkflow({ client: p.author, body: { name: 'Wrong domain', domainId: elsewhere.id, units: [p.u.gross] } }), 400, 'VALIDATION_ERROR', 'units[0]');
    await expectError(createWorkflow({ client: p.author, body: { name: 'No domain', domainId: 'dom_nope', units: [p.u.gross] } }), 404, 'NOT_FOUND', 'domainId');
    await expectError(createWorkflow({ client: p.viewer, body: { name: 'Viewer', domainId: p.domainId, units: [p.u.gross] } }), 403, 'FORBIDDEN');
    await createWorkflow({ client: p.author, body: { name: 'Only once', domainId: p.domainId, units: [p.u.gross] } });
    await expectError(createWorkflow({ client: p.author, body: { name: 'Only once', domainId: p.domainId, units: [p.u.tax] } }), 409, 'CONFLICT');
    await expectError(createWorkflowVersion({ client: p.author, path: { slug: 'no-such-workflow' }, body: { units: [p.u.gross] } }), 404, 'NOT_FOUND');
    expect(await created()).toBe(before + 1); // only "Only once" was created
  });

  it('versions: a new unit list becomes the latest; older versions stay readable; units in use cannot be deleted', async () => {
    const { data: v1 } = await createWorkflow({ client: p.author, body: { name: 'Versioned', domainId: p.domainId, units: [p.u.gross] } });
    const { data: v2 } = await createWorkflowVersion({ client: p.author, path: { slug: v1.slug }, body: { units: [p.u.gross, p.u.tax, p.u.net], description: 'Adds tax and net.' } });
    expect(v2).toMatchObject({ id: v1.id, version: 2, units: [p.u.gross, p.u.tax, p.u.net], description: 'Adds tax and net.', status: 'draft' });
    expect((await getWorkflow({ client: p.viewer, path: { slug: v1.slug } })).data.version).toBe(2);
    const old = (await getWorkflow({ client: p.viewer, path: { slug: v1.slug }, query: { version: 1 } })).data;
    expect(old).toMatchObject({ version: 1, units: [p.u.gross] });
    await expectError(getWorkflow({ client: p.viewer, path: { slug: v1.slug }, query: { version: 3 } }), 404, 'NOT_FOUND', 'version');
    await expectError(createWorkflowVersion({ client: p.author, path: { slug: v1.slug }, body: { units: [p.u.gross, p.u.clash] } }), 400, 'VALIDATION_ERROR', 'units[1]');
    expect((await getWorkflow({ client: p.viewer, path: { slug: v1.slug } })).data.version).toBe(2);
    const { data: audit } = await listAuditEntries({ client: p.admin, query: { action: 'workflow.versioned', resourceId: v1.id } });
    expect(audit[0]!.details).toMatchObject({ fromVersion: 1, toVersion: 2 });
    await expectError(deleteUnit({ client: p.admin, path: { id: p.u.net } }), 409, 'CONFLICT');
  });

  it('status changes are audited; lists filter by status and domain; another org sees 404', async () => {
    const { data: wf } = await createWorkflow({ client: p.author, body: { name: 'Status flow', domainId: p.domainId, units: [p.u.commute] } });
    const { data: active } = await updateWorkflowStatus({ client: p.author, path: { slug: wf.slug }, body: { status: 'active' } });
    expect(active.status).toBe('active');
    await expectError(updateWorkflowStatus({ client: p.author, path: { slug: wf.slug }, body: { status: 'paused' as 'active' } }), 400, 'VALIDATION_ERROR', 'status');
    const { data: audit } = await listAuditEntries({ client: p.admin, query: { action: 'workflow.status_changed', resourceId: wf.id } });
    expect(audit[0]!.details).toMatchObject({ from: 'draft', to: 'active' });
    const actives = await listWorkflows({ client: p.viewer, query: { status: 'active' } });
    expect(actives.data.map((w) => w.slug)).toEqual([wf.slug]);
    const inDomain = await listWorkflows({ client: p.viewer, query: { domainId: p.domainId, limit: 100 } });
    expect(inDomain.meta.total).toBeGreaterThanOrEqual(5);
    const other = await server.newTenant('wf-snoop');
    await expectError(getWorkflow({ client: other.admin, path: { slug: wf.slug } }), 404, 'NOT_FOUND');
    await expectError(updateWorkflowStatus({ client: other.admin, path: { slug: wf.slug }, body: { status: 'archived' } }), 404, 'NOT_FOUND');
    expect((await listWorkflows({ client: other.admin })).data).toEqual([]);
  });

  it('composes a draft from a description, chained by typed I/O, with the parts no unit covers', async () => {
    const { data: draft } = await composeWorkflow({ client: p.author, body: { description: 'Compute the net pay after tax withholding from the gross pay', domainId: p.domainId } });
    expect(draft.units).toEqual([p.u.gross, p.u.tax, p.u.net]);
    expect(draft.unmatched).toEqual([]);
    expect(draft.dag.edges.length).toBe(3);
    expect(draft.inputs.map((v) => v.name)).toEqual(['hours_worked', 'hourly_rate']);
    const { data: partial } = await composeWorkflow({ client: p.author, body: { description: 'Work out the gross pay, then book the pension contribution', domainId: p.domainId } });
    expect(partial.units).toEqual([p.u.gross]);
    expect(partial.unmatched).toEqual(['book the pension contribution']);
    // A draft is not stored.
    expect((await listWorkflows({ client: p.viewer, query: { limit: 100 } })).data.some((w) => w.units.join() === draft.units.join() && w.name === draft.name)).toBe(false);
    await expectError(composeWorkflow({ client: p.author, body: { description: 'x', domainId: 'dom_nope' } }), 404, 'NOT_FOUND', 'domainId');
    await expectError(composeWorkflow({ client: p.viewer, body: { description: 'gross pay', domainId: p.domainId } }), 403, 'FORBIDDEN');
  });

  it('runs a workflow through inference: outputs feed inputs, a gate pauses, resume finishes', async () => {
    const { data: wf } = await createWorkflow({ client: p.author, body: { name: 'Payout', domainId: p.domainId, units: [p.u.gross, p.u.tax, p.u.net, p.u.approval] } });
    const { data: paused } = await runInference({ client: p.viewer, body: { query: 'Pay out 40 hours worked at an hourly rate of 25', workflowSlug: wf.slug } });
    expect(paused.segments.map((s) => [s.text, s.trustLevel, s.unitId])).toEqual([
      ['Gross pay is 1000.', 'verified', p.u.gross],
      ['Withhold 200 in tax.', 'verified', p.u.tax],
      ['Net pay is 800.', 'verified', p.u.net],
      ['Check the payout of 800.', 'verified', p.u.approval],
    ]);
    expect(paused.pendingQuestions).toEqual([{ name: 'approved', question: 'Does the manager approve the payout of 800?', options: ['yes', 'no'] }]);
    expect(paused.sessionId).toMatch(/^ses_/);
    const { data: done } = await runInference({ client: p.viewer, body: { sessionId: paused.sessionId!, additionalInputs: { approved: 'yes' } } });
    expect(done).toMatchObject({ pendingQuestions: [], coveragePercent: 100, mode: 'full_coverage' });
    expect(done.segments.at(-1)!.text).toBe('Check the payout of 800. Release the payout of 800.');
    expect(done.unitsUsed.map((u) => u.id)).toEqual([p.u.gross, p.u.tax, p.u.net, p.u.approval]);

    // Missing inputs stop the chain where they are needed.
    const { data: short } = await runInference({ client: p.viewer, body: { query: 'Pay out 40 hours worked', workflowSlug: wf.slug } });
    expect(short.segments).toEqual([expect.objectContaining({ unitId: p.u.gross, trustLevel: 'synthesized' })]);
    expect(short.segments[0]!.text).toContain('hourly rate');
    expect(short.mode).toBe('neural_only');

    await updateWorkflowStatus({ client: p.author, path: { slug: wf.slug }, body: { status: 'archived' } });
    await expectError(runInference({ client: p.viewer, body: { query: 'Pay out 40 hours worked at an hourly rate of 25', workflowSlug: wf.slug } }), 409, 'CONFLICT', 'workflowSlug');
    await expectError(runInference({ client: p.viewer, body: { query: 'x', workflowSlug: 'no-such-workflow' } }), 404, 'NOT_FOUND', 'workflowSlug');
  });
});
