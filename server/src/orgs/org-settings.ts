import type { SecretBox } from '../shared/secret-box.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7386 JSON merge patch: objects merge recursively, `null` removes a key. */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const result: JsonObject = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key] ?? null, value);
  }
  return result;
}

const PROVIDERS = ['openai', 'anthropic'] as const;

/**
 * Settings as stored: provider API keys are replaced by `apiKeyCiphertext` (AES-256-GCM) and
 * `apiKeyHint` (`…` + last 4 characters). Applies a patch from the API to the stored settings.
 */
export function applySettingsPatch(stored: JsonObject, patch: JsonObject, secrets: SecretBox): JsonObject {
  const providers = isObject(patch.llm) && isObject(patch.llm.providers) ? patch.llm.providers : undefined;
  if (providers) {
    for (const name of PROVIDERS) {
      const p = providers[name];
      if (!isObject(p) || !('apiKey' in p)) continue;
      const { apiKey, ...rest } = p;
      providers[name] =
        typeof apiKey === 'string'
          ? { ...rest, apiKeyCiphertext: secrets.encrypt(apiKey), apiKeyHint: `…${apiKey.slice(-4)}` }
          : { ...rest, apiKeyCiphertext: null, apiKeyHint: null };
    }
  }
  const merged = withoutEmptyObjects(mergePatch(stored, patch));
  return isObject(merged) ? merged : {};
}

/** Sections left empty by a removal (`{ llm: { providers: {} } }`) mean nothing: drop them. */
function withoutEmptyObjects(value: Json): Json {
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    const pruned = withoutEmptyObjects(v);
    if (!(isObject(pruned) && Object.keys(pruned).length === 0)) out[key] = pruned;
  }
  return out;
}

/** Settings as the API shows them: secrets redacted to their hint. */
export function publicSettings(stored: JsonObject): JsonObject {
  const copy = structuredClone(stored);
  const providers = isObject(copy.llm) && isObject(copy.llm.providers) ? copy.llm.providers : undefined;
  if (providers) {
    for (const name of PROVIDERS) {
      const p = providers[name];
      if (!isObject(p)) continue;
      const { apiKeyCiphertext: _secret, apiKeyHint, ...rest } = p;
      providers[name] = apiKeyHint ? { ...rest, apiKey: apiKeyHint } : rest;
    }
  }
  return copy;
}

/** The settings keys a patch touched (for the audit entry; never values, which may be secret). */
export function changedPaths(patch: Json, prefix = 'settings'): string[] {
  if (!isObject(patch)) return [prefix];
  return Object.entries(patch).flatMap(([k, v]) => (isObject(v) ? changedPaths(v, `${prefix}.${k}`) : [`${prefix}.${k}`]));
}

export type { JsonObject };
