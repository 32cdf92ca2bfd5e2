import type {
  HookRanEvent,
  StatusEvent,
  ToolApprovalRequestedEvent,
  ToolCompletedEvent,
  TurnFailedEvent,
  Usage,
} from '../../protocol/events.ts';
import { hookRunLine } from '../../protocol/hooks.ts';
import { foldQueue } from '../../protocol/queue.ts';
import { reduceMeter } from './meter.ts';
import type { MessageEntry, RewindEntry, ToolCallView, TranscriptState, TurnView } from './transcript-types.ts';

// The status-event reducer: a pure function from (transcript, event) to the next transcript.
// Live events and the replay of an opened session go through the same function, so a session
// reopened from its durable events shows the same cards it showed live.

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

type Container = 'order' | 'messages' | 'calls' | 'turns' | 'streaming' | 'parents' | 'rewinds';

interface Draft {
  /** The next state; its containers are the previous state's until `w` copies them. */
  t: TranscriptState;
  own: Set<Container>;
  /** Programs whose list of nested calls this draft made: a nested call is pushed onto it in place. */
  ownNested: Set<string>;
}

/** The draft's own, writable copy of a container. */
function w<K extends Container>(d: Draft, key: K): TranscriptState[K] {
  if (!d.own.has(key)) {
    const value = d.t[key];
    d.t[key] = (Array.isArray(value) ? value.slice() : { ...value }) as TranscriptState[K];
    d.own.add(key);
  }
  return d.t[key];
}

function forget(d: Draft, key: 'streaming' | 'messages', id: string): void {
  if (id in d.t[key]) delete w(d, key)[id];
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
    case 'tool_started': {
      if (t.calls[event.call_id]) return;
      const turnId = event.turn_id ?? t.activeTurnId ?? undefined;
      addCall(d, {
        call_id: event.call_id,
        name: event.name,
        args: event.args,
        ...(turnId !== undefined ? { turn_id: turnId } : {}),
        ...(event.description !== undefined ? { description: event.description } : {}),
        ...(event.echo_kind !== undefined ? { echo_kind: event.echo_kind } : {}),
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
      if (call?.state === 'running') w(d, 'calls')[event.call_id] = { ...call, progress: event.progress };
      return;
    }
    case 'tool_approval_requested':
      return requestApproval(d, event);
    case 'tool_approval_resolved': {
      const owner = t.calls[event.call_id] ? event.call_id : t.parents[event.call_id];
      const call = owner === undefined ? undefined : t.calls[owner];
      if (!call || owner === undefined) return;
      const index = call.approvals.findLastIndex(
        (approval) => approval.call_id === event.call_id && approval.answer === undefined,
      );
      if (index < 0) return;
      const approvals = call.approvals.map((approval, i) =>
        i === index ? { ...approval, answer: event.answer, ...(event.stopped ? { stopped: true } : {}) } : approval,
      );
      w(d, 'calls')[owner] = { ...call, approvals };
      return;
    }
    case 'tool_completed':
      return completeCall(d, event);
    case 'tool_code_dispatch': {
      const parent = t.calls[event.parent_call_id];
      if (!parent) return;
      w(d, 'parents')[event.call_id] = event.parent_call_id;
      const nested = {
        call_id: event.call_id,
        name: event.name,
        args: event.args,
        content: event.content,
        echo: event.echo,
        is_error: event.is_error,
        execution_time: event.execution_time,
        ...(event.description ? { description: event.description } : {}),
      };
      // A program's thousands of nested calls, replayed in one batch, are not copied once each.
      if (d.ownNested.has(event.parent_call_id)) parent.nested.push(nested);
      else {
        w(d, 'calls')[event.parent_call_id] = { ...parent, nested: [...parent.nested, nested] };
        d.ownNested.add(event.parent_call_id);
      }
      return;
    }
    case 'turn_completed':
      endTurn(d, event.turn_id, 'completed', event.usage, event.at);
      return;
    case 'turn_failed':
      return failTurn(d, event);
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

function turnOf(t: TranscriptState, turnId: string): TurnView {
  return t.turns[turnId] ?? { turn_id: turnId, state: 'running', assistant_count: 0 };
}

/** A message whose id already has a row (a turn reported ended twice) replaces it: a row is never listed twice. */
function addMessage(d: Draft, message: MessageEntry): void {
  const known = message.id in d.t.messages;
  w(d, 'messages')[message.id] = message;
  if (!known) w(d, 'order').push({ kind: 'message', id: message.id });
}

function removeMessage(d: Draft, id: string): void {
  forget(d, 'messages', id);
  const index = d.t.order.findLastIndex((item) => item.kind === 'message' && item.id === id);
  if (index >= 0) w(d, 'order').splice(index, 1);
}

function addCall(d: Draft, call: ToolCallView): void {
  w(d, 'calls')[call.call_id] = call;
  w(d, 'order').push({ kind: 'call', id: call.call_id });
}

function startAssistant(d: Draft, turnId: string): string {
  const turn = turnOf(d.t, turnId);
  const id = `assistant:${turnId}:${turn.assistant_count}`;
  w(d, 'turns')[turnId] = { ...turn, assistant_count: turn.assistant_count + 1 };
  w(d, 'streaming')[turnId] = id;
  addMessage(d, { kind: 'assistant', id, turn_id: turnId, text: '', streaming: true, partial: false });
  return id;
}

function requestApproval(d: Draft, event: ToolApprovalRequestedEvent): void {
  const owner = event.parent_call_id ?? event.call_id;
  const call = d.t.calls[owner];
  if (!call) return;
  if (event.parent_call_id !== undefined) w(d, 'parents')[event.call_id] = event.parent_call_id;
  const approval = { call_id: event.call_id, name: event.name, request: event.request };
  w(d, 'calls')[owner] = { ...call, approvals: [...call.approvals, approval] };
}

/**
 * A hook's run: a line on the card of the call it acted on; a run at another moment that blocked
 * or failed is a notice in the transcript (what it added for the model shows as a context message).
 */
function hookRan(d: Draft, event: HookRanEvent): void {
  const call = event.call_id === undefined ? undefined : d.t.calls[event.call_id];
  if (call && event.call_id !== undefined) {
    w(d, 'calls')[event.call_id] = { ...call, hooks: [...(call.hooks ?? []), event] };
    return;
  }
  if (event.decision !== 'block' && event.decision !== 'failed') return;
  addMessage(d, {
    kind: 'notice',
    id: `hook:${event.seq ?? d.t.order.length}`,
    turn_id: event.turn_id ?? '',
    text: hookRunLine(event),
    tone: 'info',
  });
}

function completeCall(d: Draft, event: ToolCompletedEvent): void {
  const existing = d.t.calls[event.call_id];
  const base: ToolCallView = existing ?? {
    call_id: event.call_id,
    name: event.name,
    args: undefined,
    state: 'running',
    is_error: false,
    approvals: [],
    nested: [],
  };
  const done: ToolCallView = {
    ...base,
    state: event.is_error ? 'error' : 'done',
    is_error: event.is_error,
    echo: event.result,
    execution_time: event.execution_time,
  };
  const checkpoint = event.checkpoint;
  // Only a call that may change the workspace gets a checkpoint record: a read has nothing to rewind.
  if (checkpoint) done.may_change_workspace = true;
  if (checkpoint?.off) done.rewind_unavailable = CHECKPOINTS_OFF;
  if (existing) w(d, 'calls')[event.call_id] = done;
  else addCall(d, done);
  const gone = new Set(checkpoint?.pruned ?? []);
  if (d.t.rewinds.some((entry) => gone.has(entry.event.undo)))
    d.t.rewinds = d.t.rewinds.map((entry) => (gone.has(entry.event.undo) ? { ...entry, undo_gone: true } : entry));
  for (const pruned of checkpoint?.pruned_calls ?? []) {
    const call = d.t.calls[pruned];
    if (call) w(d, 'calls')[pruned] = { ...call, rewind_unavailable: CHECKPOINT_PRUNED };
  }
  if (checkpoint?.notice)
    addMessage(d, {
      kind: 'notice',
      id: `checkpoint:${event.call_id}`,
      turn_id: done.turn_id ?? '',
      text: checkpoint.notice,
      tone: 'info',
    });
}

const CHECKPOINTS_OFF = 'Checkpoints were off when this ran, so its code cannot be rewound.';
const CHECKPOINT_PRUNED =
  'Its checkpoint was pruned to stay under the checkpoint storage limit, so its code cannot be rewound.';

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
