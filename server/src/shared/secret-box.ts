import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * AES-256-GCM for secrets kept at rest (provider API keys, inference queries). Ciphertexts carry
 * the id of their key (`v1:<keyId>:<iv>:<tag>:<data>`, base64url) so that keys can rotate.
 */
export interface SecretBox {
  readonly keyId: string;
  encrypt(plaintext: string): string;
  decrypt(ciphertext: string): string;
  /**
   * A keyed fingerprint (HMAC-SHA256, hex) to group equal secrets without storing them in the
   * clear; it changes when the key rotates.
   */
  fingerprint(plaintext: string): string;
}

const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

function parseKey(raw: string, source: string): Buffer {
  const trimmed = raw.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error(`${source} must hold a 32-byte key (64 hex characters or base64)`);
  return key;
}

/**
 * The key comes from `LEMMA_ENCRYPTION_KEY` (required when several nodes share a database), else
 * from `<dataDir>/encryption.key`, created with mode 0600 on first start. Older keys may be listed
 * in `LEMMA_ENCRYPTION_OLD_KEYS` (comma-separated) to decrypt data written before a rotation.
 */
export function loadSecretBox(opts: { envKey?: string | undefined; oldKeys?: string | undefined; dataDir: string }): SecretBox {
  let key: Buffer;
  if (opts.envKey) {
    key = parseKey(opts.envKey, 'LEMMA_ENCRYPTION_KEY');
  } else {
    const file = path.join(opts.dataDir, 'encryption.key');
    if (!fs.existsSync(file)) {
      fs.mkdirSync(opts.dataDir, { recursive: true });
      try {
        fs.writeFileSync(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    key = parseKey(fs.readFileSync(file, 'utf8'), file);
  }
  const keys = new Map<string, Buffer>([[keyIdOf(key), key]]);
  for (const old of (opts.oldKeys ?? '').split(',').filter(Boolean)) {
    const k = parseKey(old, 'LEMMA_ENCRYPTION_OLD_KEYS');
    keys.set(keyIdOf(k), k);
  }
  const keyId = keyIdOf(key);
  const fingerprintKey = createHmac('sha256', key).update('lemma fingerprint v1').digest();
  return {
    keyId,
    fingerprint: (plaintext) => createHmac('sha256', fingerprintKey).update(plaintext).digest('hex'),
    encrypt(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
    },
    decrypt(ciphertext) {
      const [version, id, iv, tag, data] = ciphertext.split(':');
      const k = id ? keys.get(id) : undefined;
      if (version !== 'v1' || !k || !iv || !tag || data === undefined) throw new Error('ciphertext is malformed or its key is unknown');
      const decipher = createDecipheriv('aes-256-gcm', k, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
