import { AGENT_TOOL_NAME, agentEchoSchema } from '../../../protocol/agents.ts';
import type { ChangedFile } from '../../../protocol/changes.ts';
import type { StatusEvent } from '../../../protocol/events.ts';
import { readSessionFile } from '../../session/replay.ts';
import { turnOfCall } from '../../session/rewind-target.ts';
import { spanChanges, turnSpan } from '../../tools/checkpoints/turn-changes.ts';
import type { AgentSession } from '../agent-session.ts';

// What a turn's agents changed. A child's calls are recorded in its parent's checkpoints, so the
// turn's changes (the Changes card, a rewind) hold the children's files like the parent's own; each
// `agent` call's echo names the files its child changed, which marks them as the child's. The
// built-in `review` agent is handed the turn's changes so far, as a bounded diff in its task.

/** The diff text a review's task carries at most; the files past it are named, to be read. */
export const REVIEW_DIFF_CHARS = 48 * 1024;

/** A turn's calls in order: those made for the message's mentions, then the model's. */
export function callsOfTurn(events: readonly StatusEvent[], turnId: string): string[] {
  const calls: string[] = [];
  for (const event of events) {
    if (!('turn_id' in event) || event.turn_id !== turnId) continue;
    if (event.type === 'user_message') calls.push(...(event.mention_calls ?? []));
    if (event.type === 'assistant_message') calls.push(...event.tool_calls.map((call) => call.call_id));
  }
  return calls;
}

/** The agents that changed each file, from the echoes of these calls that were `agent` calls. */
export function agentsOfFiles(events: readonly StatusEvent[], calls: readonly string[]): Map<string, string[]> {
  const wanted = new Set(calls);
  const byFile = new Map<string, string[]>();
  for (const event of events) {
    if (event.type !== 'tool_completed' || event.name !== AGENT_TOOL_NAME || !wanted.has(event.call_id)) continue;
    const echo = agentEchoSchema.safeParse(event.result);
    if (!echo.success) continue;
    for (const file of echo.data.changed) {
      const names = byFile.get(file) ?? [];
      if (!names.includes(echo.data.agent)) names.push(echo.data.agent);
      byFile.set(file, names);
    }
  }
  return byFile;
}

/** The files with the agents that changed them. */
export function withAgents(files: readonly ChangedFile[], byFile: ReadonlyMap<string, string[]>): ChangedFile[] {
  return files.map((file) => {
    const agents = byFile.get(file.path);
    return agents ? { ...file, agents } : file;
  });
}

/**
 * What a review is handed: the files changed in the turn of call `callId` by the calls before it
 * (the parent's and its children's), with their diff up to `limit` characters. Null when the call
 * is not in the session's log.
 */
export async function turnChangesText(
  parent: AgentSession,
  callId: string,
  limit = REVIEW_DIFF_CHARS,
): Promise<string | null> {
  const { events } = await readSessionFile(parent.log.file);
  const turn = turnOfCall(events, callId);
  if (turn === null) return null;
  const calls = callsOfTurn(events, turn);
  const earlier = calls.slice(0, calls.indexOf(callId));
  const none = 'No file was changed in this turn before the review was asked for (by its checkpoints).';
  const taken = checkpointsTaken(events, earlier);
  if (taken === 'off')
    return 'Checkpoints are off, so the changes of this turn were not recorded: find them yourself (git diff, or the files the task names).';
  // Only reads so far: no store to open.
  if (taken === 'none') return none;
  const store = await parent.checkpoints.store();
  const span = turnSpan(store, earlier);
  if (!span) return none;
  const files = withAgents(await spanChanges(store, span), agentsOfFiles(events, earlier));
  if (files.length === 0)
    return 'No file was changed in this turn before the review was asked for (by its checkpoints).';
  return reviewText(files, limit);
}

/** Whether these calls took checkpoints: some did, none was to (reads), or some ran while they were off. */
function checkpointsTaken(events: readonly StatusEvent[], calls: readonly string[]): 'some' | 'none' | 'off' {
  const wanted = new Set(calls);
  let off = false;
  for (const event of events) {
    if (event.type !== 'tool_completed' || !wanted.has(event.call_id) || !event.checkpoint) continue;
    if (!event.checkpoint.off) return 'some';
    off = true;
  }
  return off ? 'off' : 'none';
}

/** The files as a list, then as many of their diffs as fit in `limit` characters, naming those left out. */
export function reviewText(files: readonly ChangedFile[], limit: number): string {
  const lines = [
    `The changes made in this turn before the review (${files.length} ${files.length === 1 ? 'file' : 'files'}):`,
  ];
  for (const file of files) {
    const by = file.agents ? ` (by agent ${file.agents.join(', ')})` : '';
    const what = file.diff === '' ? ` (${file.note ?? 'no diff'})` : `, +${file.added} −${file.removed}`;
    lines.push(`- ${file.path}: ${file.status}${what}${by}`);
  }
  const shown: string[] = [];
  const left: string[] = [];
  let used = 0;
  for (const file of files) {
    if (file.diff === '') continue;
    if (used + file.diff.length > limit) {
      left.push(file.path);
      continue;
    }
    shown.push(file.diff.endsWith('\n') ? file.diff : `${file.diff}\n`);
    used += file.diff.length;
  }
  if (shown.length > 0) lines.push('', '```diff', shown.join('').trimEnd(), '```');
  if (left.length > 0)
    lines.push(
      '',
      `The diff of ${left.join(', ')} is left out (over ${Math.round(limit / 1024)} KiB of diff in all): read ${left.length === 1 ? 'it' : 'them'} with read_file.`,
    );
  return lines.join('\n');
}
