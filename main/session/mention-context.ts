import type { ToolContent } from '../../protocol/api.ts';

// The files and folders a person mentions with `@` go to the model inside their message: the text
// as typed, then what each mention gave (read_file's page of a file, list_dir's listing of a
// folder), the same content its read card shows on demand. Live turns and replay build it here.

export function mentionedContent(text: string, mentions: readonly ToolContent[]): string {
  if (mentions.length === 0) return text;
  const parts = mentions.map(
    (mention) =>
      `<mention tool="${mention.name}"${mention.is_error ? ' error="true"' : ''}>\n${mention.content}\n</mention>`,
  );
  return `${text}\n\nThe person attached ${mentions.length === 1 ? 'this' : 'these'} with @ (read for you, in full as the tool returned it):\n\n${parts.join('\n\n')}`;
}
