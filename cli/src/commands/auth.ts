import { getCurrentPrincipal } from '@lemma/sdk';
import type { Command } from 'commander';
import { removeConfig, writeConfig } from '../config-file.js';
import { Context } from '../context.js';
import { usageError } from '../errors.js';

const interactive = () => process.stdin.isTTY === true && process.stdout.isTTY === true;

export function registerAuthCommands(program: Command): void {
  program
    .command('login')
    .description('Check a server URL and API key, and store them in the config file (mode 0600)')
    .addHelpText('after', '\nWithout a terminal, pass --base-url and --api-key (or LEMMA_BASE_URL / LEMMA_API_KEY).')
    .action(async (_opts, cmd: Command) => {
      const global = cmd.optsWithGlobals();
      const ctx = Context.from(global);
      let baseUrl = global.baseUrl ?? process.env.LEMMA_BASE_URL;
      let apiKey = global.apiKey ?? process.env.LEMMA_API_KEY;
      if (!baseUrl || !apiKey) {
        if (!interactive()) throw usageError('login needs --base-url and --api-key when there is no terminal to ask on');
        // Loaded only here: the prompt library costs every other command its start-up time.
        const { input, password } = await import('@inquirer/prompts');
        baseUrl ??= await input({ message: 'Lemma server URL', default: ctx.settings.baseUrl });
        apiKey ??= await password({ message: 'API key (lemma_pk_…)', mask: '*', validate: (v) => /^lemma_pk_[0-9a-f]{32}$/.test(v.trim()) || 'An API key looks like lemma_pk_ followed by 32 hex characters' });
      }
      apiKey = apiKey.trim();
      const { data: me } = await ctx.call(() => getCurrentPrincipal({ client: ctx.clientWith(baseUrl!, apiKey) }), { read: true });
      writeConfig(ctx.settings.configFile, { baseUrl, apiKey, ...(ctx.settings.org ? { org: ctx.settings.org } : {}) });
      if (ctx.out.asJson) return ctx.out.json(me);
      ctx.out.line(`Logged in to ${me.organization.slug} as ${me.user.email} (${me.role})${me.apiKey ? ` with the key "${me.apiKey.name}"` : ''}.`);
      ctx.out.note(`Saved to ${ctx.settings.configFile}`);
    });

  program
    .command('logout')
    .description('Remove the stored server URL and API key')
    .action((_opts, cmd: Command) => {
      const ctx = Context.from(cmd.optsWithGlobals());
      const removed = removeConfig(ctx.settings.configFile);
      if (ctx.out.asJson) return ctx.out.json({ removed, configFile: ctx.settings.configFile });
      ctx.out.line(removed ? `Logged out (removed ${ctx.settings.configFile}).` : 'Not logged in: there was no config file.');
    });

  program
    .command('whoami')
    .description('Show the organization, role and key the credentials act with')
    .action(async (_opts, cmd: Command) => {
      const ctx = Context.from(cmd.optsWithGlobals());
      const client = ctx.client();
      const { data: me } = await ctx.call(() => getCurrentPrincipal({ client }), { read: true });
      if (ctx.out.asJson) return ctx.out.json(me);
      ctx.out.record({
        organization: `${me.organization.name} (${me.organization.slug})`,
        user: me.user.email,
        role: me.role,
        key: me.apiKey ? `${me.apiKey.name} (${me.apiKey.start}…${me.apiKey.expiresAt ? `, expires ${me.apiKey.expiresAt}` : ''})` : 'none (web session)',
        permissions: me.permissions.join(', ') || 'none',
        server: `${ctx.settings.baseUrl} (from ${ctx.settings.sources.baseUrl})`,
        credentials: `from ${ctx.settings.sources.apiKey}`,
      });
    });
}
