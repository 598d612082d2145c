import { createOrg, listOrgs, type Organization, type OrganizationUpdate, type Plan, updateOrg } from '@lemma/sdk';
import { type Command, Option } from 'commander';
import { usageError } from '../errors.js';
import { readJsonArgument } from '../prompt-file.js';
import { type ListFlags, PLANS, printList, setup, when, withListOptions } from './resources.js';
import { printNewKey } from './keys.js';

export function registerOrgCommands(program: Command): void {
  const orgs = program.command('orgs').description('Organizations: list, create, update');

  withListOptions(orgs.command('list').description('The organizations you belong to (an API key sees only its own)')).action(async (_o, cmd: Command) => {
    const { ctx, client, opts } = setup<ListFlags>(cmd);
    await printList(ctx, (page) => listOrgs({ client, query: page }), opts, [
      { header: 'slug', value: (o: Organization) => o.slug },
      { header: 'name', value: (o) => o.name },
      { header: 'plan', value: (o) => o.plan },
      { header: 'your role', value: (o) => o.role },
      { header: 'created', value: (o) => when(o.createdAt) },
    ]);
  });

  orgs
    .command('create')
    .description('Create an organization with you as its first admin')
    .requiredOption('--name <name>', 'the display name')
    .requiredOption('--slug <slug>', 'lower-case kebab-case, unique across the service')
    .addHelpText('after', '\nWith an API key, the response carries a new admin key for the new organization: it is printed once.')
    .action(async (_o, cmd: Command) => {
      const { ctx, client, opts } = setup<{ name: string; slug: string }>(cmd);
      const { data: org } = await ctx.call(() => createOrg({ client, body: { name: opts.name, slug: opts.slug } }), { read: false });
      if (ctx.out.asJson) {
        ctx.out.json(org);
        if (org.apiKey) ctx.out.note(`The key in apiKey.key is shown only this once: store it now.`);
        return;
      }
      ctx.out.line(`Created organization ${org.slug} ("${org.name}", plan ${org.plan}); you are its ${org.role}.`);
      if (org.apiKey) printNewKey(ctx, org.apiKey, `An admin key for ${org.slug} (an API key reaches only its own organization)`);
    });

  orgs
    .command('update')
    .description("Update an organization's name, plan or settings (admin only)")
    .argument('<slug>', 'the organization')
    .option('--name <name>', 'a new display name')
    .addOption(new Option('--plan <plan>', 'a new plan').choices(PLANS))
    .option('--settings <json|@file>', 'a JSON merge patch of the settings (null removes a key), inline or @file (JSON or YAML)')
    .action(async (slug: string, _o, cmd: Command) => {
      const { ctx, client, opts } = setup<{ name?: string; plan?: Plan; settings?: string }>(cmd);
      const body: OrganizationUpdate = {};
      if (opts.name !== undefined) body.name = opts.name;
      if (opts.plan !== undefined) body.plan = opts.plan;
      if (opts.settings !== undefined) body.settings = (await readJsonArgument(opts.settings, '--settings')) as OrganizationUpdate['settings'];
      if (Object.keys(body).length === 0) throw usageError('nothing to update: give --name, --plan or --settings');
      const { data: org } = await ctx.call(() => updateOrg({ client, path: { slug }, body }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(org);
      ctx.out.record({ slug: org.slug, name: org.name, plan: org.plan, settings: org.settings, updated: when(org.updatedAt) });
    });
}
