import { stat } from 'node:fs/promises';
import type { ChangesRevertDone, ChangesRevertRequest, TurnChanges } from '../../protocol/changes.ts';
import type { AgentSession } from '../agent/agent-session.ts';
import { readSessionFile, revertHunk, RewindConflictError, spanChanges, turnSpan } from '../agent/rewind.ts';

// The Changes card's requests on the open session: a turn's changed files, computed from its
// checkpoints each time they are asked for (so they survive a reload and a restart), and the revert
// of some or all of them to the checkpoint before the turn, through the store's rewind (undoable,
// journaled, with the conflict check against the person's own later edits).

/** Each session's turns → their calls, read again only when its log has grown (it is only appended to). */
const turnCalls = new WeakMap<AgentSession, { size: number; turns: Map<string, string[]> }>();

async function callsOf(session: AgentSession, turnId: string): Promise<string[] | undefined> {
  const size = (await stat(session.log.file)).size;
  let known = turnCalls.get(session);
  if (known?.size !== size) {
    const { events } = await readSessionFile(session.log.file);
    const turns = new Map<string, string[]>();
    for (const event of events) {
      if (!('turn_id' in event) || !event.turn_id) continue;
      const calls = turns.get(event.turn_id) ?? [];
      turns.set(event.turn_id, calls);
      if (event.type === 'user_message') calls.push(...(event.mention_calls ?? []));
      if (event.type === 'assistant_message') calls.push(...event.tool_calls.map((call) => call.call_id));
    }
    known = { size, turns };
    turnCalls.set(session, known);
  }
  return known.turns.get(turnId);
}

async function spanOf(session: AgentSession, turnId: string) {
  const calls = await callsOf(session, turnId);
  if (calls === undefined)
    throw new Error('This turn is not in the open session (it may have changed meanwhile): open the session again.');
  const store = await session.checkpoints.store();
  return { store, span: turnSpan(store, calls) };
}

export async function turnChanges(session: AgentSession, turnId: string): Promise<TurnChanges> {
  const { store, span } = await spanOf(session, turnId);
  if (!span) return { turn_id: turnId, checkpoint: null, files: [] };
  return { turn_id: turnId, checkpoint: span.before.id, files: await spanChanges(store, span) };
}

export async function revertChanges(session: AgentSession, request: ChangesRevertRequest): Promise<ChangesRevertDone> {
  const { store, span } = await spanOf(session, request.turn_id);
  const done: ChangesRevertDone = {
    conflicts: [],
    undo: null,
    restored: [],
    removed: [],
    kept: [],
    not_restorable: [],
  };
  if (!span) return done;
  const changed = (await spanChanges(store, span)).map((file) => file.path);
  const unknown = (request.paths ?? []).filter((file) => !changed.includes(file));
  if (unknown.length > 0)
    throw new Error(`This turn did not change ${unknown.join(', ')}: nothing was reverted. Reload the Changes card.`);
  if (request.hunk !== undefined) {
    const [file, ...more] = request.paths ?? [];
    if (file === undefined || more.length > 0) throw new Error('A hunk is reverted in one file: name exactly one.');
    const undo = await revertHunk(store, span, file, request.hunk);
    return { ...done, undo: undo.id, restored: [file] };
  }
  const only = new Set(request.paths ?? changed);
  try {
    const { undo, report, kept } = await store.rewind(span.before.id, request.choices ?? {}, only);
    return {
      ...done,
      undo: undo.id,
      restored: report.written,
      removed: report.removed,
      kept,
      not_restorable: report.notRestorable,
    };
  } catch (error) {
    if (error instanceof RewindConflictError) return { ...done, conflicts: error.conflicts };
    throw error;
  }
}
