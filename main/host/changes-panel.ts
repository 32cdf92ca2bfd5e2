import { stat } from 'node:fs/promises';
import { AGENT_TOOL_NAME } from '../../protocol/agents.ts';
import type { ChangesRevertDone, ChangesRevertRequest, TurnChanges } from '../../protocol/changes.ts';
import type { AgentSession } from '../agent/agent-session.ts';
import { agentsOfFiles, withAgents } from '../agent/agents/agent-changes.ts';
import { readSessionFile, revertHunk, RewindConflictError, spanChanges, turnSpan } from '../agent/rewind.ts';

// The Changes card's requests on the open session: a turn's changed files, computed from its
// checkpoints each time they are asked for (so they survive a reload and a restart), and the revert
// of some or all of them to the checkpoint before the turn, through the store's rewind (undoable,
// journaled, with the conflict check against the person's own later edits).

interface TurnCalls {
  calls: string[];
  /** The files the turn's agents changed, and which agents (their `agent` calls' echoes). */
  agents: Map<string, string[]>;
}

/** Each session's turns → their calls, read again only when its log has grown (it is only appended to). */
const turnCalls = new WeakMap<AgentSession, { size: number; turns: Map<string, TurnCalls> }>();

async function callsOf(session: AgentSession, turnId: string): Promise<TurnCalls | undefined> {
  const size = (await stat(session.log.file)).size;
  let known = turnCalls.get(session);
  if (known?.size !== size) {
    const { events } = await readSessionFile(session.log.file);
    const turns = new Map<string, TurnCalls>();
    // One pass: each turn's calls, and the agents' completions (few) to mark their files by.
    const agentEnds = events.filter((event) => event.type === 'tool_completed' && event.name === AGENT_TOOL_NAME);
    for (const event of events) {
      if (!('turn_id' in event) || !event.turn_id) continue;
      const turn: TurnCalls = turns.get(event.turn_id) ?? { calls: [], agents: new Map() };
      turns.set(event.turn_id, turn);
      if (event.type === 'user_message') turn.calls.push(...(event.mention_calls ?? []));
      if (event.type === 'assistant_message') turn.calls.push(...event.tool_calls.map((call) => call.call_id));
    }
    for (const turn of turns.values()) turn.agents = agentsOfFiles(agentEnds, turn.calls);
    known = { size, turns };
    turnCalls.set(session, known);
  }
  return known.turns.get(turnId);
}

async function spanOf(session: AgentSession, turnId: string) {
  const turn = await callsOf(session, turnId);
  if (turn === undefined)
    throw new Error('This turn is not in the open session (it may have changed meanwhile): open the session again.');
  const store = await session.checkpoints.store();
  return { store, span: turnSpan(store, turn.calls), agents: turn.agents };
}

export async function turnChanges(session: AgentSession, turnId: string): Promise<TurnChanges> {
  const { store, span, agents } = await spanOf(session, turnId);
  if (!span) return { turn_id: turnId, checkpoint: null, files: [] };
  return { turn_id: turnId, checkpoint: span.before.id, files: withAgents(await spanChanges(store, span), agents) };
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
