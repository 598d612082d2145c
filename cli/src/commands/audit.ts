import {
  type AuditEntry, type InferenceLogEntry, type InferenceMode, type LemmaClient, listAuditEntries, type ListAuditEntriesData, listInferenceLogs,
  MAX_PAGE_SIZE,
} from '@lemma/sdk';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { Context } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { crlfCounter, type ExportStats, formatBytes, openExportTarget, SourceError, writeExport } from '../export-file.js';

type AuditQuery = NonNullable<ListAuditEntriesData['query']>;

interface AuditFilterFlags {
  action?: string;
  resourceType?: string;
  resourceId?: string;
  user?: string;
  since?: string;
  until?: string;
}

interface PageFlags {
  limit?: number;
  offset?: number;
  all?: boolean;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** An ISO 8601 instant; a bare date means its first (--since) or last (--until) millisecond, UTC. */
function instant(edge: 'start' | 'end') {
  return (value: string): string => {
    const text = DATE_ONLY.test(value) ? `${value}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}Z` : value;
    const ms = Date.parse(text);
    if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}/.test(value)) throw new InvalidArgumentError('expected an ISO 8601 date or date-time, e.g. 2026-11-01 or 2026-11-01T09:30:00Z');
    return new Date(ms).toISOString();
  };
}

function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return n;
  };
}

function withDateFilters(cmd: Command): Command {
  return cmd
    .addOption(new Option('--since <date>', 'entries at or after this instant (ISO 8601; a bare date is its start, UTC)').argParser(instant('start')))
    .addOption(new Option('--until <date>', 'entries at or before this instant (ISO 8601; a bare date is its end, UTC)').argParser(instant('end')));
}

function withAuditFilters(cmd: Command): Command {
  return withDateFilters(
    cmd
      .option('--action <action>', 'only this action, e.g. member.invited')
      .option('--resource-type <type>', 'only this resource type, e.g. member, api_key, unit')
      .option('--resource-id <id>', 'only this resource')
      .option('--user <userId>', 'only actions by this user (usr_…)'),
  );
}

function withPageFlags(cmd: Command): Command {
  return cmd
    .addOption(new Option('--limit <n>', `entries per page (1 to ${MAX_PAGE_SIZE})`).argParser(integer(1, MAX_PAGE_SIZE)).default(20))
    .addOption(new Option('--offset <n>', 'entries to skip').argParser(integer(0, Number.MAX_SAFE_INTEGER)).default(0))
    .option('--all', 'every matching entry (fetched 200 at a time)');
}

const auditQuery = (f: AuditFilterFlags): AuditQuery => {
  const q: AuditQuery = {};
  if (f.action) q.action = f.action;
  if (f.resourceType) q.resourceType = f.resourceType;
  if (f.resourceId) q.resourceId = f.resourceId;
  if (f.user) q.userId = f.user;
  if (f.since) q.startDate = f.since;
  if (f.until) q.endDate = f.until;
  return q;
};

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const when = (iso: string) => iso.replace('T', ' ').replace(/\.\d{3}Z$/, 'Z');

function setup<T>(cmd: Command): { ctx: Context; client: LemmaClient; opts: T } {
  const opts = cmd.optsWithGlobals<T & Record<string, unknown>>();
  const ctx = Context.from(opts);
  return { ctx, client: ctx.client(), opts };
}

function footer(ctx: Context, shown: number, total: number, flags: PageFlags): void {
  if (flags.all || shown >= total) return;
  const from = (flags.offset ?? 0) + 1;
  ctx.out.note(ctx.out.color.dim(shown === 0 ? `${total} in all.` : `Entries ${from}–${from + shown - 1} of ${total}: --offset ${from + shown - 1} for more, or --all.`));
}

export function registerAuditCommands(program: Command): void {
  const audit = program
    .command('audit')
    .description("The organization's audit log and inference log")
    .addHelpText(
      'after',
      `
Filters: --since/--until take ISO 8601 instants (a bare date covers that whole UTC day).
The hash chain is verified on the server: \`lemma-server audit verify --org <slug>\`.`,
    );

  withPageFlags(withAuditFilters(audit.command('list').description('Audit entries, newest first'))).action(async (_o, cmd: Command) => {
    const { ctx, client, opts } = setup<AuditFilterFlags & PageFlags>(cmd);
    const query = auditQuery(opts);
    const { items, total } = await ctx.list((page) => listAuditEntries({ client, query: { ...query, ...page } }), opts);
    if (ctx.out.asJson) return ctx.out.json(items);
    ctx.out.table(items, [
      { header: 'createdAt', value: (e: AuditEntry) => when(e.createdAt) },
      { header: 'action', value: (e) => e.action },
      { header: 'user', value: (e) => e.userId ?? 'system' },
      { header: 'resource', value: (e) => `${e.resourceType} ${e.resourceId}` },
      { header: 'details', value: (e) => truncate(JSON.stringify(e.details), 60) },
    ]);
    footer(ctx, items.length, total, opts);
  });

  withAuditFilters(
    audit
      .command('export')
      .description('Write every matching audit entry to a file (or stdout), streaming, in constant memory')
      .addOption(new Option('--format <format>', 'csv (the server\'s RFC 4180 export, admin only), json (one array) or jsonl (one entry per line)').choices(['csv', 'json', 'jsonl']).makeOptionMandatory())
      .requiredOption('--out <file>', 'the file to write, or - for stdout')
      .option('--force', 'replace --out if it exists')
      .option('--no-progress', 'no progress bar (it is shown only when stderr is a terminal)'),
  )
    .addHelpText(
      'after',
      `
The export is written to <out>.partial-<pid> in the same directory and renamed to <out> only
once complete; on any failure (server, network, disk) that file is removed and nothing is left
at <out>. JSON exports are fixed at the newest matching entry when they start, so entries
written meanwhile neither shift the pages nor appear half-way.`,
    )
    .action(async (_o, cmd: Command) => {
      const { ctx, client, opts } = setup<AuditFilterFlags & { format: 'csv' | 'json' | 'jsonl'; out: string; force?: boolean; progress: boolean }>(cmd);
      const query = auditQuery(opts);
      const target = await openExportTarget(opts.out, opts.force === true);
      const showProgress = opts.progress !== false && process.stderr.isTTY === true;
      let total: number | undefined;
      let stats: ExportStats;
      if (opts.format === 'csv') {
        const countRows = crlfCounter();
        let header = true;
        stats = await writeExport(
          target,
          () => csvSource(ctx, client, query, showProgress ? (n) => (total = n) : undefined),
          {
            showProgress,
            total: () => total,
            // Every record ends with CRLF; the first one is the header.
            countRows: (chunk) => {
              let n = countRows(chunk);
              if (header && n > 0) {
                header = false;
                n -= 1;
              }
              return n;
            },
          },
        );
      } else {
        stats = await writeExport(target, (meter) => jsonSource(ctx, client, query, opts.format === 'jsonl', meter, (n) => (total = n)), { showProgress, total: () => total });
      }
      const where = opts.out === '-' ? 'stdout' : opts.out;
      if (ctx.out.asJson && opts.out !== '-') return ctx.out.json({ out: opts.out, format: opts.format, rows: stats.rows, bytes: stats.bytes });
      ctx.out.note(`Exported ${stats.rows.toLocaleString('en-US')} audit entr${stats.rows === 1 ? 'y' : 'ies'} (${formatBytes(stats.bytes)}, ${opts.format}) to ${where}.`);
    });

  withPageFlags(
    withDateFilters(
      audit
        .command('inference')
        .description('The inference log: one entry per question and per resume, newest first (admins see everyone\'s)')
        .option('--user <userId>', 'only questions by this user (admins)')
        .option('--session <sessionId>', 'only the runs of this inference session')
        .addOption(new Option('--mode <mode>', 'only runs with this coverage').choices(['full_coverage', 'partial_coverage', 'neural_only'])),
    ),
  ).action(async (_o, cmd: Command) => {
    const { ctx, client, opts } = setup<{ user?: string; session?: string; mode?: InferenceMode; since?: string; until?: string } & PageFlags>(cmd);
    const query: NonNullable<Parameters<typeof listInferenceLogs>[0]['query']> = {};
    if (opts.user) query.userId = opts.user;
    if (opts.session) query.sessionId = opts.session;
    if (opts.mode) query.mode = opts.mode;
    if (opts.since) query.startDate = opts.since;
    if (opts.until) query.endDate = opts.until;
    const { items, total } = await ctx.list((page) => listInferenceLogs({ client, query: { ...query, ...page } }), opts);
    if (ctx.out.asJson) return ctx.out.json(items);
    ctx.out.table(items, [
      { header: 'createdAt', value: (e: InferenceLogEntry) => when(e.createdAt) },
      { header: 'id', value: (e) => e.id },
      { header: 'user', value: (e) => e.userId },
      { header: 'mode', value: (e) => e.mode },
      { header: 'coverage', value: (e) => `${Math.round(e.coveragePercent)}%` },
      { header: 'units', value: (e) => e.unitsFired.length },
      { header: 'ms', value: (e) => e.durationMs },
      { header: 'query', value: (e) => (e.query === null ? '' : truncate(e.query.replace(/\s+/g, ' '), 60)) },
    ]);
    footer(ctx, items.length, total, opts);
  });

  audit
    .command('verify')
    .description('Not available through the API: verify the hash chain on the server')
    .action(() => {
      throw new CliError(
        'the API does not expose the audit hash chain, so it cannot be verified from here',
        EXIT.usage,
        'On the server (with its DATABASE_URL), run: lemma-server audit verify --org <slug>\nIt recomputes every entry\'s hash and exits 1 at the first one that does not verify.',
      );
    });
}

/** Why a download broke off, from fetch's error and its cause (e.g. "terminated: other side closed"). */
function reason(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? err.cause.message : undefined;
  return cause && cause !== err.message ? `${err.message}: ${cause}` : err.message;
}

/** The server's CSV download, passed through byte for byte. */
async function* csvSource(ctx: Context, client: LemmaClient, query: AuditQuery, onTotal?: (n: number) => void): AsyncGenerator<Uint8Array> {
  if (onTotal) {
    // For the progress bar's percentage only: one count, no rows.
    const { meta } = await ctx.call(() => listAuditEntries({ client, query: { ...query, limit: 1 } }), { read: true });
    onTotal(meta.total);
  }
  // parseAs 'stream': the SDK hands over fetch's body (a web ReadableStream) unread.
  const body = (await ctx.call(() => listAuditEntries({ client, query: { ...query, format: 'csv' }, parseAs: 'stream' }), { read: true })) as unknown as AsyncIterable<Uint8Array> | null;
  if (!body) return;
  let bytes = 0;
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      yield chunk;
    }
  } catch (err) {
    throw new SourceError(`the download broke off after ${formatBytes(bytes)} (${reason(err)})`, err);
  }
}

/**
 * Every matching entry as a JSON array (or JSON Lines), page by page (200 at a time).
 * Offset paging over a log that grows would shift under us, so the export is pinned: the newest
 * matching entry's createdAt becomes `endDate` for every page, and a page whose `meta.total`
 * differs from the first page's means the set moved anyway — the export fails rather than skip
 * or repeat an entry.
 */
async function* jsonSource(
  ctx: Context, client: LemmaClient, query: AuditQuery, lines: boolean, meter: { setRows(rows: number): void }, onTotal: (n: number) => void,
): AsyncGenerator<string> {
  const fetchPage = (q: AuditQuery) => ctx.call(() => listAuditEntries({ client, query: q }), { read: true });
  const head = await fetchPage({ ...query, limit: 1, offset: 0 });
  const newest = head.data[0];
  if (!lines) yield '[';
  let written = 0;
  if (newest) {
    const pinned: AuditQuery = { ...query, endDate: newest.createdAt };
    let total: number | undefined;
    while (total === undefined || written < total) {
      const page = await fetchPage({ ...pinned, limit: MAX_PAGE_SIZE, offset: written });
      if (total === undefined) onTotal((total = page.meta.total));
      if (page.meta.total !== total) {
        throw new CliError(`the audit log changed during the export (${total} matching entries at the start, ${page.meta.total} now)`, EXIT.api, 'Run the export again, or bound it with --until.');
      }
      if (page.data.length === 0) throw new CliError(`the server returned no entries at offset ${written} of ${total}`, EXIT.api);
      let chunk = '';
      for (const entry of page.data) {
        chunk += lines ? `${JSON.stringify(entry)}\n` : `${written === 0 ? '\n' : ',\n'}${JSON.stringify(entry)}`;
        written++;
      }
      meter.setRows(written);
      yield chunk;
    }
  }
  if (!lines) yield written === 0 ? ']\n' : '\n]\n';
}
