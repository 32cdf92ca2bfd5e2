import { describe, expect, it } from 'vitest';
import { reduceStatusEvents } from '../store/transcript-reducer.ts';
import { emptyTranscript } from '../store/transcript-types.ts';
import { noticeFor } from './notify-events.ts';

const transcript = reduceStatusEvents(emptyTranscript(), [
  { type: 'user_message', turn_id: 't1', text: 'Go' },
  { type: 'turn_started', turn_id: 't1', model: 'demo' },
  { type: 'assistant_message', turn_id: 't1', text: 'All   done\nhere.', tool_calls: [] },
]);

describe('noticeFor', () => {
  it('asks for a waiting question with its own tag, pointing at the card that shows it', () => {
    const notice = noticeFor(
      {
        type: 'tool_approval_requested',
        call_id: 'nested',
        parent_call_id: 'outer',
        name: 'exec',
        request: { title: 'Run a command', detail: 'make', scope: 'exec' },
      },
      transcript,
    );
    expect(notice).toEqual({
      kind: 'approval',
      title: 'Approval needed',
      body: 'Run a command: make',
      tag: 'approval:nested',
      target: { kind: 'call', id: 'outer' },
    });
  });

  it('tells of a finished turn with its answer, and of a failed one with its error', () => {
    const done = noticeFor(
      { type: 'turn_completed', turn_id: 't1', usage: { input_tokens: 1, output_tokens: 1 }, stop_reason: 'end' },
      transcript,
    );
    expect(done).toMatchObject({ kind: 'turn_completed', body: 'All done here.', tag: 'turn:t1' });
    expect(done?.target?.kind).toBe('message');
    const failed = noticeFor({ type: 'turn_failed', turn_id: 't1', error: 'HTTP 401: Check the API key.' }, transcript);
    expect(failed).toMatchObject({ kind: 'turn_failed', title: 'Turn failed', body: 'HTTP 401: Check the API key.' });
  });

  it('stays quiet for a turn the person stopped and for other events', () => {
    expect(noticeFor({ type: 'turn_failed', turn_id: 't1', error: 'Stopped.', aborted: true }, transcript)).toBeNull();
    expect(noticeFor({ type: 'user_message', turn_id: 't2', text: 'x' }, transcript)).toBeNull();
  });
});
