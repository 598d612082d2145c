/** Validated `limit`/`offset` (bounds are enforced by the contract, not clamped). */
export interface Page {
  limit: number;
  offset: number;
}

export function pageOf(query: Record<string, unknown>, defaultLimit = 20): Page {
  return {
    limit: typeof query.limit === 'number' ? query.limit : defaultLimit,
    offset: typeof query.offset === 'number' ? query.offset : 0,
  };
}
