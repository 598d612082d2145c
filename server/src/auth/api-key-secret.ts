import { hash, randomBytes } from 'node:crypto';

/** Keys are `lemma_pk_<32 lowercase hex>` (DESIGN §2, §4). */
export const API_KEY_PATTERN = /^lemma_pk_[0-9a-f]{32}$/;

export function generateApiKey(): string {
  return `lemma_pk_${randomBytes(16).toString('hex')}`;
}

/**
 * Only this digest is stored; lookup is by digest. Runs on every authenticated request: the
 * one-shot `crypto.hash` (Node >= 20.12) skips creating a Hash object per call.
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** The visible start of a key (first 12 characters), to recognise it in lists. */
export function keyStart(key: string): string {
  return key.slice(0, 12);
}
