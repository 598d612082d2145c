import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { type Document, OpenAPIBackend } from 'openapi-backend';
import { parse } from 'yaml';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The contract this build was made from (openapi.yaml, copied beside the compiled code). */
export const CONTRACT_PATH = fileURLToPath(new URL('../openapi.yaml', import.meta.url));

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, unknown>> };

export function loadContract(file = CONTRACT_PATH): OpenApiDocument {
  // `merge: true` expands YAML anchors and merge keys; the result is plain JSON.
  return parse(fs.readFileSync(file, 'utf8'), { merge: true, maxAliasCount: -1 }) as OpenApiDocument;
}

/**
 * openapi-backend over the contract, initialised: Ajv 2020 with formats (a 3.1 document), every
 * `$ref` inlined, validators compiled on demand. `forRequests` adds what request validation needs:
 * query/path coercion and schema defaults. Shared by the server and the tests' response checks.
 */
export async function contractBackend(document: OpenApiDocument, opts: { forRequests: boolean }): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    definition: await dereferenced(document),
    apiRoot: '/api/v1',
    strict: true,
    quick: true,
    validate: true,
    coerceTypes: opts.forRequests,
    customizeAjv: (_ajv, ajvOpts) =>
      addFormats(new Ajv2020({ ...ajvOpts, strict: false, useDefaults: opts.forRequests, allErrors: false })) as never,
  });
  // openapi-backend checks definitions against the 3.0 schema; the 3.1 document is linted by Redocly.
  api.validateDefinition = () => api.document;
  await api.init();
  return api;
}

/**
 * The contract with every `$ref` replaced by its own copy of the target. openapi-backend's
 * response validator turns objects shared between places into JSON-pointer `$ref`s that Ajv then
 * rejects (`enum must be array`), so no two places may share an object.
 */
async function dereferenced(document: OpenApiDocument): Promise<Document> {
  const resolved = await $RefParser.dereference(structuredClone(document) as never);
  return JSON.parse(JSON.stringify(resolved)) as Document;
}
