import type { PageMeta } from './gen/index.js';

/** One page of a list operation: the contract's list envelope. */
export interface Page<TItem> {
  data: TItem[];
  meta: PageMeta;
}

/** Options of {@link paginate}. */
export interface PaginateOptions {
  /** Page size, 1 to 200 (the server's bound). Default 100. */
  limit?: number;
  /** Where to start. Default 0. */
  offset?: number;
}

/** The largest page the server accepts (`limit` above it is a 400, not clamped). */
export const MAX_PAGE_SIZE = 200;
const DEFAULT_PAGE_SIZE = 100;

/**
 * Iterates over every item of a list operation, fetching pages on demand: calls `fetchPage`
 * with `{ limit, offset }`, yields the page's items one by one, and moves `offset` on by the
 * number of items received until `meta.total` is reached (or a page comes back empty).
 * Breaking out of the loop fetches nothing more; a failed page rejects the loop with its error.
 *
 * @throws RangeError when `limit` is not an integer from 1 to 200 or `offset` is negative.
 * @example
 * for await (const entry of paginate((page) => listAuditEntries({ client, query: { ...page, action: 'member.invited' } }))) {
 *   console.log(entry.createdAt, entry.action);
 * }
 */
export async function* paginate<TItem>(
  fetchPage: (page: { limit: number; offset: number }) => Promise<Page<TItem>>,
  options: PaginateOptions = {},
): AsyncGenerator<TItem, void, undefined> {
  const limit = options.limit ?? DEFAULT_PAGE_SIZE;
  let offset = options.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new RangeError(`paginate: limit must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${limit}`);
  }
  if (!Number.isInteger(offset) || offset < 0) {
    throw new RangeError(`paginate: offset must be a non-negative integer, got ${offset}`);
  }
  for (;;) {
    const page = await fetchPage({ limit, offset });
    yield* page.data;
    offset += page.data.length;
    if (page.data.length === 0 || offset >= page.meta.total) return;
  }
}
