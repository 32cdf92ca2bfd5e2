import { describe, expect, it } from 'vitest';
import type { ToolContent } from '../../protocol/api.ts';
import { rebuildContext } from './context.ts';
import { mentionedContent } from './mention-context.ts';

const read: ToolContent = { call_id: 'm1', name: 'read_file', content: '<content>1: hello</content>', is_error: false };

describe('mentioned files in the model context', () => {
  it('sends the text as typed, then what each mention returned', () => {
    const content = mentionedContent('Explain @a.txt', [read]);
    expect(content.startsWith('Explain @a.txt\n\n')).toBe(true);
    expect(content).toContain('<mention tool="read_file">\n<content>1: hello</content>\n</mention>');
  });

  it('rebuilds the same user message from the durable record on replay', () => {
    const contents = new Map([['m1', read]]);
    const messages = rebuildContext(
      [{ type: 'user_message', turn_id: 't1', text: 'Explain @a.txt', mention_calls: ['m1', 'm2'] }],
      (id) => contents.get(id),
    );
    expect(messages).toHaveLength(1);
    const replayed = messages[0]!.content;
    expect(replayed).toContain('<content>1: hello</content>');
    // A read the log never got (a crash mid-read) is an error the model can see, not a silent gap.
    expect(replayed).toContain('error="true"');
    expect(replayed).toContain('Interrupted');
  });
});
