import type { ProviderFamily, SdkCallOptions } from './sdk-prompt.ts';
import { MODEL_PROVIDERS } from './providers.ts';
import type { PromptCacheRequest } from './types.ts';

// What a request carries so the provider can read its prefix from the prompt cache.
//
// Anthropic caches only up to the breakpoints a request marks (`cache_control`; at most four): one
// on the system prompt (the tools come before it, so it covers them too), one on the last message
// the previous request sent (the end of the prefix this one shares with it, read back even when
// the step added more than the 20 blocks the API looks back over), and one on the newest message
// (written now, read by the next request). OpenAI caches every long prefix by itself; a
// `prompt_cache_key` per session keeps one session's requests on the machines that hold its
// prefix. An OpenAI-compatible server gets neither: an option it does not know may break it.

type SdkPrompt = SdkCallOptions['prompt'];
type SdkMessage = SdkPrompt[number];
type ProviderOptions = NonNullable<SdkCallOptions['providerOptions']>;

function mark(message: SdkMessage | undefined, cacheControl: Record<string, string>): void {
  if (message === undefined) return;
  message.providerOptions = { ...message.providerOptions, anthropic: { cacheControl } } as ProviderOptions;
}

/** The prompt with its breakpoints marked, for a provider that caches at breakpoints; others get it as it is. */
export function markCacheBreakpoints(
  prompt: SdkPrompt,
  family: ProviderFamily,
  cache: PromptCacheRequest | undefined,
): SdkPrompt {
  if (cache === undefined || MODEL_PROVIDERS[family].promptCache !== 'breakpoints') return prompt;
  const cacheControl = { type: 'ephemeral', ...(cache.ttl === '1h' ? { ttl: '1h' } : {}) };
  const system = prompt.find((message) => message.role === 'system');
  mark(system, cacheControl);
  const lastAssistant = prompt.findLastIndex((message) => message.role === 'assistant');
  if (lastAssistant > 0 && prompt[lastAssistant - 1]?.role !== 'system') mark(prompt[lastAssistant - 1], cacheControl);
  const last = prompt.at(-1);
  if (last?.role !== 'system') mark(last, cacheControl);
  return prompt;
}

/** The request-wide options a provider takes for its cache: OpenAI's per-session key. */
export function cacheProviderOptions(
  family: ProviderFamily,
  cache: PromptCacheRequest | undefined,
): ProviderOptions | undefined {
  if (cache === undefined || MODEL_PROVIDERS[family].promptCache !== 'key') return undefined;
  return { openai: { promptCacheKey: cache.key } };
}
