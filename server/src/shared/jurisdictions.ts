/**
 * The jurisdictions whose units apply in `code`: itself and the broader ones it is part of
 * (`US-CA` -> `US-CA`, `US`). Units with no jurisdiction apply everywhere, besides these.
 */
export function applicableJurisdictions(code: string): string[] {
  const parts = code.split('-');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('-'));
}
