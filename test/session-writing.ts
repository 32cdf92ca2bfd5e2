import type { SessionLog } from '../main/session/session-log.ts';
import type { SessionSink } from '../main/session/session-sink.ts';

// Writing a session as a turn writes it, for the tests that read one back.

/**
 * The model says "Reading." and asks to read a.txt (call c1), which returns `1\thello`: the call's
 * events and its content, in the order a turn writes them.
 */
export async function writeReadCall(log: SessionLog, sink: SessionSink, turnId = 't1'): Promise<void> {
  await sink.emit({
    type: 'assistant_message',
    turn_id: turnId,
    text: 'Reading.',
    tool_calls: [{ call_id: 'c1', name: 'read_file', args: { path: 'a.txt' } }],
  });
  await sink.emit({ type: 'tool_started', turn_id: turnId, call_id: 'c1', name: 'read_file', args: { path: 'a.txt' } });
  await log.put({ call_id: 'c1', name: 'read_file', content: '1\thello', is_error: false });
  await sink.emit({
    type: 'tool_completed',
    call_id: 'c1',
    name: 'read_file',
    execution_time: 1,
    is_error: false,
    result: { kind: 'text', text: 'hello' },
  });
}
