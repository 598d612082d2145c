import { type ApiKey, type ApiKeyCreate, type ApiKeyCreated, createApiKey, listApiKeys, type Permission, revokeApiKey, type Role } from '@lemma/sdk';
import { type Command, Option } from 'commander';
import type { Context } from '../context.js';
import { usageError } from '../errors.js';
import { collect, type ListFlags, orgSlug, printList, ROLES, setup, userId, when, withListOptions } from './resources.js';

const keyState = (k: ApiKey) => (k.revokedAt ? 'revoked' : k.expiresAt && Date.parse(k.expiresAt) <= Date.now() ? 'expired' : 'active');

/** Prints a key that the server returns only once, with a warning to copy it. */
export function printNewKey(ctx: Context, key: ApiKeyCreated, title: string): void {
  ctx.out.line(`${title}: "${key.name}" (${key.id}), role ${key.role}, permissions ${key.permissions.join(', ') || 'none'}${key.expiresAt ? `, expires ${when(key.expiresAt)}` : ''}.`);
  ctx.out.line('');
  ctx.out.line(`  ${ctx.out.color.bold(key.key)}`);
  ctx.out.line('');
  ctx.out.note(ctx.out.color.yellow('Copy this key now: it is shown only once and cannot be retrieved again (only its first 12 characters are kept).'));
}

export function registerKeyCommands(program: Command): void {
  const keys = program
    .command('keys')
    .description("API keys of the organization (admin only; --org or the caller's organization)");

  withListOptions(keys.command('list').description('Keys, newest first, including revoked and expired ones (never the key itself)')).action(async (_o, cmd: Command) => {
    const { ctx, client, opts } = setup<ListFlags>(cmd);
    const slug = await orgSlug(ctx, client);
    await printList(ctx, (page) => listApiKeys({ client, path: { slug }, query: page }), opts, [
      { header: 'id', value: (k: ApiKey) => k.id },
      { header: 'name', value: (k) => k.name },
      { header: 'start', value: (k) => `${k.start}…` },
      { header: 'role', value: (k) => k.role },
      { header: 'permissions', value: (k) => k.permissions.join(', ') },
      { header: 'user', value: (k) => k.userId },
      { header: 'state', value: keyState },
      { header: 'expires', value: (k) => when(k.expiresAt) },
      { header: 'last used', value: (k) => when(k.lastUsedAt) },
    ]);
  });

  keys
    .command('create')
    .description('Create a key; the key is printed once')
    .requiredOption('--name <name>', 'what the key is for')
    .addOption(new Option('--role <role>', "the key's role (default author, capped at the member's role)").choices(ROLES))
    .option('--permission <permission>', 'a permission, e.g. inference (repeatable; default: inference)', collect)
    .option('--no-permissions', 'a key with no permissions')
    .option('--expires-at <time>', 'an ISO 8601 time in the future')
    .option('--user <id|email>', 'the member the key acts for (default: you)')
    .action(async (_o, cmd: Command) => {
      const { ctx, client, opts } = setup<{ name: string; role?: Role; permission?: string[]; permissions: boolean; expiresAt?: string; user?: string }>(cmd);
      if (opts.permission && !opts.permissions) throw usageError('--permission and --no-permissions contradict each other');
      const slug = await orgSlug(ctx, client);
      const body: ApiKeyCreate = { name: opts.name };
      if (opts.role) body.role = opts.role;
      if (opts.permission) body.permissions = opts.permission as Permission[];
      if (!opts.permissions) body.permissions = [];
      if (opts.expiresAt) body.expiresAt = opts.expiresAt;
      if (opts.user) body.userId = await userId(ctx, client, opts.user, slug);
      const { data: key } = await ctx.call(() => createApiKey({ client, path: { slug }, body }), { read: false });
      if (ctx.out.asJson) {
        ctx.out.json(key);
        ctx.out.note('The key in `key` is shown only this once: store it now.');
        return;
      }
      printNewKey(ctx, key, `Created an API key in ${slug}`);
    });

  keys
    .command('revoke')
    .description('Revoke a key; it stops working on the very next request')
    .argument('<id>', 'the key ID (key_…)')
    .action(async (id: string, _o, cmd: Command) => {
      const { ctx, client } = setup(cmd);
      const slug = await orgSlug(ctx, client);
      const { data: key } = await ctx.call(() => revokeApiKey({ client, path: { slug, id } }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(key);
      ctx.out.line(`Revoked the key "${key.name}" (${key.id}, ${key.start}…).`);
    });
}
