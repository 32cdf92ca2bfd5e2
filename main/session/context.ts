import type { ToolContent } from '../../protocol/api.ts';
import type { AssistantMessageEvent, StatusEvent } from '../../protocol/events.ts';
import type { ChatImage, ChatMessage, ReasoningBlock } from '../model/types.ts';
import { applyCompaction } from './compacted-context.ts';
import { mentionedContent } from './mention-context.ts';

// The model context, derived from the durable record alone. The agent loop builds its live context
// with the same rules, so a replayed session sends the model exactly what it would have sent.
//   user_message       → user message
//   context_message    → user message holding the instructions document, exactly as sent
//   context_note       → user message the app added (the todo list, an approved plan), exactly as sent
//   assistant_message  → assistant message with its reasoning blocks, if any (skipped when it
//                        says nothing, calls nothing and has no reasoning),
//                        then one tool message per call, in the order the model gave them,
//                        with the complete content the model received
//   compaction         → the context so far becomes its summary + the messages it kept
//                        (compacted-context.ts)

export function interruptedContent(name: string): string {
  return (
    `Interrupted: the session ended while ${name} was running, so its outcome is unknown. ` +
    'It was not run again; check its effects before repeating it.'
  );
}

/** The assistant message an event stands for, or null when there is nothing to send. */
export function assistantContextMessage(
  event: AssistantMessageEvent,
  reasoning?: ReasoningBlock[],
): ChatMessage | null {
  const blocks = reasoning && reasoning.length > 0 ? reasoning : undefined;
  if (event.text.length === 0 && event.tool_calls.length === 0 && !blocks) return null;
  const calls = event.tool_calls.map(({ call_id, name, args }) => ({ call_id, name, args }));
  return { role: 'assistant', content: event.text, tool_calls: calls, ...(blocks ? { reasoning: blocks } : {}) };
}

/** `loaded`: the bytes of the content's images when at hand (a resumed session reads them later). */
export function toolContextMessage(content: ToolContent, loaded: readonly ChatImage[] = []): ChatMessage {
  const images = (content.images ?? []).map(({ sha256, media_type }): ChatImage => {
    const data = loaded.find((image) => image.sha256 === sha256)?.data;
    return { sha256, media_type, ...(data ? { data } : {}) };
  });
  return {
    role: 'tool',
    call_id: content.call_id,
    name: content.name,
    content: content.content,
    is_error: content.is_error,
    ...(images.length > 0 ? { images } : {}),
  };
}

/** Whether an event goes into the model context (rebuildContext passes over the others). */
export function contextEvent(event: StatusEvent): boolean {
  return (
    event.type === 'user_message' ||
    event.type === 'context_message' ||
    event.type === 'context_note' ||
    event.type === 'compaction' ||
    event.type === 'assistant_message'
  );
}

/** What a resumed session reads of its history: the context's events, the usage steps, the queue's changes. */
export function historyEvent(event: StatusEvent): boolean {
  return contextEvent(event) || event.type === 'step_usage' || event.type === 'queue' || event.type === 'todos';
}

export function rebuildContext(
  events: readonly StatusEvent[],
  contentOf: (callId: string) => ToolContent | undefined,
  reasoningOf: (event: AssistantMessageEvent) => ReasoningBlock[] | undefined = () => undefined,
): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const event of events) {
    if (event.type === 'user_message' && (event.mention_calls?.length || event.images?.length)) {
      const mentions = (event.mention_calls ?? []).map((callId) => contentOf(callId) ?? mentionLost(callId));
      // The images' bytes are loaded by whoever resumes the session (agent-session.ts).
      const images = (event.images ?? []).map(({ sha256, media_type }) => ({ sha256, media_type }));
      messages.push({
        role: 'user',
        content: mentionedContent(event.text, mentions),
        ...(images.length > 0 ? { images } : {}),
      });
    } else if (event.type === 'user_message' || event.type === 'context_message' || event.type === 'context_note') {
      messages.push({ role: 'user', content: event.text });
    } else if (event.type === 'compaction') {
      messages.splice(0, messages.length, ...applyCompaction(messages, event));
    } else if (event.type === 'assistant_message') {
      const message = assistantContextMessage(event, reasoningOf(event));
      if (!message) continue;
      messages.push(message);
      for (const call of event.tool_calls) {
        const content = contentOf(call.call_id) ?? {
          call_id: call.call_id,
          name: call.name,
          content: interruptedContent(call.name),
          is_error: true,
        };
        messages.push(toolContextMessage(content));
      }
    }
  }
  return messages;
}

/** A mention whose read never reached the log (the session ended while it ran). */
function mentionLost(callId: string): ToolContent {
  return {
    call_id: callId,
    name: 'read_file',
    content: interruptedContent('the read of a mentioned file'),
    is_error: true,
  };
}
