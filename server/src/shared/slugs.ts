import slugify from '@sindresorhus/slugify';

const MAX_SLUG = 63;
const SUFFIX_ROOM = 6;

/** The kebab-case slug of a name (DESIGN §2), transliterated; `fallback` when nothing is left. */
export function slugOf(name: string, fallback: string): string {
  const slug = slugify(name).slice(0, MAX_SLUG - SUFFIX_ROOM).replace(/-+$/, '');
  return slug.length >= 2 ? slug : fallback;
}

/** `base`, or `base-2`, `base-3`, … : the first not in `taken`. */
export function firstFreeSlug(base: string, taken: readonly string[]): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}
