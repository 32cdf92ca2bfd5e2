import type { StatusEvent } from '../protocol/events.ts';

/**
 * The events of `count` finished `read_file` calls of one turn, `read-0` … (src/part0.ts …), each
 * returning `contentOf(index)` whole: what a read group of that many cards is drawn from.
 */
export function readEvents(
  count: number,
  contentOf: (index: number) => string,
): { ids: string[]; events: StatusEvent[] } {
  const ids = Array.from({ length: count }, (_, index) => `read-${index}`);
  const events = ids.flatMap((id, index): StatusEvent[] => {
    const path = `src/part${index}.ts`;
    const content = contentOf(index);
    const lines = content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
    return [
      {
        type: 'tool_started',
        turn_id: 't1',
        call_id: id,
        name: 'read_file',
        args: { path },
        description: { title: 'read_file', subtitle: `part${index}.ts`, path },
        echo_kind: 'read-file',
      },
      {
        type: 'tool_completed',
        call_id: id,
        name: 'read_file',
        result: {
          kind: 'read-file',
          path,
          range: { start: 1, end: lines },
          total_lines: lines,
          content,
          truncated: false,
        },
        is_error: false,
        execution_time: 1,
      },
    ];
  });
  return { ids, events };
}
