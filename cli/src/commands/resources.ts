// Helpers shared by the resource command groups (orgs, members, keys, domains, units, workflows).
import { getCurrentPrincipal, type LemmaClient, listDomains, listMembers, type Member, type Page, paginate } from '@lemma/sdk';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { Context } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import type { Column } from '../output.js';

/** The enums of the contract, for `.choices()` (checked before any request, and completed). */
export const ROLES = ['viewer', 'reviewer', 'author', 'admin'] as const;
export const PLANS = ['free', 'team', 'enterprise'] as const;
export const UNIT_TYPES = ['program', 'framework', 'pattern', 'argument', 'protocol'] as const;
export const UNIT_STATUSES = ['candidate', 'in_review', 'verified', 'partial_verified'] as const;
export const WORKFLOW_STATUSES = ['draft', 'active', 'archived'] as const;
export const EDGE_KINDS = ['feeds', 'requires', 'overrides', 'specializes'] as const;

/** The context and the command's own options. */
export function setup<O>(cmd: Command): { ctx: Context; client: LemmaClient; opts: O } {
  const ctx = Context.from(cmd.optsWithGlobals());
  return { ctx, client: ctx.client(), opts: cmd.opts() as O };
}

export function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(max === Number.MAX_SAFE_INTEGER ? `expected an integer of at least ${min}` : `expected an integer from ${min} to ${max}`);
    }
    return n;
  };
}

/** For repeatable flags: `--unit a --unit b` → ['a', 'b']. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export interface ListFlags {
  limit?: number;
  offset?: number;
  all?: boolean;
}

export function withListOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--limit <n>', 'page size, 1 to 200 (default 20)').argParser(integer(1, 200)))
    .addOption(new Option('--offset <n>', 'rows to skip').argParser(integer(0)))
    .option('--all', 'every page, not only the first');
}

/** Runs a list operation and prints it: the items as JSON, or a table and a paging hint. */
export async function printList<T>(ctx: Context, fetchPage: (page: { limit: number; offset: number }) => Promise<Page<T>>, flags: ListFlags, columns: readonly Column<T>[]): Promise<void> {
  const { items, total } = await ctx.list(fetchPage, flags);
  if (ctx.out.asJson) return ctx.out.json(items);
  ctx.out.table(items, columns);
  const offset = flags.offset ?? 0;
  if (!flags.all && offset + items.length < total) {
    ctx.out.note(`${items.length ? `${offset + 1}-${offset + items.length}` : 'none'} of ${total}: --all for every page, or --offset ${offset + items.length}.`);
  }
}

/** Every item of a list operation (for look-ups by name). */
export async function fetchAll<T>(ctx: Context, fetchPage: (page: { limit: number; offset: number }) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of paginate((page) => ctx.call(() => fetchPage(page), { read: true }), { limit: 200 })) items.push(item);
  return items;
}

/** The organization members and keys act on: --org (LEMMA_ORG, the config file), else the caller's. */
export async function orgSlug(ctx: Context, client: LemmaClient): Promise<string> {
  if (ctx.settings.org) return ctx.settings.org;
  const { data: me } = await ctx.call(() => getCurrentPrincipal({ client }), { read: true });
  return me.organization.slug;
}

/** A domain given by ID or slug, as its ID (what the API's `domainId` takes). */
export async function domainId(ctx: Context, client: LemmaClient, ref: string): Promise<string> {
  const domains = await fetchAll(ctx, (page) => listDomains({ client, query: page }));
  const found = domains.find((d) => d.id === ref) ?? domains.find((d) => d.slug === ref);
  if (!found) throw new CliError(`no domain with the ID or slug ${JSON.stringify(ref)}`, EXIT.api, 'See `lemma domains list`.');
  return found.id;
}

/** A member given by member ID (`mem_…`), user ID or email. */
export async function findMember(ctx: Context, client: LemmaClient, slug: string, ref: string): Promise<Member> {
  const members = await fetchAll(ctx, (page) => listMembers({ client, path: { slug }, query: page }));
  const lower = ref.toLowerCase();
  const found = members.find((m) => m.id === ref || m.userId === ref || m.email.toLowerCase() === lower);
  if (!found) throw new CliError(`no member ${JSON.stringify(ref)} in ${slug}`, EXIT.api, 'Give a member ID, a user ID or an email; see `lemma members list`.');
  return found;
}

/** A user ID, or an email looked up among the organization's members. */
export async function userId(ctx: Context, client: LemmaClient, ref: string, slug?: string): Promise<string> {
  if (!ref.includes('@')) return ref;
  return (await findMember(ctx, client, slug ?? (await orgSlug(ctx, client)), ref)).userId;
}

export const when = (t: string | null | undefined) => (t ? t.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '');
export const percent = (n: number) => `${Math.round(n * 100)}%`;
/** Long text cut for a table cell (--json keeps it whole). */
export const clip = (s: string | null | undefined, max = 60) => (!s ? '' : s.length > max ? `${s.slice(0, max - 1)}…` : s);
