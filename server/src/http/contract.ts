import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The contract this build was made from (openapi.yaml, copied beside the compiled code). */
export const CONTRACT_PATH = fileURLToPath(new URL('../openapi.yaml', import.meta.url));

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, unknown>> };

export function loadContract(file = CONTRACT_PATH): OpenApiDocument {
  // `merge: true` expands YAML anchors and merge keys; the result is plain JSON.
  return parse(fs.readFileSync(file, 'utf8'), { merge: true, maxAliasCount: -1 }) as OpenApiDocument;
}
