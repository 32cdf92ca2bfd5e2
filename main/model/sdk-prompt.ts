import type { LanguageModel } from 'ai';
import { isRecord } from '../../protocol/json.ts';
import type { ReasoningEffort } from '../../protocol/events.ts';
import type { ProviderName } from '../../protocol/providers.ts';
import { cacheProviderOptions, markCacheBreakpoints } from './prompt-cache.ts';
import { MODEL_PROVIDERS } from './providers.ts';
import type { ChatImage, ChatMessage, ModelRequest, ReasoningBlock, ToolSpec } from './types.ts';

// Translates the neutral conversation to the AI SDK's language-model call options (provider
// spec v4), which each provider then writes in its own wire format.

export type SdkLanguageModel = Extract<LanguageModel, { specificationVersion: 'v4' }>;
export type SdkCallOptions = Parameters<SdkLanguageModel['doStream']>[0];
type SdkPrompt = SdkCallOptions['prompt'];
type SdkMessage = SdkPrompt[number];
type SdkAssistantPart = Extract<SdkMessage, { role: 'assistant' }>['content'][number];
type SdkToolResultPart = Extract<Extract<SdkMessage, { role: 'tool' }>['content'][number], { type: 'tool-result' }>;
type SdkTool = NonNullable<SdkCallOptions['tools']>[number];
type JsonSchema = Extract<SdkTool, { type: 'function' }>['inputSchema'];
type ProviderOptions = NonNullable<SdkCallOptions['providerOptions']>;

/** The adapter families, one per provider record (main/model/providers.ts); `anthropic` is also the demo's. */
export type ProviderFamily = ProviderName;

function reasoningParts(blocks: ReasoningBlock[] | undefined, family: ProviderFamily): SdkAssistantPart[] {
  // Only the provider that signed a reasoning block can verify it; others never see it.
  return (blocks ?? [])
    .filter((block) => block.provider === family)
    .map((block) => ({
      type: 'reasoning' as const,
      text: block.text,
      ...(block.data === undefined ? {} : { providerOptions: { [family]: block.data } as ProviderOptions }),
    }));
}

function assistantMessage(message: Extract<ChatMessage, { role: 'assistant' }>, family: ProviderFamily): SdkMessage {
  const content: SdkAssistantPart[] = reasoningParts(message.reasoning, family);
  // Anthropic refuses empty text blocks; a step that only called tools has no text.
  if (message.content.length > 0) content.push({ type: 'text', text: message.content });
  for (const call of message.tool_calls) {
    // Arguments that were not a JSON object (a model's malformed call) cannot be sent back as one.
    content.push({
      type: 'tool-call',
      toolCallId: call.call_id,
      toolName: call.name,
      input: isRecord(call.args) ? call.args : {},
    });
  }
  return { role: 'assistant', content };
}

/** What a long text is sent as: itself, or a reference the request's fetch replaces (request-texts.ts). */
type Refer = (text: string) => string;
const asItself: Refer = (text) => text;

function toolResult(
  message: Extract<ChatMessage, { role: 'tool' }>,
  family: ProviderFamily,
  refer: Refer,
): SdkToolResultPart {
  const provider = MODEL_PROVIDERS[family];
  // Anthropic marks errors with `is_error`. The OpenAI wire has no such flag and the SDK would wrap
  // the text in JSON; the content goes as it is instead, so the model reads what the log records.
  const asError = message.is_error && provider.toolErrorFlag;
  // Anthropic takes images inside a tool result; the text stays first, naming each image.
  const images = provider.toolImages === 'in-result' && !asError ? (message.images ?? []) : [];
  return {
    type: 'tool-result',
    toolCallId: message.call_id,
    toolName: message.name,
    output: asError
      ? { type: 'error-text', value: refer(message.content) }
      : images.length > 0
        ? { type: 'content', value: [{ type: 'text', text: refer(message.content) }, ...images.map(imagePart)] }
        : { type: 'text', value: refer(message.content) },
  };
}

/** An image as a file part, or a note when its bytes could not be read. */
function imagePart(
  image: ChatImage,
): { type: 'file'; data: { type: 'data'; data: Uint8Array }; mediaType: string } | { type: 'text'; text: string } {
  if (image.data) return { type: 'file', data: { type: 'data', data: image.data }, mediaType: image.media_type };
  // Never silently dropped: the model hears that an image was there.
  return { type: 'text', text: `[An image (${image.media_type}) was here but could not be read.]` };
}

/**
 * OpenAI's chat API takes no images in a tool message, so a step's tool images follow its results
 * as one user message, each introduced by the call it came from.
 */
function toolImagesMessage(messages: readonly Extract<ChatMessage, { role: 'tool' }>[]): SdkMessage | null {
  const content: SdkUserPart[] = [];
  for (const message of messages) {
    if (!message.images?.length || message.is_error) continue;
    content.push({ type: 'text', text: `The images ${message.name} (call ${message.call_id}) returned:` });
    content.push(...message.images.map(imagePart));
  }
  return content.length > 0 ? { role: 'user', content } : null;
}

type SdkUserPart = Extract<SdkMessage, { role: 'user' }>['content'][number];

/** The text, then each image as a file part (Anthropic and OpenAI send it as an image block). */
function userContent(message: Extract<ChatMessage, { role: 'user' }>, refer: Refer): SdkUserPart[] {
  const parts: SdkUserPart[] = [{ type: 'text', text: refer(message.content) }];
  for (const image of message.images ?? []) {
    if (image.data) parts.push({ type: 'file', data: { type: 'data', data: image.data }, mediaType: image.media_type });
    // Never silently dropped: the model hears that an image was there.
    else
      parts.push({ type: 'text', text: `[An image (${image.media_type}) was attached here but could not be read.]` });
  }
  return parts;
}

export function toSdkPrompt(
  system: string,
  messages: ChatMessage[],
  family: ProviderFamily,
  refer: Refer = asItself,
): SdkPrompt {
  const prompt: SdkPrompt = system.length > 0 ? [{ role: 'system', content: refer(system) }] : [];
  // The current step's tool messages, whose images OpenAI receives after them (toolImagesMessage).
  let step: Extract<ChatMessage, { role: 'tool' }>[] = [];
  const endStep = () => {
    const images = MODEL_PROVIDERS[family].toolImages === 'after-results' ? toolImagesMessage(step) : null;
    if (images) prompt.push(images);
    step = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') endStep();
    if (message.role === 'user') {
      prompt.push({ role: 'user', content: userContent(message, refer) });
    } else if (message.role === 'assistant') {
      prompt.push(assistantMessage(message, family));
    } else {
      // The results of one step travel together, answering the step's calls in one message.
      const last = prompt.at(-1);
      if (last?.role === 'tool') last.content.push(toolResult(message, family, refer));
      else prompt.push({ role: 'tool', content: [toolResult(message, family, refer)] });
      step.push(message);
    }
  }
  endStep();
  return prompt;
}

export function toSdkTools(tools: ToolSpec[]): SdkTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: tool.input_schema as JsonSchema,
  }));
}

/**
 * The step answers tool calls of an assistant message that carries no reasoning of this family:
 * Anthropic rejects such a continuation while thinking is on, so this step runs without it.
 */
function continuesWithoutReasoning(messages: ChatMessage[], family: ProviderFamily): boolean {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message === undefined || message.role === 'user') return false;
    if (message.role === 'assistant') {
      return message.tool_calls.length > 0 && !(message.reasoning ?? []).some((block) => block.provider === family);
    }
  }
  return false;
}

/**
 * Effort through the SDK's standard `reasoning` option, which each provider maps with its model
 * catalogue: Anthropic → `thinking` (a token budget, or adaptive thinking plus `effort` on models
 * that take it), OpenAI → `reasoning_effort`, OpenAI-compatible → `reasoning_effort` as given.
 * `off` sends nothing: the model's own default (no thinking for Anthropic models that allow it).
 */
export function sdkReasoning(
  effort: ReasoningEffort,
  messages: ChatMessage[],
  family: ProviderFamily,
  takesReasoning = true,
): SdkCallOptions['reasoning'] {
  if (effort === 'off' || !takesReasoning) return undefined;
  if (MODEL_PROVIDERS[family].thinkingNeedsSignedBlocks && continuesWithoutReasoning(messages, family))
    return undefined;
  return effort;
}

/**
 * `takesReasoning: false` for models that refuse a reasoning option (OpenAI's GPT-4 family);
 * `refer`: long texts as references its fetch splices back (request-texts.ts).
 */
export function toSdkCallOptions(
  request: ModelRequest,
  family: ProviderFamily,
  takesReasoning = true,
  refer: Refer = asItself,
): SdkCallOptions {
  const tools = toSdkTools(request.tools);
  const reasoning = sdkReasoning(request.effort, request.messages, family, takesReasoning);
  const providerOptions = cacheProviderOptions(family, request.promptCache);
  return {
    prompt: markCacheBreakpoints(
      toSdkPrompt(request.system, request.messages, family, refer),
      family,
      request.promptCache,
    ),
    ...(providerOptions === undefined ? {} : { providerOptions }),
    ...(tools.length > 0 ? { tools, toolChoice: { type: 'auto' as const } } : {}),
    ...(reasoning === undefined ? {} : { reasoning }),
    abortSignal: request.signal,
  };
}
