import {
  composeWorkflow, createWorkflow, createWorkflowVersion, getWorkflow, listWorkflows, type ListWorkflowsData, updateWorkflowStatus, type Workflow,
  type WorkflowCreate, type WorkflowStatus, type WorkflowVariable, type WorkflowVersionCreate,
} from '@lemma/sdk';
import { Argument, type Command, Option } from 'commander';
import type { Context } from '../context.js';
import { usageError } from '../errors.js';
import { readDataFile } from '../prompt-file.js';
import { collect, domainId, integer, type ListFlags, printList, setup, when, withListOptions, WORKFLOW_STATUSES } from './resources.js';

const vars = (vs: WorkflowVariable[]) => vs.map((v) => `${v.name}:${v.type}`).join(', ') || 'none';

function printWorkflow(ctx: Context, w: Workflow): void {
  ctx.out.record({
    id: w.id,
    slug: w.slug,
    name: w.name,
    version: w.version,
    status: w.status,
    domain: w.domainId,
    jurisdiction: w.jurisdiction ?? '(none)',
    verification: `${w.verification.status} (${w.verification.verifiedUnits}/${w.verification.totalUnits} units verified)`,
    inputs: vars(w.inputs),
    outputs: vars(w.outputs),
    ...(w.description ? { description: w.description } : {}),
    created: when(w.createdAt),
    updated: when(w.updatedAt),
  });
  ctx.out.line('');
  ctx.out.table(w.dag.nodes, [
    { header: '#', value: (n) => w.dag.nodes.indexOf(n) + 1 },
    { header: 'unit', value: (n) => n.unitId },
    { header: 'type', value: (n) => n.unitType },
    { header: 'status', value: (n) => n.status },
    { header: 'name', value: (n) => n.name },
    { header: 'feeds', value: (n) => w.dag.edges.filter((e) => e.from === n.unitId).map((e) => `${e.to}${e.variable ? ` (${e.variable})` : ''}`).join(', ') },
  ]);
}

export function registerWorkflowCommands(program: Command): void {
  const workflows = program.command('workflows').description('Workflows: named, versioned compositions of units');

  withListOptions(
    workflows
      .command('list')
      .description('Workflows at their latest version, newest first')
      .option('--domain <id|slug>', 'only this domain')
      .addOption(new Option('--status <status>', 'only this status').choices(WORKFLOW_STATUSES)),
  ).action(async (_o, cmd: Command) => {
    const { ctx, client, opts } = setup<ListFlags & { domain?: string; status?: WorkflowStatus }>(cmd);
    const filters: NonNullable<ListWorkflowsData['query']> = {};
    if (opts.status) filters.status = opts.status;
    if (opts.domain) filters.domainId = await domainId(ctx, client, opts.domain);
    await printList(ctx, (page) => listWorkflows({ client, query: { ...filters, ...page } }), opts, [
      { header: 'id', value: (w: Workflow) => w.id },
      { header: 'slug', value: (w) => w.slug },
      { header: 'v', value: (w) => w.version },
      { header: 'status', value: (w) => w.status },
      { header: 'units', value: (w) => w.units.length },
      { header: 'verification', value: (w) => w.verification.status },
      { header: 'name', value: (w) => w.name },
    ]);
  });

  workflows
    .command('get')
    .description('One workflow: its unit DAG, inputs, outputs and verification')
    .argument('<slug>', 'the workflow slug')
    .addArgument(new Argument('[version]', 'an older version (default: the latest)').argParser(integer(1)))
    .action(async (slug: string, version: number | undefined, _o, cmd: Command) => {
      const { ctx, client } = setup(cmd);
      const { data: w } = await ctx.call(() => getWorkflow({ client, path: { slug }, query: version ? { version } : {} }), { read: true });
      if (ctx.out.asJson) return ctx.out.json(w);
      printWorkflow(ctx, w);
    });

  workflows
    .command('create')
    .description('Create version 1 of a workflow (draft) from an ordered list of units, or from a file')
    .option('--name <name>', 'the name (the slug comes from it)')
    .option('--domain <id|slug>', 'the domain')
    .option('--unit <id>', 'a unit ID, in execution order (repeatable)', collect)
    .option('--description <text>', 'what it does')
    .option('--jurisdiction <code>', 'where it applies')
    .option('--file <path>', 'the body of POST /workflows as JSON or YAML (flags override its fields)')
    .action(async (_o, cmd: Command) => {
      const { ctx, client, opts } = setup<{ name?: string; domain?: string; unit?: string[]; description?: string; jurisdiction?: string; file?: string }>(cmd);
      const body: Record<string, unknown> = opts.file ? await readDataFile(opts.file, 'workflow file') : {};
      if (opts.name !== undefined) body.name = opts.name;
      if (opts.unit) body.units = opts.unit;
      if (opts.description !== undefined) body.description = opts.description;
      if (opts.jurisdiction !== undefined) body.jurisdiction = opts.jurisdiction;
      if (!opts.file) {
        const missing = [!opts.name && '--name', !opts.domain && '--domain', !opts.unit && '--unit'].filter(Boolean);
        if (missing.length) throw usageError(`workflows create needs ${missing.join(', ')} (or --file)`);
      }
      if (opts.domain) body.domainId = await domainId(ctx, client, opts.domain);
      const { data: w } = await ctx.call(() => createWorkflow({ client, body: body as unknown as WorkflowCreate }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(w);
      ctx.out.line(`Created workflow ${w.slug} (${w.id}) v${w.version}, ${w.status}, ${w.units.length} units, ${w.verification.status}.`);
    });

  workflows
    .command('compose')
    .description('Draft a workflow from a description by matching the domain\'s units (nothing is stored)')
    .requiredOption('--domain <id|slug>', 'the domain searched for units')
    .argument('<description...>', 'what the workflow should do')
    .addHelpText('after', '\nStore a draft with: lemma workflows create --name … --domain … --unit <id> … (the units it lists, in order).')
    .action(async (words: string[], _o, cmd: Command) => {
      const { ctx, client, opts } = setup<{ domain: string }>(cmd);
      const body = { description: words.join(' '), domainId: await domainId(ctx, client, opts.domain) };
      const { data: d } = await ctx.call(() => composeWorkflow({ client, body }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(d);
      ctx.out.record({
        name: d.name,
        units: d.units.join(' ') || 'none',
        inputs: vars(d.inputs),
        outputs: vars(d.outputs),
        verification: `${d.verification.status} (${d.verification.verifiedUnits}/${d.verification.totalUnits} units verified)`,
        unmatched: d.unmatched.join('; ') || 'none',
      });
      if (d.units.length) ctx.out.note(`Store it: lemma workflows create --name ${JSON.stringify(d.name)} --domain ${d.domainId} ${d.units.map((u) => `--unit ${u}`).join(' ')}`);
    });

  workflows
    .command('version')
    .description('Add a version with a new unit list (it becomes the latest; the status is unchanged)')
    .argument('<slug>', 'the workflow slug')
    .option('--unit <id>', 'a unit ID, in execution order (repeatable)', collect)
    .option('--description <text>', 'a new description')
    .action(async (slug: string, _o, cmd: Command) => {
      const { ctx, client, opts } = setup<{ unit?: string[]; description?: string }>(cmd);
      if (!opts.unit) throw usageError('workflows version needs at least one --unit');
      const body: WorkflowVersionCreate = { units: opts.unit };
      if (opts.description !== undefined) body.description = opts.description;
      const { data: w } = await ctx.call(() => createWorkflowVersion({ client, path: { slug }, body }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(w);
      ctx.out.line(`${w.slug} is now at version ${w.version} (${w.units.length} units, ${w.verification.status}).`);
    });

  workflows
    .command('status')
    .description("Change a workflow's status (an archived workflow does not run)")
    .argument('<slug>', 'the workflow slug')
    .addArgument(new Argument('<status>', 'the new status').choices(WORKFLOW_STATUSES))
    .action(async (slug: string, status: WorkflowStatus, _o, cmd: Command) => {
      const { ctx, client } = setup(cmd);
      const { data: w } = await ctx.call(() => updateWorkflowStatus({ client, path: { slug }, body: { status } }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(w);
      ctx.out.line(`${w.slug} is now ${w.status}.`);
    });
}
