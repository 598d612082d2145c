import { inviteMember, listMembers, type Member, removeMember, type Role, updateMemberRole } from '@lemma/sdk';
import { type Command, Option } from 'commander';
import { findMember, type ListFlags, orgSlug, printList, ROLES, setup, when, withListOptions } from './resources.js';

export function registerMemberCommands(program: Command): void {
  const members = program
    .command('members')
    .description("Members of the organization (--org or the caller's organization)");

  withListOptions(members.command('list').description('Members, oldest first')).action(async (_o, cmd: Command) => {
    const { ctx, client, opts } = setup<ListFlags>(cmd);
    const slug = await orgSlug(ctx, client);
    await printList(ctx, (page) => listMembers({ client, path: { slug }, query: page }), opts, [
      { header: 'id', value: (m: Member) => m.id },
      { header: 'email', value: (m) => m.email },
      { header: 'role', value: (m) => m.role },
      { header: 'user', value: (m) => m.userId },
      { header: 'joined', value: (m) => when(m.createdAt) },
    ]);
  });

  members
    .command('invite')
    .description('Add a person with a role and email them an invitation (admin only)')
    .argument('<email>', 'their email address')
    .addOption(new Option('--role <role>', 'their role').choices(ROLES).makeOptionMandatory())
    .action(async (email: string, _o, cmd: Command) => {
      const { ctx, client, opts } = setup<{ role: Role }>(cmd);
      const slug = await orgSlug(ctx, client);
      const { data: m } = await ctx.call(() => inviteMember({ client, path: { slug }, body: { email, role: opts.role } }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(m);
      ctx.out.line(`Invited ${m.email} to ${slug} as ${m.role} (member ${m.id}, user ${m.userId}).`);
    });

  members
    .command('update')
    .description("Change a member's role (admin only)")
    .argument('<member>', 'member ID (mem_…), user ID or email')
    .addOption(new Option('--role <role>', 'the new role').choices(ROLES).makeOptionMandatory())
    .action(async (ref: string, _o, cmd: Command) => {
      const { ctx, client, opts } = setup<{ role: Role }>(cmd);
      const slug = await orgSlug(ctx, client);
      const { id } = await findMember(ctx, client, slug, ref);
      const { data: m } = await ctx.call(() => updateMemberRole({ client, path: { slug, id }, body: { role: opts.role } }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(m);
      ctx.out.line(`${m.email} is now ${m.role} in ${slug}.`);
    });

  members
    .command('remove')
    .description('Remove a member and revoke their API keys (admin only, or yourself)')
    .argument('<member>', 'member ID (mem_…), user ID or email')
    .action(async (ref: string, _o, cmd: Command) => {
      const { ctx, client } = setup(cmd);
      const slug = await orgSlug(ctx, client);
      const { id } = await findMember(ctx, client, slug, ref);
      const { data: m } = await ctx.call(() => removeMember({ client, path: { slug, id } }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(m);
      ctx.out.line(`Removed ${m.email} from ${slug}.`);
    });
}
