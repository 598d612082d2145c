import { isPlainObject, joinUrl, type WireFormat } from './wire-format.js';

/** The Messages API version every request pins. */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * Anthropic Messages API (`POST {baseUrl}/v1/messages`). JSON output forces one tool whose
 * `input_schema` is the requested schema and reads the `tool_use` block's `input`.
 */
export const anthropicMessages: WireFormat = {
  name: 'anthropic',
  defaultBaseUrl: 'https://api.anthropic.com',

  // A base URL given with the `/v1` suffix (as OpenAI-style URLs are) is accepted too.
  endpoint: (baseUrl) => joinUrl(new URL(baseUrl.href.replace(/\/v1\/*$/, '')), '/v1/messages'),

  headers: (apiKey) => ({
    'content-type': 'application/json',
    accept: 'application/json',
    'anthropic-version': ANTHROPIC_VERSION,
    ...(apiKey ? { 'x-api-key': apiKey } : {}),
  }),

  body(model, req, { maxTokens }) {
    const body: Record<string, unknown> = { model, max_tokens: maxTokens };
    if (req.system) body.system = req.system;
    body.messages = req.messages;
    if (req.temperature !== undefined) body.temperature = req.temperature;
    if (req.json) {
      body.tools = [
        {
          name: req.json.name,
          description: 'Record the answer. Its input must match the schema exactly.',
          input_schema: req.json.schema,
        },
      ];
      body.tool_choice = { type: 'tool', name: req.json.name };
    }
    return body;
  },

  parse(reply, req, malformed) {
    if (!isPlainObject(reply) || reply.type !== 'message' || !Array.isArray(reply.content)) {
      throw malformed('the response is not a message with a content array');
    }
    const blocks = reply.content.filter(isPlainObject);
    const stop = typeof reply.stop_reason === 'string' ? reply.stop_reason : 'unknown';
    const model = typeof reply.model === 'string' ? reply.model : undefined;
    if (req.json) {
      const name = req.json.name;
      const use = blocks.find((b) => b.type === 'tool_use' && b.name === name);
      if (!use) throw malformed(`the response has no tool_use block for "${name}" (stop_reason ${stop})`);
      if (!isPlainObject(use.input)) throw malformed(`the tool_use input is not an object (stop_reason ${stop})`);
      return { text: JSON.stringify(use.input), json: use.input, model };
    }
    const texts = blocks.filter((b) => b.type === 'text' && typeof b.text === 'string').map((b) => b.text as string);
    if (texts.length === 0) throw malformed(`the response has no text block (stop_reason ${stop})`);
    return { text: texts.join(''), model };
  },
};
