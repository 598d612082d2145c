import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CliError, EXIT } from './errors.js';

/** What `lemma login` stores. */
export interface StoredConfig {
  baseUrl?: string;
  apiKey?: string;
  org?: string;
}

/** `$LEMMA_CONFIG`, else `$XDG_CONFIG_HOME/lemma/config.json`, else `~/.config/lemma/config.json`. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LEMMA_CONFIG) return path.resolve(env.LEMMA_CONFIG);
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'lemma', 'config.json');
}

export function readConfig(file: string): StoredConfig | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CliError(`cannot read ${file}: ${(err as Error).message}`, EXIT.usage);
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as StoredConfig;
  } catch {
    throw new CliError(`${file} is not valid JSON`, EXIT.usage, 'Run `lemma login` again, or `lemma logout` to remove it.');
  }
}

/** Writes the file with mode 0600 (its directory 0700), replacing it in one rename. */
export function writeConfig(file: string, config: StoredConfig): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}

export function removeConfig(file: string): boolean {
  try {
    fs.unlinkSync(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
