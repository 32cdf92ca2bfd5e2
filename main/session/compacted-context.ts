import type { CompactionEvent } from '../../protocol/events.ts';
import type { ChatMessage } from '../model/types.ts';

// What a compaction leaves of the model context, derived from its durable event alone, so the live
// loop and replay build the same messages: one user message holding the summary (and, when it is
// not among the kept messages, the person's last message verbatim), then the last `kept_messages`
// messages as they were. The summary is never made again on replay.

export type CompactionRecord = Pick<
  CompactionEvent,
  'summary' | 'kept_messages' | 'kept_user_message' | 'kept_instructions'
>;

export function summaryMessageText(
  record: Pick<CompactionRecord, 'summary' | 'kept_user_message' | 'kept_instructions'>,
): string {
  const parts = [
    'The conversation so far was compacted to save room in the context. This summary replaces the earlier messages:',
    `<summary>\n${record.summary}\n</summary>`,
  ];
  // Project instructions stay in force verbatim, as the model last received them.
  for (const document of record.kept_instructions ?? []) parts.push(document);
  if (record.kept_user_message !== undefined) {
    parts.push(
      `The person's latest message, verbatim:\n<last_user_message>\n${record.kept_user_message}\n</last_user_message>`,
    );
  }
  return parts.join('\n\n');
}

export function applyCompaction(messages: readonly ChatMessage[], record: CompactionRecord): ChatMessage[] {
  const kept = record.kept_messages > 0 ? messages.slice(Math.max(0, messages.length - record.kept_messages)) : [];
  return [{ role: 'user', content: summaryMessageText(record) }, ...kept];
}
