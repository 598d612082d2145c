import { select } from '@inquirer/prompts';
import {
  listDomains, runInference, saveSegmentAsUnit, submitInferenceFeedback,
  type FeedbackKind, type InferenceRequest, type InferenceResult, type UnitType,
} from '@lemma/sdk';
import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import { Context } from '../context.js';
import { CliError, EXIT, usageError } from '../errors.js';
import { answerFlags, answerLines, pausedLines } from '../render-answer.js';

/** The exit code of a prompt interrupted with Ctrl-C (128 + SIGINT), as shells report it. */
export const EXIT_INTERRUPTED = 130;

type Answers = Record<string, string>;

/** `--answer name=value`, repeatable: collected into one object; a name given twice is refused. */
export function parseAnswer(raw: string, previous: Answers = {}): Answers {
  const at = raw.indexOf('=');
  const name = at < 0 ? '' : raw.slice(0, at).trim();
  const value = at < 0 ? '' : raw.slice(at + 1).trim();
  if (!name || !value) throw new InvalidArgumentError('expected name=value, e.g. --answer consent=yes');
  if (Object.hasOwn(previous, name)) throw new InvalidArgumentError(`the question ${name} is answered twice`);
  return { ...previous, [name]: value };
}

const answerOption = () =>
  new Option('--answer <name=value>', 'answer a question of a protocol gate ahead of time (repeatable)').argParser(parseAnswer);

/** Prompts need a terminal on both ends: one to read keys from, one to draw the list on. */
const interactive = () => process.stdin.isTTY === true && process.stdout.isTTY === true;

interface AnswerOptions {
  answer?: Answers;
}

export function registerQueryCommands(program: Command): void {
  program
    .command('query')
    .description('Ask a question: the answer comes back split into segments, each marked with its trust level')
    .argument('<question...>', 'the question (quote it, or give it as several words)')
    .option('--domain <id|slug>', 'only match units of this domain')
    .option('--jurisdiction <code>', 'only match units that apply here (e.g. US-CA)')
    .option('--include-unverified', 'also match candidate and in-review units (their segments are [synth])')
    .option('--workflow <slug>', "run this workflow's units in order instead of matching units")
    .addOption(answerOption())
    .addHelpText(
      'after',
      `
Trust markers: [verified] verified unit, [expert] partially verified unit, [synth] synthesized,
[neural] written by a model (coloured on a terminal instead, unless NO_COLOR or --no-color).

A protocol gate pauses the run. On a terminal each question is asked with a list to pick from and
the run resumes; without one the session id and the questions are printed and lemma exits 4:
answer them with \`lemma resume <sessionId> --answer name=value\`, or ahead of time here with
--answer. Ctrl-C at a question exits 130 and keeps the session (24 h) for \`lemma resume\`.`,
    )
    .action(async (words: string[], opts: AnswerOptions & { domain?: string; jurisdiction?: string; includeUnverified?: boolean; workflow?: string }, cmd: Command) => {
      const ctx = Context.from(cmd.optsWithGlobals());
      const client = ctx.client();
      const query = words.join(' ').trim();
      if (!query) throw usageError('the question is empty');
      const body: InferenceRequest = { query };
      if (opts.domain !== undefined) body.domainId = await resolveDomain(ctx, opts.domain);
      if (opts.jurisdiction !== undefined) body.jurisdiction = opts.jurisdiction;
      if (opts.includeUnverified) body.includeUnverified = true;
      if (opts.workflow !== undefined) body.workflowSlug = opts.workflow;
      if (opts.answer) body.additionalInputs = opts.answer;
      await converse(ctx, client, body);
    });

  program
    .command('resume')
    .description('Resume a paused question with answers to its pending questions')
    .argument('<sessionId>', 'the session printed when the question paused (ses_…)')
    .addOption(answerOption())
    .addHelpText('after', '\nWithout --answer, the pending questions are asked again on a terminal (or printed, exit 4).')
    .action(async (sessionId: string, opts: AnswerOptions, cmd: Command) => {
      const ctx = Context.from(cmd.optsWithGlobals());
      const client = ctx.client();
      await converse(ctx, client, { sessionId, ...(opts.answer ? { additionalInputs: opts.answer } : {}) });
    });

  program
    .command('feedback')
    .description('Say whether one segment of an answer was right (confirm) or wrong (incorrect)')
    .argument('<inferenceLogId>', 'the inference log id printed under the answer (inf_…)')
    .argument('<segmentIndex>', 'which segment, counting from 0 in the order shown', (raw) => {
      if (!/^\d+$/.test(raw)) throw new InvalidArgumentError('expected a segment number from 0');
      return Number(raw);
    })
    .addArgument(new Argument('<feedback>', 'confirm or incorrect').choices(['confirm', 'incorrect']))
    .option('--comment <text>', 'why')
    .action(async (inferenceLogId: string, segmentIndex: number, feedback: FeedbackKind, opts: { comment?: string }, cmd: Command) => {
      const ctx = Context.from(cmd.optsWithGlobals());
      const client = ctx.client();
      const body = { inferenceLogId, segmentIndex, feedback, ...(opts.comment !== undefined ? { comment: opts.comment } : {}) };
      const { data } = await ctx.call(() => submitInferenceFeedback({ client, body }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(data);
      ctx.out.line(`Recorded ${data.feedback} for segment ${data.segmentIndex} of ${data.inferenceLogId} (${data.id}).`);
    });

  program
    .command('save-segment')
    .description('Save the text of an answer segment as a candidate unit, for experts to complete and review')
    .argument('<text>', 'the segment text ("If/When X, Y" becomes WHEN X, THEN Y)')
    .requiredOption('--domain <id|slug>', 'the domain of the new unit')
    .addOption(new Option('--type <unitType>', 'the preferred unit type').choices(['program', 'framework', 'pattern', 'argument', 'protocol']))
    .action(async (text: string, opts: { domain: string; type?: UnitType }, cmd: Command) => {
      const ctx = Context.from(cmd.optsWithGlobals());
      const client = ctx.client();
      const domainId = await resolveDomain(ctx, opts.domain);
      const body = { segmentText: text, domainId, ...(opts.type ? { unitType: opts.type } : {}) };
      const { data: unit } = await ctx.call(() => saveSegmentAsUnit({ client, body }), { read: false });
      if (ctx.out.asJson) return ctx.out.json(unit);
      ctx.out.line(`Saved as a ${unit.status} ${unit.unitType} unit: ${unit.name} (${unit.id}).`);
      ctx.out.record({ when: unit.when, then: unit.then });
    });
}

/**
 * Runs the question (or resume) and, while it pauses, asks the pending questions on a terminal
 * and resumes with the answers. Without a terminal a pause ends the command with exit 4.
 */
async function converse(ctx: Context, client: ReturnType<Context['client']>, first: InferenceRequest): Promise<void> {
  const c = ctx.out.color;
  // Not idempotent: every run and resume writes a log entry (and resuming consumes the session).
  const ask = (body: InferenceRequest) => ctx.call(() => runInference({ client, body }), { read: false }).then((r) => r.data);
  let data: InferenceResult = await ask(first);
  while (data.pendingQuestions.length > 0) {
    if (!interactive()) {
      if (ctx.out.asJson) ctx.out.json(data);
      else {
        for (const line of pausedLines(data, c, { listQuestions: true })) ctx.out.line(line);
        ctx.out.line(`Answer with: lemma resume ${data.sessionId} ${answerFlags(data.pendingQuestions)}`);
      }
      process.exitCode = EXIT.paused;
      return;
    }
    // Prompts go to stderr under --json, so stdout carries the final data only.
    if (!ctx.out.asJson) for (const line of pausedLines(data, c, { listQuestions: false })) ctx.out.line(line);
    const sessionId = data.sessionId!;
    const answers: Answers = {};
    for (const q of data.pendingQuestions) {
      try {
        answers[q.name] = await select(
          { message: q.question, choices: q.options.map((o) => ({ name: o, value: o })) },
          ctx.out.asJson ? { output: process.stderr } : {},
        );
      } catch (err) {
        if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError')) {
          throw new CliError('interrupted', EXIT_INTERRUPTED, `The session ${sessionId} stays paused: answer later with \`lemma resume ${sessionId} ${answerFlags(data.pendingQuestions)}\`.`);
        }
        throw err;
      }
    }
    if (!ctx.out.asJson) ctx.out.line('');
    data = await ask({ sessionId, additionalInputs: answers });
  }
  if (ctx.out.asJson) return ctx.out.json(data);
  for (const line of answerLines(data, c)) ctx.out.line(line);
}

/** A domain id (`dom_…`) as is; anything else is looked up as a slug among the organization's domains. */
async function resolveDomain(ctx: Context, value: string): Promise<string> {
  if (value.includes('_')) return value;
  const client = ctx.client();
  const { items } = await ctx.list((page) => listDomains({ client, query: page }), { all: true });
  const domain = items.find((d) => d.slug === value);
  if (!domain) throw new CliError(`no domain with the slug ${JSON.stringify(value)}`, EXIT.api, 'Pass a domain id (dom_…) or one of: ' + (items.map((d) => d.slug).join(', ') || 'none'));
  return domain.id;
}
