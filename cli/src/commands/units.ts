import {
  aiEditUnit, assignReviewers, createUnit, createUnitEdge, deleteUnit, type ElementReview, type ElementReviewAction, generateUnitsFromGaps,
  getUnit, getUnitsBySlugs, listUnitEdges, listUnits, type ListUnitsData, type Unit, type UnitCreate, type UnitEdge, type UnitEdgeCreate,
  type UnitEdgeKind, type UnitGapsGenerate, type UnitStatus, type UnitType, type UnitUpdate, type UnitVerify, updateUnit, verifyUnit,
} from '@lemma/sdk';
import { type Command, Option } from 'commander';
import type { Context } from '../context.js';
import { usageError } from '../errors.js';
import type { Column } from '../output.js';
import { readDataFile } from '../prompt-file.js';
import {
  collect, domainId, EDGE_KINDS, integer, type ListFlags, percent, printList, setup, UNIT_STATUSES, UNIT_TYPES, userId, when, withListOptions,
} from './resources.js';

export const unitColumns: readonly Column<Unit>[] = [
  { header: 'id', value: (u) => u.id },
  { header: 'slug', value: (u) => u.slug },
  { header: 'type', value: (u) => u.unitType },
  { header: 'status', value: (u) => u.status },
  { header: 'v', value: (u) => u.version },
  { header: 'score', value: (u) => percent(u.verificationScore) },
  { header: 'jurisdiction', value: (u) => u.jurisdiction },
  { header: 'name', value: (u) => u.name },
];

function printUnit(ctx: Context, u: Unit): void {
  const ex = u.exampleResults;
  ctx.out.record({
    id: u.id,
    slug: u.slug,
    name: u.name,
    type: u.unitType,
    status: u.status,
    version: u.version,
    domain: u.domainId,
    jurisdiction: u.jurisdiction ?? '(everywhere)',
    author: u.authorId,
    verification: `score ${percent(u.verificationScore)}, approval rate ${percent(u.approvalRate)}`,
    reviewers: u.reviewers.join(', ') || 'none',
    reviews: u.reviews.length,
    'proposed changes': u.proposedChanges.length,
    examples: `${ex.passing} passing, ${ex.failing} failing`,
    ...(u.description ? { description: u.description } : {}),
    ...(u.given ? { given: u.given } : {}),
    ...(u.when ? { when: u.when } : {}),
    ...(u.then ? { then: u.then } : {}),
    created: when(u.createdAt),
    updated: when(u.updatedAt),
  });
  for (const f of ex.failures) ctx.out.line(ctx.out.color.red(`  failing example "${f.name}": ${f.message}`));
}

/** One line after a write, and the failing examples (if any). */
function printChanged(ctx: Context, verb: string, u: Unit): void {
  ctx.out.line(`${verb} unit ${u.slug} (${u.id}): ${u.status}, version ${u.version}, examples ${u.exampleResults.passing} passing, ${u.exampleResults.failing} failing.`);
  for (const f of u.exampleResults.failures) ctx.out.line(ctx.out.color.red(`  failing example "${f.name}": ${f.message}`));
}

/** `--element step_1=approve` or `--element step_1=suggest_edit:a comment`. */
function parseElement(spec: string): ElementReview {
  const m = /^([^=]+)=([a-z_]+)(?::(.*))?$/s.exec(spec);
  if (!m) throw usageError(`--element ${JSON.stringify(spec)}: expected <elementId>=<action>[:comment], e.g. step_1=approve`);
  return { elementId: m[1]!, action: m[2] as ElementReviewAction, ...(m[3] ? { comment: m[3] } : {}) };
}

/** `--map out=in` pairs. */
function parseMapping(pairs: string[]): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const pair of pairs) {
    const [from, to, ...rest] = pair.split('=');
    if (!from || !to || rest.length) throw usageError(`--map ${JSON.stringify(pair)}: expected <output>=<input>`);
    mapping[from] = to;
  }
  return mapping;
}

export function registerUnitCommands(program: Command): void {
  const units = program.command('units').description('Reasoning units: write, review, verify, connect');

  withListOptions(
    units
      .command('list')
      .description('Units, filtered')
      .addOption(new Option('--status <status>', 'only this status').choices(UNIT_STATUSES))
      .addOption(new Option('--type <type>', 'only this unit type').choices(UNIT_TYPES))
      .option('--domain <id|slug>', 'only this domain')
      .option('--jurisdiction <code>', 'only this jurisdiction'),
  ).action(async (_o, cmd: Command) => {
    const { ctx, client, opts } = setup<ListFlags & { status?: UnitStatus; type?: UnitType; domain?: string; jurisdiction?: string }>(cmd);
    const filters: NonNullable<ListUnitsData['query']> = {};
    if (opts.status) filters.status = opts.status;
    if (opts.type) filters.unitType = opts.type;
    if (opts.jurisdiction) filters.jurisdiction = opts.jurisdiction;
    if (opts.domain) filters.domainId = await domainId(ctx, client, opts.domain);
    await printList(ctx, (page) => listUnits({ client, query: { ...filters, ...page } }), opts, unitColumns);
  });

  units
    .command('get')
    .description('One unit: status, verification, examples, GIVEN/WHEN/THEN (--json for the definition)')
    .argument('<id>', 'the unit ID (unit_…)')
    .action(async (id: string, _o, cmd: Command) => {
      const { ctx, client } = setup(cmd);
      const { data: u } = await ctx.call(() => getUnit({ client, path: { id } }), { read: true });
      if (ctx.out.asJson) return ctx.out.json(u);
      printUnit(ctx, u);
    });

  units
    .command('create')
    .description('Create a candidate unit from a JSON or YAML file (the body of POST /units)')
    .requiredOption('--file <path>', 'the unit, JSON or YAML (- for stdin)')
    .option('--domain <id|slug>', 'the domain (sets domainId, over the file)')
    .action(async (_o, cmd: Command) => {
      const { ctx, client, opts } = setup<{ file: string; domain?: string }>(cmd);
      const body = await readDataFile(opts.file, 'unit file');
      if (opts.domain) body.domainId = await domainId(ctx, client, opts.domain);
      const { data: u } = await ctx.call(() => createUnit({ client, body: body as UnitCreate }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(u);
      printChanged(ctx, 'Created', u);
    });

  units
    .command('update')
    .description('Update a unit from a JSON or YAML file of the fields to change (null clears one); content changes bump the version')
    .argument('<id>', 'the unit ID')
    .requiredOption('--file <path>', 'the changes, JSON or YAML (- for stdin)')
    .action(async (id: string, _o, cmd: Command) => {
      const { ctx, client, opts } = setup<{ file: string }>(cmd);
      const body = await readDataFile(opts.file, 'update file');
      const { data: u } = await ctx.call(() => updateUnit({ client, path: { id }, body: body as UnitUpdate }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(u);
      printChanged(ctx, 'Updated', u);
    });

  units
    .command('delete')
    .description('Delete a unit')
    .argument('<id>', 'the unit ID')
    .action(async (id: string, _o, cmd: Command) => {
      const { ctx, client } = setup(cmd);
      const { data: u } = await ctx.call(() => deleteUnit({ client, path: { id } }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(u);
      ctx.out.line(`Deleted unit ${u.slug} (${u.id}).`);
    });

  units
    .command('verify')
    .description("Review a unit's current version: approve or request changes, overall and per step/element")
    .argument('<id>', 'the unit ID')
    .option('--approve', 'approve the unit (and every step/element not corrected)')
    .option('--request-changes', 'request changes')
    .option('--comment <text>', 'an overall comment')
    .option('--element <id=action[:comment]>', 'a step/element review, e.g. base=approve or senior=correct_values:use 6 years (repeatable)', collect)
    .addHelpText(
      'after',
      `
Element actions: program steps approve, correct_values, add_branch, add_exception; other unit
types approve_element, suggest_edit, reweight_element, add_element, remove_element.`,
    )
    .action(async (id: string, _o, cmd: Command) => {
      const { ctx, client, opts } = setup<{ approve?: boolean; requestChanges?: boolean; comment?: string; element?: string[] }>(cmd);
      if (opts.approve === opts.requestChanges) throw usageError('give exactly one of --approve and --request-changes');
      const body: UnitVerify = { action: opts.approve ? 'approve' : 'request_changes' };
      if (opts.comment !== undefined) body.comment = opts.comment;
      if (opts.element) body.elementReviews = opts.element.map(parseElement);
      const { data: u } = await ctx.call(() => verifyUnit({ client, path: { id }, body }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(u);
      ctx.out.line(`Reviewed ${u.slug} v${u.version} (${body.action}): now ${u.status}, score ${percent(u.verificationScore)}, approval rate ${percent(u.approvalRate)}.`);
    });

  units
    .command('assign')
    .description('Assign reviewers (admin only); a candidate unit moves to in_review')
    .argument('<id>', 'the unit ID')
    .argument('<reviewer...>', 'user IDs or emails of members with the reviewer role or above')
    .action(async (id: string, reviewers: string[], _o, cmd: Command) => {
      const { ctx, client } = setup(cmd);
      const reviewerIds: string[] = [];
      for (const r of reviewers) reviewerIds.push(await userId(ctx, client, r));
      const { data: u } = await ctx.call(() => assignReviewers({ client, path: { id }, body: { reviewerIds } }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(u);
      ctx.out.line(`${u.slug} is ${u.status}; reviewers: ${u.reviewers.join(', ')}.`);
    });

  withListOptions(units.command('edges').description('The composition edges that start or end at a unit').argument('<id>', 'the unit ID')).action(async (id: string, _o, cmd: Command) => {
    const { ctx, client, opts } = setup<ListFlags>(cmd);
    await printList(ctx, (page) => listUnitEdges({ client, path: { id }, query: page }), opts, [
      { header: 'id', value: (e: UnitEdge) => e.id },
      { header: 'from', value: (e) => e.sourceUnitId },
      { header: 'kind', value: (e) => e.kind },
      { header: 'to', value: (e) => e.targetUnitId },
      { header: 'mapping', value: (e) => Object.entries(e.mapping).map(([a, b]) => `${a}→${b}`).join(', ') },
    ]);
  });

  units
    .command('connect')
    .description('Add an edge from a unit to another (author+)')
    .argument('<id>', 'the source unit ID')
    .argument('<target>', 'the target unit ID')
    .addOption(new Option('--kind <kind>', 'the edge kind').choices(EDGE_KINDS).makeOptionMandatory())
    .option('--map <output=input>', 'for feeds: an output of the source to an input of the target (repeatable; default: same names)', collect)
    .action(async (id: string, target: string, _o, cmd: Command) => {
      const { ctx, client, opts } = setup<{ kind: UnitEdgeKind; map?: string[] }>(cmd);
      const body: UnitEdgeCreate = { targetUnitId: target, kind: opts.kind };
      if (opts.map) body.mapping = parseMapping(opts.map);
      const { data: e } = await ctx.call(() => createUnitEdge({ client, path: { id }, body }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(e);
      ctx.out.line(`Connected ${e.sourceUnitId} -${e.kind}-> ${e.targetUnitId} (${e.id}).`);
    });

  units
    .command('ai-edit')
    .description('Edit a unit in natural language through the organization\'s model (author+)')
    .argument('<id>', 'the unit ID')
    .argument('<instruction...>', 'the edit, e.g. rename to "Vacation accrual (CA)"')
    .action(async (id: string, words: string[], _o, cmd: Command) => {
      const { ctx, client } = setup(cmd);
      const instruction = words.join(' ');
      const { data: u } = await ctx.call(() => aiEditUnit({ client, path: { id }, body: { instruction } }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(u);
      printChanged(ctx, 'Edited', u);
    });

  units
    .command('by-slugs')
    .description('Units by slug')
    .argument('<slug...>', 'unit slugs')
    .action(async (slugs: string[], _o, cmd: Command) => {
      const { ctx, client } = setup(cmd);
      const { data } = await ctx.call(() => getUnitsBySlugs({ client, body: { slugs } }), { read: true });
      if (ctx.out.asJson) return ctx.out.json(data);
      ctx.out.table(data, unitColumns);
      const missing = slugs.filter((s) => !data.some((u) => u.slug === s));
      if (missing.length) ctx.out.note(`Not found: ${missing.join(', ')}`);
    });

  units
    .command('generate-from-gaps')
    .description('Draft candidate units for the questions no unit answered (author+)')
    .option('--domain <id|slug>', 'only gaps recorded for this domain')
    .addOption(new Option('--limit <n>', 'at most this many units').argParser(integer(1)))
    .action(async (_o, cmd: Command) => {
      const { ctx, client, opts } = setup<{ domain?: string; limit?: number }>(cmd);
      const body: UnitGapsGenerate = {};
      if (opts.domain) body.domainId = await domainId(ctx, client, opts.domain);
      if (opts.limit !== undefined) body.limit = opts.limit;
      const { data } = await ctx.call(() => generateUnitsFromGaps({ client, body }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(data);
      if (data.length === 0) return ctx.out.line('No gaps to fill: no candidate units were created.');
      ctx.out.line(`Created ${data.length} candidate unit${data.length === 1 ? '' : 's'}:`);
      ctx.out.table(data, unitColumns);
    });
}
