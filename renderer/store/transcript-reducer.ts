import type { StatusEvent, ToolApprovalRequestedEvent, ToolCompletedEvent, TurnFailedEvent, Usage } from '../../protocol/events.ts';
import type { MessageEntry, ToolCallView, TranscriptState, TurnView } from './transcript-types.ts';

// The status-event reducer: a pure function from (transcript, event) to the next transcript.
// Live events and the replay of an opened session go through the same function, so a session
// reopened from its durable events shows the same cards it showed live.

export function reduceStatus(state: TranscriptState, event: StatusEvent): TranscriptState {
  return reduceStatusEvents(state, [event]);
}

/** Applies many events with one copy of the containers: replaying a long session stays linear. */
export function reduceStatusEvents(state: TranscriptState, events: readonly StatusEvent[]): TranscriptState {
  if (events.length === 0) return state;
  const draft: TranscriptState = {
    ...state,
    order: state.order.slice(),
    messages: { ...state.messages },
    calls: { ...state.calls },
    turns: { ...state.turns },
    streaming: { ...state.streaming },
    parents: { ...state.parents },
  };
  for (const event of events) apply(draft, event);
  return draft;
}

// `apply` mutates the draft's containers (copied above) but replaces every entry it changes.
function apply(t: TranscriptState, event: StatusEvent): void {
  switch (event.type) {
    case 'user_message': {
      const id = `user:${event.turn_id}`;
      if (t.messages[id]) return;
      addMessage(t, { kind: 'user', id, turn_id: event.turn_id, text: event.text });
      return;
    }
    case 'turn_started':
      t.turns[event.turn_id] = { ...turnOf(t, event.turn_id), model: event.model, state: 'running' };
      t.activeTurnId = event.turn_id;
      return;
    case 'assistant_delta': {
      const id = t.streaming[event.turn_id] ?? startAssistant(t, event.turn_id);
      const message = t.messages[id];
      if (message?.kind === 'assistant') t.messages[id] = { ...message, text: message.text + event.text };
      return;
    }
    case 'assistant_message': {
      const id = t.streaming[event.turn_id];
      delete t.streaming[event.turn_id];
      if (id === undefined) {
        if (event.text.trim() === '') return;
        const created = startAssistant(t, event.turn_id);
        delete t.streaming[event.turn_id];
        t.messages[created] = { kind: 'assistant', id: created, turn_id: event.turn_id, text: event.text, streaming: false, partial: event.partial === true };
        return;
      }
      if (event.text.trim() === '') return removeMessage(t, id);
      t.messages[id] = { kind: 'assistant', id, turn_id: event.turn_id, text: event.text, streaming: false, partial: event.partial === true };
      return;
    }
    case 'tool_started': {
      if (t.calls[event.call_id]) return;
      const turnId = event.turn_id ?? t.activeTurnId ?? undefined;
      addCall(t, {
        call_id: event.call_id,
        name: event.name,
        args: event.args,
        ...(turnId !== undefined ? { turn_id: turnId } : {}),
        ...(event.at !== undefined ? { started_at: event.at } : {}),
        state: 'running',
        is_error: false,
        approvals: [],
        nested: [],
      });
      return;
    }
    case 'tool_progress': {
      const call = t.calls[event.call_id];
      // A report never finishes a card, and one that arrives after the end changes nothing.
      if (call?.state === 'running') t.calls[event.call_id] = { ...call, progress: event.progress };
      return;
    }
    case 'tool_approval_requested':
      return requestApproval(t, event);
    case 'tool_approval_resolved': {
      const owner = t.calls[event.call_id] ? event.call_id : t.parents[event.call_id];
      const call = owner === undefined ? undefined : t.calls[owner];
      if (!call || owner === undefined) return;
      const index = call.approvals.findLastIndex((approval) => approval.call_id === event.call_id && approval.answer === undefined);
      if (index < 0) return;
      const approvals = call.approvals.map((approval, i) => (i === index ? { ...approval, answer: event.answer } : approval));
      t.calls[owner] = { ...call, approvals };
      return;
    }
    case 'tool_completed':
      return completeCall(t, event);
    case 'tool_code_dispatch': {
      const parent = t.calls[event.parent_call_id];
      if (!parent) return;
      t.parents[event.call_id] = event.parent_call_id;
      const nested = { call_id: event.call_id, name: event.name, args: event.args, content: event.content, is_error: event.is_error, execution_time: event.execution_time };
      t.calls[event.parent_call_id] = { ...parent, nested: [...parent.nested, nested] };
      return;
    }
    case 'turn_completed':
      endTurn(t, event.turn_id, 'completed', event.usage);
      return;
    case 'turn_failed':
      return failTurn(t, event);
  }
}

function turnOf(t: TranscriptState, turnId: string): TurnView {
  return t.turns[turnId] ?? { turn_id: turnId, state: 'running', assistant_count: 0 };
}

function addMessage(t: TranscriptState, message: MessageEntry): void {
  t.messages[message.id] = message;
  t.order.push({ kind: 'message', id: message.id });
}

function removeMessage(t: TranscriptState, id: string): void {
  delete t.messages[id];
  const index = t.order.findLastIndex((item) => item.kind === 'message' && item.id === id);
  if (index >= 0) t.order.splice(index, 1);
}

function addCall(t: TranscriptState, call: ToolCallView): void {
  t.calls[call.call_id] = call;
  t.order.push({ kind: 'call', id: call.call_id });
}

function startAssistant(t: TranscriptState, turnId: string): string {
  const turn = turnOf(t, turnId);
  const id = `assistant:${turnId}:${turn.assistant_count}`;
  t.turns[turnId] = { ...turn, assistant_count: turn.assistant_count + 1 };
  t.streaming[turnId] = id;
  addMessage(t, { kind: 'assistant', id, turn_id: turnId, text: '', streaming: true, partial: false });
  return id;
}

function requestApproval(t: TranscriptState, event: ToolApprovalRequestedEvent): void {
  const owner = event.parent_call_id ?? event.call_id;
  const call = t.calls[owner];
  if (!call) return;
  if (event.parent_call_id !== undefined) t.parents[event.call_id] = event.parent_call_id;
  const approval = { call_id: event.call_id, name: event.name, request: event.request };
  t.calls[owner] = { ...call, approvals: [...call.approvals, approval] };
}

function completeCall(t: TranscriptState, event: ToolCompletedEvent): void {
  const existing = t.calls[event.call_id];
  const base: ToolCallView = existing ?? { call_id: event.call_id, name: event.name, args: undefined, state: 'running', is_error: false, approvals: [], nested: [] };
  const done: ToolCallView = { ...base, state: event.is_error ? 'error' : 'done', is_error: event.is_error, result: event.result, execution_time: event.execution_time };
  if (existing) t.calls[event.call_id] = done;
  else addCall(t, done);
}

function failTurn(t: TranscriptState, event: TurnFailedEvent): void {
  const stopped = event.aborted === true;
  endTurn(t, event.turn_id, stopped ? 'stopped' : 'failed', event.usage);
  const text = stopped ? 'Stopped.' : event.error;
  addMessage(t, { kind: 'notice', id: `notice:${event.turn_id}`, turn_id: event.turn_id, text, tone: stopped ? 'stopped' : 'error' });
}

function endTurn(t: TranscriptState, turnId: string, state: TurnView['state'], usage: Usage | undefined): void {
  const turn = turnOf(t, turnId);
  t.turns[turnId] = { ...turn, state, ...(usage ? { usage } : {}) };
  if (usage) t.usage = { input_tokens: t.usage.input_tokens + usage.input_tokens, output_tokens: t.usage.output_tokens + usage.output_tokens };
  if (t.activeTurnId === turnId) t.activeTurnId = null;

  // Text that was still streaming stays as it arrived; a partial stream is not lost.
  const streamingId = t.streaming[turnId];
  delete t.streaming[turnId];
  const message = streamingId === undefined ? undefined : t.messages[streamingId];
  if (message?.kind === 'assistant') {
    if (message.text.trim() === '') removeMessage(t, message.id);
    else t.messages[message.id] = { ...message, streaming: false, partial: true };
  }

  // A card the turn left running will never hear back; it must not spin forever.
  for (const item of t.order) {
    const call = item.kind === 'call' ? t.calls[item.id] : undefined;
    if (call?.state === 'running' && call.turn_id === turnId) t.calls[item.id] = { ...call, state: 'interrupted' };
  }
}
