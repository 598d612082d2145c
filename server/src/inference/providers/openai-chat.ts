import { isPlainObject, joinUrl, type WireFormat } from './wire-format.js';

/** ```json … ``` around the whole output, as some local models write despite `response_format`. */
const FENCED = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?\s*```\s*$/;

/**
 * OpenAI Chat Completions (`POST {baseUrl}/chat/completions`), also spoken by vLLM, Ollama and
 * llama.cpp's server. JSON output uses `response_format: { type: 'json_schema', json_schema }`.
 */
export const openAiChat: WireFormat = {
  name: 'openai',
  defaultBaseUrl: 'https://api.openai.com/v1',

  endpoint: (baseUrl) => joinUrl(baseUrl, '/chat/completions'),

  headers: (apiKey) => ({
    'content-type': 'application/json',
    accept: 'application/json',
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  }),

  body(model, req, { hosted, maxTokens }) {
    const body: Record<string, unknown> = {
      model,
      messages: [...(req.system ? [{ role: 'system', content: req.system }] : []), ...req.messages],
      // OpenAI's reasoning models reject `max_tokens`; Ollama and older llama.cpp only read it.
      [hosted ? 'max_completion_tokens' : 'max_tokens']: maxTokens,
      stream: false,
    };
    if (req.temperature !== undefined) body.temperature = req.temperature;
    if (req.json) {
      body.response_format = {
        type: 'json_schema',
        json_schema: { name: req.json.name, schema: req.json.schema, strict: req.json.strict ?? true },
      };
    }
    return body;
  },

  parse(reply, req, malformed) {
    if (!isPlainObject(reply)) throw malformed('the response is not a JSON object');
    const choice = Array.isArray(reply.choices) ? reply.choices[0] : undefined;
    if (!isPlainObject(choice) || !isPlainObject(choice.message)) {
      const err = isPlainObject(reply.error) && typeof reply.error.message === 'string' ? `: ${reply.error.message}` : '';
      throw malformed(`the response has no choices[0].message${err}`);
    }
    const { content, refusal } = choice.message;
    const finish = typeof choice.finish_reason === 'string' ? choice.finish_reason : 'unknown';
    if (typeof refusal === 'string' && refusal.length > 0) throw malformed(`the model refused: ${refusal}`);
    if (typeof content !== 'string') throw malformed(`choices[0].message.content is not a string (finish_reason ${finish})`);
    const model = typeof reply.model === 'string' ? reply.model : undefined;
    if (!req.json) return { text: content, model };

    let json: unknown;
    try {
      json = JSON.parse(content.match(FENCED)?.[1] ?? content);
    } catch {
      throw malformed(`the model's JSON output does not parse (finish_reason ${finish})`);
    }
    if (!isPlainObject(json)) throw malformed(`the model's JSON output is not an object (finish_reason ${finish})`);
    return { text: content, json, model };
  },
};
