import type { ChatMessage } from '../model/types.ts';

// The request that asks the session's model for a summary. The older part of the context goes in
// as one transcript in a user message (no tools offered, so the model can only answer in text);
// long tool results are clipped in the middle so the request fits a small window.

export const COMPACTION_SYSTEM =
  'You write the working notes that let a coding assistant go on with a task after its earlier ' +
  'conversation is removed from its context. Be factual and complete; never invent. Answer with ' +
  'the notes only, in the sections asked for, in plain Markdown.';

const SECTIONS = `Write the notes in these sections, in this order:
## Goal and open tasks
What the person wants overall, and every task still open.
## Decisions
Choices made and why, constraints the person set.
## Files touched
Every file path read, created, changed or deleted, each with what changed (or what was learnt from it).
## Commands run
Each command with its outcome (passed, failed and why, what it printed that matters).
## Errors still open
Errors and failing checks not yet resolved; "None" when there are none.`;

function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const half = Math.floor(limit / 2);
  return `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters left out …]\n${text.slice(-half)}`;
}

/** The older messages as a readable transcript; each message's text is clipped to `limit` characters. */
export function transcriptOf(messages: readonly ChatMessage[], limit: number): string {
  return messages
    .map((message) => {
      if (message.role === 'user') return `<user>\n${clip(message.content, limit)}\n</user>`;
      if (message.role === 'tool') {
        const tag = message.is_error ? 'tool_error' : 'tool_result';
        return `<${tag} call_id="${message.call_id}" name="${message.name}">\n${clip(message.content, limit)}\n</${tag}>`;
      }
      const calls = message.tool_calls.map(
        (call) =>
          `<tool_call call_id="${call.call_id}" name="${call.name}">${clip(JSON.stringify(call.args ?? null), limit)}</tool_call>`,
      );
      return ['<assistant>', ...(message.content ? [clip(message.content, limit)] : []), ...calls, '</assistant>'].join(
        '\n',
      );
    })
    .join('\n');
}

export function compactionPrompt(transcript: string, focus: string | undefined): string {
  const keep = focus?.trim()
    ? `\n\nThe person asked that the notes keep this in particular:\n<keep>\n${focus.trim()}\n</keep>`
    : '';
  return (
    `Here is the conversation so far between the person and the coding assistant, with the tool calls it made and their results:\n\n` +
    `<conversation>\n${transcript}\n</conversation>\n\n${SECTIONS}${keep}`
  );
}
