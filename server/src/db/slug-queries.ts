import type { Db } from './database.js';

/** Slugs of an organization's units, domains or workflows that equal `base` or extend it with a `-n` suffix. */
export async function slugsLike(db: Db, table: 'units' | 'domains' | 'workflows', orgId: string, base: string): Promise<string[]> {
  const rows = await db
    .selectFrom(table)
    .select('slug')
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute();
  return rows.map((r) => r.slug);
}
