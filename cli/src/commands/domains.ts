import {
  addDomainMember, createDomain, type Domain, type DomainCreate, type DomainMember, type DomainTemplate, listDomainMembers, listDomains,
  listDomainTemplates, removeDomainMember, type Role,
} from '@lemma/sdk';
import { type Command, Option } from 'commander';
import { clip, type ListFlags, printList, ROLES, setup, userId, when, withListOptions } from './resources.js';

export function registerDomainCommands(program: Command): void {
  const domains = program.command('domains').description('Domains: knowledge areas that group units, with their own reviewers');

  withListOptions(domains.command('list').description("The organization's domains, by name")).action(async (_o, cmd: Command) => {
    const { ctx, client, opts } = setup<ListFlags>(cmd);
    await printList(ctx, (page) => listDomains({ client, query: page }), opts, [
      { header: 'id', value: (d: Domain) => d.id },
      { header: 'slug', value: (d) => d.slug },
      { header: 'name', value: (d) => d.name },
      { header: 'jurisdiction', value: (d) => d.jurisdiction },
      { header: 'units', value: (d) => d.unitCount },
    ]);
  });

  domains
    .command('create')
    .description('Create a domain (admin only); with --template, seeded with its example units')
    .requiredOption('--name <name>', 'the name (the slug comes from it)')
    .option('--description <text>', 'what the domain covers')
    .option('--jurisdiction <code>', 'the default jurisdiction, e.g. US-CA')
    .option('--template <id>', 'a template ID (see `lemma domains templates`)')
    .action(async (_o, cmd: Command) => {
      const { ctx, client, opts } = setup<{ name: string; description?: string; jurisdiction?: string; template?: string }>(cmd);
      const body: DomainCreate = { name: opts.name };
      if (opts.description !== undefined) body.description = opts.description;
      if (opts.jurisdiction !== undefined) body.jurisdiction = opts.jurisdiction;
      if (opts.template !== undefined) body.templateId = opts.template;
      const { data: d } = await ctx.call(() => createDomain({ client, body }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(d);
      ctx.out.line(`Created domain ${d.slug} (${d.id})${d.unitCount ? ` with ${d.unitCount} candidate units from the template` : ''}.`);
    });

  withListOptions(domains.command('templates').description('The pre-built domain templates and their example units')).action(async (_o, cmd: Command) => {
    const { ctx, client, opts } = setup<ListFlags>(cmd);
    await printList(ctx, (page) => listDomainTemplates({ client, query: page }), opts, [
      { header: 'id', value: (t: DomainTemplate) => t.id },
      { header: 'name', value: (t) => t.name },
      { header: 'jurisdiction', value: (t) => t.jurisdiction },
      { header: 'units', value: (t) => t.units.length },
      { header: 'description', value: (t) => clip(t.description) },
    ]);
  });

  const members = domains.command('members').description("A domain's own members: when it has any, only they (reviewer+) and admins verify its units");

  withListOptions(members.command('list').description("The domain's members, oldest first").argument('<domain>', 'the domain slug')).action(async (slug: string, _o, cmd: Command) => {
    const { ctx, client, opts } = setup<ListFlags>(cmd);
    await printList(ctx, (page) => listDomainMembers({ client, path: { slug }, query: page }), opts, [
      { header: 'user', value: (m: DomainMember) => m.userId },
      { header: 'email', value: (m) => m.email },
      { header: 'role', value: (m) => m.role },
      { header: 'added', value: (m) => when(m.createdAt) },
    ]);
  });

  members
    .command('add')
    .description('Add a member of the organization to the domain (admin only)')
    .argument('<domain>', 'the domain slug')
    .argument('<user>', 'user ID or email')
    .addOption(new Option('--role <role>', 'the role within the domain').choices(ROLES).makeOptionMandatory())
    .action(async (slug: string, user: string, _o, cmd: Command) => {
      const { ctx, client, opts } = setup<{ role: Role }>(cmd);
      const body = { userId: await userId(ctx, client, user), role: opts.role };
      const { data: m } = await ctx.call(() => addDomainMember({ client, path: { slug }, body }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(m);
      ctx.out.line(`Added ${m.email} to the domain ${slug} as ${m.role}.`);
    });

  members
    .command('remove')
    .description('Remove a user from the domain; they stay in the organization (admin only)')
    .argument('<domain>', 'the domain slug')
    .argument('<user>', 'user ID or email')
    .action(async (slug: string, user: string, _o, cmd: Command) => {
      const { ctx, client } = setup(cmd);
      const id = await userId(ctx, client, user);
      const { data: m } = await ctx.call(() => removeDomainMember({ client, path: { slug, userId: id } }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(m);
      ctx.out.line(`Removed ${m.email} from the domain ${slug}.`);
    });
}
