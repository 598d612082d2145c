import fs from 'node:fs';
import path from 'node:path';
import { usageError } from './errors.js';

/**
 * Reads a JSON or YAML document given on the command line (`--file unit.yaml`, `-` for stdin).
 * `.json` files are parsed as JSON, `.yaml`/`.yml` as YAML, anything else as JSON and then
 * YAML. The document must be an object. Only the syntax is checked here: the server validates
 * the content (its 400 names the offending field).
 */
export async function readDataFile(file: string, what = 'file'): Promise<Record<string, unknown>> {
  const label = file === '-' ? 'stdin' : file;
  let text: string;
  try {
    text = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw usageError(`${what} ${label} does not exist`);
    if (code === 'EISDIR') throw usageError(`${what} ${label} is a directory, not a JSON or YAML file`);
    throw usageError(`cannot read ${what} ${label}: ${(err as Error).message}`);
  }
  const ext = file === '-' ? '' : path.extname(file).toLowerCase();
  // yaml is loaded only when a file is read: every `lemma` start stays lighter.
  const { parse: parseYaml } = await import('yaml');
  return asObject(parseDocument(text, ext, label, parseYaml), label);
}

/** `--settings '{"a":1}'` or `--settings @settings.yaml`. */
export async function readJsonArgument(value: string, flag: string): Promise<Record<string, unknown>> {
  if (value.startsWith('@')) return readDataFile(value.slice(1), `${flag} file`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (err) {
    throw usageError(`${flag} is not valid JSON: ${(err as Error).message}`, `Pass a JSON object, or @file for a JSON or YAML file.`);
  }
  return asObject(parsed, flag);
}

function parseDocument(text: string, ext: string, label: string, parseYaml: (text: string) => unknown): unknown {
  const asJson = () => {
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw usageError(`${label} is not valid JSON: ${(err as Error).message}`);
    }
  };
  const asYaml = () => {
    try {
      return parseYaml(text) as unknown;
    } catch (err) {
      throw usageError(`${label} is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
    }
  };
  if (ext === '.json') return asJson();
  if (ext === '.yaml' || ext === '.yml') return asYaml();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    try {
      return parseYaml(text) as unknown;
    } catch {
      throw usageError(`${label} is neither valid JSON nor valid YAML`);
    }
  }
}

function asObject(value: unknown, label: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usageError(`${label} must hold a JSON/YAML object (a mapping), not ${value === null || value === undefined ? 'nothing' : Array.isArray(value) ? 'a list' : `a ${typeof value}`}`);
  }
  return value as Record<string, unknown>;
}
