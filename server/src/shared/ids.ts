import { monotonicFactory } from 'ulidx';

const ulid = monotonicFactory();

export type IdPrefix = 'org' | 'usr' | 'mem' | 'key' | 'aud' | 'unit' | 'rev' | 'edge' | 'wf' | 'dom' | 'inf' | 'ses' | 'gap' | 'fb' | 'ml';

/** A prefixed, time-sortable, opaque ID such as `org_01jd5x2m3k8r4t6v9w0y1z2a3b`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid().toLowerCase()}`;
}

export function nowIso(): string {
  return new Date().toISOString();
}
