import type { StatusEvent, TurnFailedEvent, Usage } from '../../protocol/events.ts';
import { foldQueue } from '../../protocol/queue.ts';
import { reduceMeter } from './meter.ts';
import type { RewindEntry, TranscriptState, TurnView } from './transcript-types.ts';
import { addMessage, forget, removeMessage, turnOf, w, type Draft } from './transcript-draft.ts';
import {
  completeCall,
  dispatchNested,
  hookRan,
  progressCall,
  requestApproval,
  resolveApproval,
  startCall,
} from './call-reducer.ts';

// The status-event reducer: a pure function from (transcript, event) to the next transcript.
// Live events and the replay of an opened session go through the same function, so a session
// reopened from its durable events shows the same cards it showed live. A tool call's events are
// call-reducer.ts's; both write to one draft (transcript-draft.ts).

export function reduceStatus(state: TranscriptState, event: StatusEvent): TranscriptState {
  return reduceStatusEvents(state, [event]);
}

/**
 * Applies many events to one draft: a container (calls, messages, order…) is copied the first
 * time an event writes to it and written in place after that, so replaying a long session stays
 * linear and a live event copies only what it touches.
 */
export function reduceStatusEvents(state: TranscriptState, events: readonly StatusEvent[]): TranscriptState {
  if (events.length === 0) return state;
  const draft: Draft = { t: { ...state }, own: new Set(), ownNested: new Set() };
  for (const event of events) apply(draft, event);
  return draft.t;
}

// `apply` writes to the draft's own containers and replaces every entry it changes.
function apply(d: Draft, event: StatusEvent): void {
  const t = d.t;
  t.meter = reduceMeter(t.meter, event);
  t.queue = foldQueue(t.queue, event);
  if (event.type === 'todos') t.todos = event.todos;
  if (event.type === 'process_state') t.processes = { ...t.processes, [event.process.call_id]: event.process };
  if (
    event.type === 'context_note' &&
    event.about === 'plan' &&
    event.call_id &&
    !t.approvedPlans.includes(event.call_id)
  )
    t.approvedPlans = [...t.approvedPlans, event.call_id];
  if (event.type === 'plan_kept' && !t.keptPlans.includes(event.call_id)) t.keptPlans = [...t.keptPlans, event.call_id];
  switch (event.type) {
    case 'user_message': {
      // A steer is one more message of its turn, where it entered.
      const id = event.steer ? `user:${event.turn_id}:${event.seq ?? t.order.length}` : `user:${event.turn_id}`;
      if (t.messages[id]) return;
      addMessage(d, {
        kind: 'user',
        id,
        turn_id: event.turn_id,
        text: event.text,
        ...(event.images && event.images.length > 0 ? { images: event.images } : {}),
        ...(event.steer ? { steer: true as const } : {}),
      });
      return;
    }
    case 'compaction':
    case 'compaction_failed': {
      const id = `compaction:${event.seq ?? d.t.order.length}`;
      addMessage(d, { kind: 'compaction', id, turn_id: event.turn_id ?? '', event });
      return;
    }
    case 'turn_started':
      w(d, 'turns')[event.turn_id] = {
        ...turnOf(t, event.turn_id),
        model: event.model,
        state: 'running',
        ...(event.at ? { started_at: event.at } : {}),
      };
      t.activeTurnId = event.turn_id;
      return;
    case 'assistant_delta': {
      const id = t.streaming[event.turn_id] ?? startAssistant(d, event.turn_id);
      const message = t.messages[id];
      if (message?.kind === 'assistant') w(d, 'messages')[id] = { ...message, text: message.text + event.text };
      return;
    }
    case 'assistant_message': {
      const streamed = t.streaming[event.turn_id];
      forget(d, 'streaming', event.turn_id);
      if (event.text.trim() === '') {
        if (streamed !== undefined) removeMessage(d, streamed);
        return;
      }
      let id = streamed;
      if (id === undefined) {
        id = startAssistant(d, event.turn_id);
        forget(d, 'streaming', event.turn_id);
      }
      w(d, 'messages')[id] = {
        kind: 'assistant',
        id,
        turn_id: event.turn_id,
        text: event.text,
        streaming: false,
        partial: event.partial === true,
      };
      return;
    }
    case 'reasoning_delta': {
      const key = `thinking:${event.turn_id}`;
      const id = t.streaming[key] ?? `thinking:${event.turn_id}:${event.seq ?? t.order.length}`;
      const block = t.messages[id];
      if (block?.kind === 'thinking') {
        w(d, 'messages')[id] = { ...block, text: block.text + event.text };
        return;
      }
      w(d, 'streaming')[key] = id;
      const started = event.at ? { started_at: event.at } : {};
      addMessage(d, { kind: 'thinking', id, turn_id: event.turn_id, text: event.text, streaming: true, ...started });
      return;
    }
    case 'reasoning': {
      const key = `thinking:${event.turn_id}`;
      const id = t.streaming[key] ?? `thinking:${event.turn_id}:${event.seq ?? t.order.length}`;
      forget(d, 'streaming', key);
      const block = t.messages[id];
      const started = block?.kind === 'thinking' && block.started_at ? { started_at: block.started_at } : {};
      const { text, duration_ms } = event;
      addMessage(d, { kind: 'thinking', id, turn_id: event.turn_id, text, streaming: false, duration_ms, ...started });
      return;
    }
    case 'context_message': {
      const id = `context:${event.turn_id}:${event.source}:${event.seq ?? t.order.length}`;
      const { source, text, change } = event;
      const truncated = event.truncated ? { truncated: event.truncated } : {};
      addMessage(d, { kind: 'context', id, turn_id: event.turn_id, source, text, change, ...truncated });
      return;
    }
    case 'turn_completed':
      endTurn(d, event.turn_id, 'completed', event.usage, event.at);
      return;
    case 'turn_failed':
      return failTurn(d, event);
    case 'tool_started':
      return startCall(d, event);
    case 'tool_progress':
      return progressCall(d, event);
    case 'tool_approval_requested':
      return requestApproval(d, event);
    case 'tool_approval_resolved':
      return resolveApproval(d, event);
    case 'tool_completed':
      return completeCall(d, event);
    case 'tool_code_dispatch':
      return dispatchNested(d, event);
    case 'hook_ran':
      return hookRan(d, event);
    case 'code_rewound': {
      // A rewind to an earlier rewind's `undo` is its undo: that card says so, no new one.
      const undone = t.rewinds.findIndex((entry) => entry.event.undo === event.target && !entry.undone);
      if (undone >= 0) {
        const rewinds = w(d, 'rewinds');
        rewinds[undone] = { ...(rewinds[undone] as RewindEntry), undone: true };
      } else w(d, 'rewinds').push({ event });
      return;
    }
  }
}

function startAssistant(d: Draft, turnId: string): string {
  const turn = turnOf(d.t, turnId);
  const id = `assistant:${turnId}:${turn.assistant_count}`;
  w(d, 'turns')[turnId] = { ...turn, assistant_count: turn.assistant_count + 1 };
  w(d, 'streaming')[turnId] = id;
  addMessage(d, { kind: 'assistant', id, turn_id: turnId, text: '', streaming: true, partial: false });
  return id;
}

function failTurn(d: Draft, event: TurnFailedEvent): void {
  const stopped = event.aborted === true;
  endTurn(d, event.turn_id, stopped ? 'stopped' : 'failed', event.usage, event.at);
  const text = stopped ? 'Stopped.' : event.error;
  addMessage(d, {
    kind: 'notice',
    id: `notice:${event.turn_id}`,
    turn_id: event.turn_id,
    text,
    tone: stopped ? 'stopped' : 'error',
    ...(event.retry_at === undefined || stopped ? {} : { retry_at: event.retry_at }),
  });
}

function endTurn(
  d: Draft,
  turnId: string,
  state: TurnView['state'],
  usage: Usage | undefined,
  at: string | undefined,
): void {
  const t = d.t;
  w(d, 'turns')[turnId] = { ...turnOf(t, turnId), state, ...(usage ? { usage } : {}), ...(at ? { ended_at: at } : {}) };
  if (usage)
    t.usage = {
      input_tokens: t.usage.input_tokens + usage.input_tokens,
      output_tokens: t.usage.output_tokens + usage.output_tokens,
    };
  if (t.activeTurnId === turnId) t.activeTurnId = null;

  // Reasoning cut off by the turn's end stays as it arrived, no longer live.
  const thinkingId = t.streaming[`thinking:${turnId}`];
  forget(d, 'streaming', `thinking:${turnId}`);
  const thinking = thinkingId === undefined ? undefined : t.messages[thinkingId];
  if (thinking?.kind === 'thinking') w(d, 'messages')[thinking.id] = { ...thinking, streaming: false };

  // Text that was still streaming stays as it arrived; a partial stream is not lost.
  const streamingId = t.streaming[turnId];
  forget(d, 'streaming', turnId);
  const message = streamingId === undefined ? undefined : t.messages[streamingId];
  if (message?.kind === 'assistant') {
    if (message.text.trim() === '') removeMessage(d, message.id);
    else w(d, 'messages')[message.id] = { ...message, streaming: false, partial: true };
  }

  // A card the turn left running will never hear back; it must not spin forever. The turn's
  // rows are at the end of the transcript, so the scan stops at the first row of another turn.
  for (let index = t.order.length - 1; index >= 0; index -= 1) {
    const item = t.order[index];
    if (!item) break;
    const entry = item.kind === 'call' ? t.calls[item.id] : t.messages[item.id];
    if (entry?.turn_id !== undefined && entry.turn_id !== turnId) break;
    if (item.kind === 'call' && entry && 'state' in entry && entry.state === 'running')
      w(d, 'calls')[item.id] = { ...entry, state: 'interrupted' };
  }
}
