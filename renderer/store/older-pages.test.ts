import { describe, expect, it } from 'vitest';
import type { OpenedSession } from '../../protocol/api.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { createPanelStore } from './store.ts';
import { reduceStatusEvents } from './transcript-reducer.ts';
import { emptyTranscript } from './transcript-types.ts';

// A long session shown newest page first: older pages put in front give the transcript a whole
// replay would, whatever the page boundary cuts through (a turn, a call, an assistant message).

const summary = { id: 's1', title: 'long', workspace: '/w', created_at: '', updated_at: '' };

function session(calls: number): StatusEvent[] {
  const events: StatusEvent[] = [
    { type: 'user_message', turn_id: 't1', text: 'go', seq: 1 },
    { type: 'turn_started', turn_id: 't1', model: 'm', seq: 2 },
  ];
  for (let index = 0; index < calls; index += 1) {
    const call_id = `c${index}`;
    const args = { command: `echo ${index}` };
    events.push(
      {
        type: 'assistant_message',
        turn_id: 't1',
        text: `step ${index}`,
        tool_calls: [{ call_id, name: 'exec', args }],
      },
      { type: 'tool_started', turn_id: 't1', call_id, name: 'exec', args },
      {
        type: 'tool_completed',
        call_id,
        name: 'exec',
        execution_time: 1,
        is_error: false,
        result: { kind: 'text', text: `${index}` },
      },
    );
  }
  events.push({
    type: 'turn_completed',
    turn_id: 't1',
    usage: { input_tokens: 1, output_tokens: 2 },
    stop_reason: 'end',
  });
  return events.map((event, index) => ({ ...event, seq: index + 1 }));
}

function opened(events: StatusEvent[], older: number): OpenedSession {
  return {
    summary,
    events: events.slice(older),
    corrupt_lines: 0,
    usage: { input_tokens: 0, output_tokens: 0 },
    older,
  };
}

describe('older pages of an opened session', () => {
  it('put in front, they give the transcript of the whole replay, even cut inside a call', () => {
    const events = session(10);
    const store = createPanelStore();
    // Cut between a call's tool_started and its tool_completed, then again inside an assistant step.
    const firstCut = events.findIndex((event) => event.type === 'tool_completed' && event.call_id === 'c6');
    store.getState().replaySession(opened(events, firstCut));
    expect(store.getState().olderEvents).toEqual({ id: 's1', before: firstCut, loading: false });
    const rowsBefore = store.getState().transcript.order.length;

    store.getState().prependPage({ id: 's1', events: events.slice(10, firstCut), before: 10 });
    expect(store.getState().olderEvents).toMatchObject({ before: 10 });
    store.getState().prependPage({ id: 's1', events: events.slice(0, 10), before: 0 });

    const whole = reduceStatusEvents(emptyTranscript(), events);
    expect(store.getState().transcript).toEqual(whole);
    expect(store.getState().olderEvents).toBeNull();
    expect(store.getState().prependedRows).toBe(whole.order.length - rowsBefore);
  });

  it('keeps the live events that came after the page when an older page arrives', () => {
    const events = session(6);
    const store = createPanelStore();
    store.getState().replaySession(opened(events, 8));
    const live: StatusEvent[] = [
      { type: 'user_message', turn_id: 't2', text: 'more', seq: 100 },
      { type: 'turn_started', turn_id: 't2', model: 'm', seq: 101 },
      { type: 'tool_started', turn_id: 't2', call_id: 'live', name: 'exec', args: { command: 'sleep 1' }, seq: 102 },
      { type: 'tool_progress', call_id: 'live', progress: { text: 'a', cut_bytes: 0, total_bytes: 1 } },
      { type: 'tool_progress', call_id: 'live', progress: { text: 'ab', cut_bytes: 0, total_bytes: 2 } },
    ];
    store.getState().applyEvents(live);
    store.getState().prependPage({ id: 's1', events: events.slice(0, 8), before: 0 });
    expect(store.getState().transcript).toEqual(reduceStatusEvents(emptyTranscript(), [...events, ...live]));
    expect(store.getState().transcript.calls['live']?.progress?.text).toBe('ab');
  });

  it('ignores a page of another session, or one it already shows', () => {
    const events = session(6);
    const store = createPanelStore();
    store.getState().replaySession(opened(events, 8));
    const shown = store.getState().transcript;
    store.getState().prependPage({ id: 'other', events: events.slice(0, 8), before: 0 });
    store.getState().prependPage({ id: 's1', events: events.slice(0, 8), before: 8 });
    expect(store.getState().transcript).toBe(shown);
    expect(store.getState().olderEvents).toMatchObject({ before: 8 });
  });
});
