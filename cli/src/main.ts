#!/usr/bin/env node
import { Command, CommanderError, Option } from 'commander';
import { registerAuditCommands } from './commands/audit.js';
import { registerAuthCommands } from './commands/auth.js';
import { registerCompletionCommand } from './commands/completion.js';
import { registerDomainCommands } from './commands/domains.js';
import { registerKeyCommands } from './commands/keys.js';
import { registerMemberCommands } from './commands/members.js';
import { registerOrgCommands } from './commands/orgs.js';
import { registerUnitCommands } from './commands/units.js';
import { registerWorkflowCommands } from './commands/workflows.js';
import { registerQueryCommands } from './commands/query.js';
import { CLI_VERSION } from './context.js';
import { describeError, EXIT } from './errors.js';

const program = new Command('lemma')
  .description('The Lemma command-line client: ask questions, review units, export the audit log.')
  .version(CLI_VERSION)
  .addOption(new Option('--base-url <url>', 'the server (default: LEMMA_BASE_URL, the config file, http://127.0.0.1:8080)'))
  .addOption(new Option('--api-key <key>', 'an API key (default: LEMMA_API_KEY, then the config file)'))
  .addOption(new Option('--org <slug>', 'the organization, for web-session users in several (X-Lemma-Org)'))
  .option('--json', 'print the raw `data` of each response as JSON, for scripts')
  .option('--no-color', 'no colours (also NO_COLOR=1)')
  .showHelpAfterError('(run with --help for usage)')
  .addHelpText(
    'after',
    `
Configuration: flags > LEMMA_BASE_URL / LEMMA_API_KEY > ~/.config/lemma/config.json (written by
\`lemma login\`, mode 0600; LEMMA_CONFIG or XDG_CONFIG_HOME move it).

Exit codes:
  0  success
  1  the API refused the request, or the server could not be reached
  2  usage error (unknown command or flag, bad argument)
  3  authentication: not logged in, or the API key was refused
  4  a question paused at a gate with no terminal to ask on (answer with \`lemma resume\`)`,
  );
program.exitOverride();
// `lemma … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(EXIT.ok);
  throw err;
});

registerAuthCommands(program);
registerOrgCommands(program);
registerMemberCommands(program);
registerKeyCommands(program);
registerDomainCommands(program);
registerUnitCommands(program);
registerWorkflowCommands(program);
registerCompletionCommand(program);
registerAuditCommands(program);
registerQueryCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // --help and --version exit 0; help shown for a missing subcommand, and every parse error, are usage errors (already printed).
    process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    const { lines, exitCode } = describeError(err);
    for (const line of lines) process.stderr.write(line + '\n');
    process.exitCode = exitCode;
  }
}
