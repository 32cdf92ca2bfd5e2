import { z } from 'zod';
import { defineTool } from '../main/tools/tool.ts';

// The document a long cached session reads part by part (the prompt-cache test and bench): each
// part about 6 KiB of words that do not repeat, so each result costs what a real file would.

export function partText(part: number): string {
  return Array.from({ length: 800 }, (_, index) => ((part * 7919 + index * 104_729) % 1_000_003).toString(36)).join(
    ' ',
  );
}

export const readPart = defineTool({
  name: 'read_part',
  model: {
    description: 'Returns one part of the document.',
    schema: z.object({ part: z.number().int() }),
    render: (text: string) => text,
  },
  gate: { kind: 'read', paths: () => [] },
  execute: async (args) => partText(args.part),
});
