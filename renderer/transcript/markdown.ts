import { cardViewFor, showsDone } from '../cards/registry.ts';
import { formatDuration } from '../../protocol/format.ts';
import { echoPlainText, errorText } from '../cards/echo.ts';
import type { ToolCallView, TranscriptState } from '../store/transcript-types.ts';
import type { CompactionEvent, CompactionFailedEvent } from '../../protocol/events.ts';

// "Copy transcript": the conversation as Markdown, with each tool call as a heading line and its
// echo in a fenced block (long enough a fence that the content cannot close it).

function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${language}\n${text.replace(/\n$/, '')}\n${marks}`;
}

function callMarkdown(call: ToolCallView): string {
  const view = cardViewFor(call);
  const subtitle = call.description?.subtitle ?? '';
  const time = call.execution_time !== undefined ? ` (${formatDuration(call.execution_time)})` : '';
  const head = `**${call.name}**${subtitle ? ` \`${subtitle.replace(/`/g, "'")}\`` : ''}${time}`;
  if (call.state === 'running') return `${head} — running`;
  if (call.state === 'interrupted') return `${head} — interrupted`;
  if (showsDone(call, view)) return `${head} — ✓ ok`;
  const echoed = echoPlainText(call.echo);
  if (call.state === 'error') return `${head} — error\n\n${fence(echoed || errorText(call))}`;
  const nested = call.nested
    .map((entry) => `- ${entry.is_error ? '✗' : '✓'} ${entry.name} (${formatDuration(entry.execution_time)})`)
    .join('\n');
  return `${head}\n\n${nested ? `${nested}\n\n` : ''}${fence(echoed)}`;
}

/** The compaction as a quoted note; its summary in full, since it is what the model works from. */
function compactionMarkdown(event: CompactionEvent | CompactionFailedEvent): string {
  if (event.type === 'compaction_failed') return `> Compaction failed: ${event.error}`;
  const head = `> Context compacted (${event.tokens_before} → ${event.tokens_after} tokens). Summary:`;
  return `${head}\n>\n> ${event.summary.replace(/\n/g, '\n> ')}`;
}

export function transcriptMarkdown(transcript: TranscriptState): string {
  const parts: string[] = [];
  for (const item of transcript.order) {
    if (item.kind === 'call') {
      const call = transcript.calls[item.id];
      if (call) parts.push(callMarkdown(call));
      continue;
    }
    const message = transcript.messages[item.id];
    if (!message) continue;
    if (message.kind === 'user') parts.push(`## You\n\n${message.text}`);
    else if (message.kind === 'assistant') parts.push(message.text);
    else if (message.kind === 'compaction') parts.push(compactionMarkdown(message.event));
    else parts.push(`> ${message.text.replace(/\n/g, '\n> ')}`);
  }
  return `${parts.join('\n\n')}\n`;
}
