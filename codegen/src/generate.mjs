#!/usr/bin/env node
// Generates the SDK client (sdk/src/gen) from openapi.yaml with @hey-api/openapi-ts.
//
//   node codegen/src/generate.mjs          regenerate sdk/src/gen in place
//   node codegen/src/generate.mjs --check  generate into a temp dir and fail (exit 1) when
//                                          sdk/src/gen differs, naming the stale files
//
// The output is deterministic: no formatter or linter runs over it (their versions would
// become part of the output), and the generator, its plugins and options are pinned here.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@hey-api/openapi-ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const specPath = path.join(repoRoot, 'openapi.yaml');
const genDir = path.join(repoRoot, 'sdk', 'src', 'gen');
const sdkTsConfig = path.join(repoRoot, 'sdk', 'tsconfig.json');

const STALE_HINT = 'generated SDK is stale: run npm run codegen';

/** Runs the generator, writing a fresh client into `outDir` (which it empties first). */
async function generate(outDir) {
  await createClient({
    input: specPath,
    output: {
      path: outDir,
      clean: true,
      module: { extension: '.js' },
      // Explicit so that the temp-dir output of --check is configured exactly like the real one.
      tsConfigPath: sdkTsConfig,
      postProcess: [],
    },
    plugins: [
      '@hey-api/typescript',
      // `client` is a required option of every operation (no fallback to a module singleton),
      // and operations resolve to the response body.
      { name: '@hey-api/sdk', client: false, responseStyle: 'data' },
      // The operation types assume throwOnError; createLemmaClient() sets it, and the baseUrl.
      { name: '@hey-api/client-fetch', baseUrl: false, throwOnError: true },
    ],
    // Silent: the generator's banner and progress lines are noise here; its failures are
    // thrown (as a JobError) and reported by main().
    logs: { file: false, level: 'silent' },
  });
}

/** Lists the files under `dir` as sorted POSIX paths relative to it. */
async function listFiles(dir) {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** Compares two trees file by file; returns the relative paths that differ, with a reason. */
async function diffTrees(expectedDir, actualDir) {
  const expected = await listFiles(expectedDir);
  const actual = await listFiles(actualDir);
  const actualSet = new Set(actual);
  const expectedSet = new Set(expected);
  const stale = [];
  for (const file of expected) {
    if (!actualSet.has(file)) {
      stale.push(`${file} (missing)`);
      continue;
    }
    const [want, have] = await Promise.all([
      readFile(path.join(expectedDir, file)),
      readFile(path.join(actualDir, file)),
    ]);
    if (!want.equals(have)) stale.push(`${file} (differs)`);
  }
  for (const file of actual) {
    if (!expectedSet.has(file)) stale.push(`${file} (unexpected: the generator no longer produces it)`);
  }
  return stale;
}

async function check() {
  const tmp = await mkdtemp(path.join(tmpdir(), 'lemma-codegen-'));
  try {
    const fresh = path.join(tmp, 'gen');
    await generate(fresh);
    const stale = await diffTrees(fresh, genDir);
    const shown = path.relative(repoRoot, genDir);
    if (stale.length > 0) {
      console.error(`${STALE_HINT}\n${stale.map((file) => `  ${shown}/${file}`).join('\n')}`);
      return 1;
    }
    console.log(`${shown} is up to date with openapi.yaml`);
    return 0;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The generator wraps failures in a JobError whose own message is empty. */
function describeError(error) {
  const inner = error?.originalError?.error ?? error;
  return inner instanceof Error ? inner.message || inner.name : String(inner);
}

async function main(args) {
  const unknown = args.filter((arg) => arg !== '--check');
  if (unknown.length > 0) {
    console.error(`unknown argument(s): ${unknown.join(' ')}\nusage: generate.mjs [--check]`);
    return 2;
  }
  if (args.includes('--check')) return check();
  await generate(genDir);
  console.log(`generated ${path.relative(repoRoot, genDir)} from openapi.yaml`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`codegen failed: ${describeError(error)}`);
    process.exitCode = 1;
  },
);
