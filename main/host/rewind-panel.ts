import type { RewindApply, RewindDone, RewindPreview, RewindRequest } from '../../protocol/rewind.ts';
import type { AgentSession } from '../agent/agent-session.ts';
import {
  codeCheckpoint,
  forkSession,
  hasTurn,
  readSessionFile,
  RewindConflictError,
  turnOfCall,
} from '../agent/rewind.ts';
import type { CodeRewoundEvent, StatusEvent } from '../../protocol/events.ts';

// The panel's rewind on the open session (see protocol/rewind.ts): a preview, then the rewind with
// the person's choices. The code goes back through the session's checkpoint store; the
// conversation is forked into a new session, which the panel opens next. The card a code rewind
// leaves (with its undo) is in the session the person goes on in: this one, or the fork.

interface Located {
  events: StatusEvent[];
  turnId: string | null;
  message: string | null;
}

async function locate(session: AgentSession, request: RewindRequest): Promise<Located> {
  const { events } = await readSessionFile(session.log.file);
  const turnId = turnOfCall(events, request.target) ?? (hasTurn(events, request.target) ? request.target : null);
  const user = events.find((event) => event.type === 'user_message' && event.turn_id === turnId);
  const message = user?.type === 'user_message' ? user.text : null;
  if (request.mode !== 'code' && turnId === null)
    throw new Error(
      'That card or message is not in the open session (it may have changed meanwhile), so the conversation cannot go back before it: open the session again.',
    );
  return { events, turnId, message };
}

export async function previewRewind(session: AgentSession, request: RewindRequest): Promise<RewindPreview> {
  const { events, message } = await locate(session, request);
  const empty: RewindPreview = {
    mode: request.mode,
    checkpoint: null,
    restore: [],
    remove: [],
    conflicts: [],
    not_restorable: [],
    message: request.mode === 'code' ? null : message,
  };
  if (request.mode === 'conversation') return empty;
  const store = await session.checkpoints.store();
  const checkpoint = codeCheckpoint(store, events, request.target, request.mode);
  if (!checkpoint) {
    if (request.mode === 'both' || !prunedOrUnknown(events, request.target)) return empty;
    if (ranWithoutCheckpoint(events, request.target)) throw new Error(OFF);
    throw new Error(
      'The checkpoint of this card is gone: it was pruned by the storage limit, or this is not a card of the open session. ' +
        'Rewind from a later card.',
    );
  }
  const plan = await store.preview(checkpoint.id);
  const files = (steps: typeof plan.writes) =>
    steps.filter((step) => step.entry.kind !== 'dir').map((step) => step.path);
  return {
    ...empty,
    checkpoint: checkpoint.id,
    restore: files(plan.writes.filter((step) => step.entry.kind !== 'large')),
    remove: files(plan.removals),
    conflicts: plan.conflicts,
    not_restorable: plan.writes.filter((step) => step.entry.kind === 'large').map((step) => step.path),
  };
}

export async function applyRewind(session: AgentSession, root: string, request: RewindApply): Promise<RewindDone> {
  const { events, turnId, message } = await locate(session, request);
  const done: RewindDone = {
    mode: request.mode,
    undo: null,
    restored: [],
    removed: [],
    kept: [],
    not_restorable: [],
    fork: null,
    message: null,
  };
  const rewound = request.mode === 'conversation' ? null : await rewindCode(session, events, request);
  if (rewound) {
    Object.assign(done, {
      undo: rewound.undo,
      restored: rewound.restored,
      removed: rewound.removed,
      kept: rewound.kept,
      not_restorable: rewound.not_restorable,
    });
  }
  if (request.mode === 'code' || turnId === null) {
    // In the session, so the rewind's card (and its undo) is there after a reload too.
    if (rewound) await session.record(rewound);
    return done;
  }
  const at = turnOfCall(events, request.target) === null ? { turnId } : { callId: request.target };
  try {
    // Rewinding both: the card of the code rewind goes into the fork, where the person goes on.
    const fork = await forkSession(root, session.id, at, { append: rewound ? [rewound] : [] });
    done.fork = fork.id;
    done.message = fork.message ?? message;
  } catch (error) {
    // The code was rewound all the same: its card, and its undo, stay in this session.
    if (rewound) await session.record(rewound);
    throw error;
  }
  return done;
}

/** Takes the code back for a rewind of the code or of both; null when there was nothing to take back. */
async function rewindCode(
  session: AgentSession,
  events: StatusEvent[],
  request: RewindApply,
): Promise<CodeRewoundEvent | null> {
  const store = await session.checkpoints.store();
  const checkpoint = codeCheckpoint(store, events, request.target, request.mode);
  if (!checkpoint) {
    if (request.mode === 'code' && prunedOrUnknown(events, request.target)) {
      if (ranWithoutCheckpoint(events, request.target)) throw new Error(`${OFF} Nothing was rewound.`);
      throw new Error('There is no checkpoint for this card any more: nothing was rewound.');
    }
    return null;
  }
  try {
    const { undo, report, kept } = await store.rewind(checkpoint.id, request.choices ?? {});
    return {
      type: 'code_rewound',
      target: request.target,
      what: request.what ?? 'this point',
      restored: report.written,
      removed: report.removed,
      kept,
      not_restorable: report.notRestorable,
      undo: undo.id,
    };
  } catch (error) {
    if (error instanceof RewindConflictError)
      throw new Error(`${error.message} Nothing was rewound; open the rewind again to choose.`);
    throw error;
  }
}

const OFF =
  'Checkpoints were turned off when this call ran, so there is no checkpoint to take its code back to. ' +
  'Rewind the conversation instead, or the code from a later card.';

/** Whether the call ran while checkpoints were off (its completion says so). */
function ranWithoutCheckpoint(events: readonly StatusEvent[], callId: string): boolean {
  return events.some((event) => event.type === 'tool_completed' && event.call_id === callId && event.checkpoint?.off);
}

/** True unless the target is a call or turn of this session whose code simply has not changed since. */
function prunedOrUnknown(events: readonly StatusEvent[], target: string): boolean {
  if (hasTurn(events, target)) return false;
  if (turnOfCall(events, target) === null) return true;
  return events.some((event) => event.type === 'tool_completed' && event.call_id === target && event.checkpoint);
}
