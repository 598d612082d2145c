export {
  ProviderError,
  type ChatMessage,
  type Completion,
  type CompletionRequest,
  type ModelProvider,
  type ProviderConfig,
  type ProviderErrorKind,
  type ProviderName,
} from './model-provider.js';
export { createProvider, DEFAULT_MAX_RETRIES, DEFAULT_MAX_TOKENS, DEFAULT_TIMEOUT_MS, type ProviderDeps } from './create-provider.js';
export { MAX_RETRY_AFTER_MS } from './http-transport.js';
