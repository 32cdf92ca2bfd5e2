import type {
  HookRanEvent,
  ToolApprovalRequestedEvent,
  ToolApprovalResolvedEvent,
  ToolCodeDispatchEvent,
  ToolCompletedEvent,
  ToolProgressEvent,
  ToolStartedEvent,
} from '../../protocol/events.ts';
import { hookRunLine } from '../../protocol/hooks.ts';
import type { ToolCallView } from './transcript-types.ts';
import { addCall, addMessage, w, type Draft } from './transcript-draft.ts';

// The transcript reducer's part for tool calls: a card from its start to its end, its progress,
// the questions it asks and their answers, a Code Mode program's nested calls, the hooks that ran
// on it, and what its checkpoint record tells the card.

export function startCall(d: Draft, event: ToolStartedEvent): void {
  const t = d.t;
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
}

export function progressCall(d: Draft, event: ToolProgressEvent): void {
  const call = d.t.calls[event.call_id];
  // A report never finishes a card, and one that arrives after the end changes nothing.
  if (call?.state === 'running') w(d, 'calls')[event.call_id] = { ...call, progress: event.progress };
}

export function requestApproval(d: Draft, event: ToolApprovalRequestedEvent): void {
  const owner = event.parent_call_id ?? event.call_id;
  const call = d.t.calls[owner];
  if (!call) return;
  if (event.parent_call_id !== undefined) w(d, 'parents')[event.call_id] = event.parent_call_id;
  const approval = { call_id: event.call_id, name: event.name, request: event.request };
  w(d, 'calls')[owner] = { ...call, approvals: [...call.approvals, approval] };
}

export function resolveApproval(d: Draft, event: ToolApprovalResolvedEvent): void {
  const t = d.t;
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
}

/** A nested call of a Code Mode program: a line of its program's card. */
export function dispatchNested(d: Draft, event: ToolCodeDispatchEvent): void {
  const parent = d.t.calls[event.parent_call_id];
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
}

/**
 * A hook's run: a line on the card of the call it acted on; a run at another moment that blocked
 * or failed is a notice in the transcript (what it added for the model shows as a context message).
 */
export function hookRan(d: Draft, event: HookRanEvent): void {
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

export function completeCall(d: Draft, event: ToolCompletedEvent): void {
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
