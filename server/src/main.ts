#!/usr/bin/env node
import { Command, Option } from 'commander';
import { verifyAuditChain } from './audit/audit.service.js';
import { bootstrapDemo } from './commands/demo.js';
import { ConfigError, loadConfig } from './config.js';
import { openStore } from './db/database.js';
import { migrateToLatest } from './db/migrator.js';
import { findOrgBySlug } from './orgs/orgs.repository.js';
import { bootstrapOrg } from './orgs/orgs.service.js';
import { createDeps, createLogger, startServer } from './server.js';
import { AppError } from './shared/errors.js';

const program = new Command('lemma-server')
  .description('The Lemma service: governed inference over verified reasoning units.')
  .showHelpAfterError();

program
  .command('start')
  .description('Run migrations and serve the API (PORT, HOST, DATABASE_URL, LEMMA_* configure it).')
  .option('--demo', 'on an empty database, create a demo organization and write its admin key to <data>/admin-key.txt')
  .action(async (opts: { demo?: boolean }) => {
    const config = loadConfig();
    const logger = createLogger(config);
    const deps = await createDeps(config, logger);
    await migrateToLatest(deps.store.db);
    if (opts.demo) {
      const demo = await bootstrapDemo(deps);
      if (demo) {
        process.stdout.write(`\nCreated organization "demo". Its admin API key (shown once, also in ${demo.keyFile}):\n\n  ${demo.apiKey}\n\n`);
      }
    }
    const server = await startServer(config, { logger, deps });
    let closing = false;
    const shutdown = (signal: string) => {
      if (closing) return;
      closing = true;
      logger.info({ signal }, 'shutting down');
      server.close().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.on('SIGTERM', () => shutdown('SIGTERM'));
    process.on('SIGINT', () => shutdown('SIGINT'));
    // Announce only once the signal handlers are in place: a supervisor may stop us as soon as it reads this.
    process.stdout.write(`Lemma is listening on ${server.url} (API reference: ${server.url}/docs)\n`);
  });

program
  .command('migrate')
  .description('Run pending database migrations and exit.')
  .action(async () => {
    const store = openStore(loadConfig());
    try {
      const applied = await migrateToLatest(store.db);
      process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Database is up to date.\n');
    } finally {
      await store.close();
    }
  });

program
  .command('init')
  .description('Create an organization, its first admin and an admin API key (printed once).')
  .requiredOption('--org <slug>', 'organization slug (lower-case kebab-case)')
  .requiredOption('--org-name <name>', 'organization name')
  .requiredOption('--email <email>', "the first admin's email")
  .addOption(new Option('--json', 'print {"org","user","apiKey"} as JSON'))
  .action(async (opts: { org: string; orgName: string; email: string; json?: boolean }) => {
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(opts.org) || opts.org.length < 2 || opts.org.length > 63) {
      throw new AppError('VALIDATION_ERROR', '--org must be 2-63 characters of lower-case kebab-case');
    }
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(opts.email)) throw new AppError('VALIDATION_ERROR', '--email is not an email address');
    const store = openStore(loadConfig());
    try {
      await migrateToLatest(store.db);
      const { org, user, apiKey } = await bootstrapOrg({ store }, { slug: opts.org, name: opts.orgName, email: opts.email });
      if (opts.json) {
        process.stdout.write(JSON.stringify({ org: { id: org.id, slug: org.slug }, user: { id: user.id, email: user.email }, apiKey }) + '\n');
      } else {
        process.stdout.write(`Created organization ${org.slug} (${org.id}) with admin ${user.email}.\nAdmin API key (shown once):\n\n  ${apiKey}\n\n`);
      }
    } finally {
      await store.close();
    }
  });

const audit = program.command('audit').description('Audit log tools.');
audit
  .command('verify')
  .description("Recompute an organization's audit hash chain; exit 1 if it does not verify.")
  .requiredOption('--org <slug>', 'organization slug')
  .action(async (opts: { org: string }) => {
    const store = openStore(loadConfig());
    try {
      const org = await findOrgBySlug(store.db, opts.org);
      if (!org) throw new AppError('NOT_FOUND', `organization ${opts.org} not found`);
      const report = await verifyAuditChain(store.db, org.id);
      process.stdout.write(JSON.stringify(report) + '\n');
      if (!report.ok) process.exitCode = 1;
    } finally {
      await store.close();
    }
  });

program.parseAsync().catch((err: unknown) => {
  if (err instanceof AppError || err instanceof ConfigError) {
    process.stderr.write(`lemma-server: ${err.message}\n`);
  } else {
    process.stderr.write(`lemma-server: ${err instanceof Error ? err.message : String(err)}\n`);
  }
  process.exit(1);
});
