import type { StatusEvent } from '../../protocol/events.ts';
import { terminalSafe } from './terminal-text.ts';

// `aether rewind SESSION` without a target: what the session can be rewound to. Each message of
// the person (a turn: the conversation goes back before it), and under it each call that took a
// checkpoint because it could change the workspace (the code goes back to before it), with its
// tool, what it was about (a path, a command) and when it ran. Reads only the session's log.

export interface RewindCall {
  callId: string;
  tool: string;
  /** The workspace-relative path, or the command line; empty when the call did not describe itself. */
  about: string;
  /** ISO time the call started. */
  at: string;
  failed: boolean;
  /** Why the code cannot go back to before this call, when it cannot. */
  unavailable?: string;
}

export interface RewindTurn {
  turnId: string;
  /** ISO time of the message. */
  at: string;
  text: string;
  calls: RewindCall[];
}

/** The session's turns, oldest first, each with its calls that took a checkpoint (or would have, had checkpoints been on). */
export function rewindTurns(events: readonly StatusEvent[]): RewindTurn[] {
  const turns: RewindTurn[] = [];
  const byTurn = new Map<string, RewindTurn>();
  const started = new Map<string, Extract<StatusEvent, { type: 'tool_started' }>>();
  const turnOfCall = new Map<string, string>();
  const pruned = new Set<string>();
  for (const event of events) {
    if (event.type === 'user_message') {
      const turn: RewindTurn = { turnId: event.turn_id, at: event.at ?? '', text: event.text, calls: [] };
      turns.push(turn);
      byTurn.set(event.turn_id, turn);
    } else if (event.type === 'assistant_message') {
      for (const call of event.tool_calls) turnOfCall.set(call.call_id, event.turn_id);
    } else if (event.type === 'tool_started') {
      started.set(event.call_id, event);
    } else if (event.type === 'tool_completed' && event.checkpoint) {
      for (const callId of event.checkpoint.pruned_calls ?? []) pruned.add(callId);
      const turn = byTurn.get(turnOfCall.get(event.call_id) ?? started.get(event.call_id)?.turn_id ?? '');
      if (!turn) continue;
      const start = started.get(event.call_id);
      const description = start?.description;
      turn.calls.push({
        callId: event.call_id,
        tool: event.name,
        about: description?.path ?? description?.subtitle ?? '',
        at: start?.at ?? event.at ?? '',
        failed: event.is_error,
        ...(event.checkpoint.off ? { unavailable: 'checkpoints were off' } : {}),
      });
    }
  }
  for (const call of turns.flatMap((turn) => turn.calls))
    if (pruned.has(call.callId)) call.unavailable ??= 'its checkpoint was pruned';
  return turns;
}

/** The listing: a turn a block, its calls as aligned columns, then how to rewind to one of them. */
export function describeRewindTurns(sessionId: string, turns: readonly RewindTurn[], sessionsFlag?: string): string {
  const sessions = sessionsFlag === undefined ? '' : ` --sessions ${sessionsFlag}`;
  if (turns.length === 0) return `Session ${sessionId} has no message yet: there is nothing to rewind to.\n`;
  const calls = turns.flatMap((turn) => turn.calls);
  const width = (pick: (call: RewindCall) => string): number => Math.max(0, ...calls.map((call) => pick(call).length));
  const idWidth = width((call) => call.callId);
  const toolWidth = width((call) => call.tool);
  const aboutWidth = Math.min(
    48,
    width((call) => cut(call.about, 48)),
  );
  const lines = [`Session ${sessionId}: its messages, and the calls that could change the workspace.`];
  for (const turn of turns) {
    lines.push('', `${time(turn.at, 'date')}  turn ${turn.turnId}  “${cut(firstLine(turn.text), 60)}”`);
    if (turn.calls.length === 0) lines.push('  no call of this turn could change the workspace');
    for (const call of turn.calls)
      lines.push(
        [
          `  ${call.failed ? '✗' : '✓'} ${call.callId.padEnd(idWidth)}`,
          call.tool.padEnd(toolWidth),
          cut(call.about, 48).padEnd(aboutWidth),
          time(call.at, 'time'),
          ...(call.unavailable ? [`(the code cannot go back: ${call.unavailable})`] : []),
        ].join('  '),
      );
  }
  lines.push(
    '',
    `The code to before a call:          aether rewind ${sessionId} CALL_ID [--dry-run]${sessions}`,
    `The conversation to before a turn:  aether rewind ${sessionId} TURN_ID --conversation${sessions}  (--both: the code too)`,
  );
  return `${terminalSafe(lines.join('\n'))}\n`;
}

/** `2026-12-06 19:21` or `19:21:44`, in UTC as `aether sessions` shows times; `?` when unknown. */
function time(iso: string, part: 'date' | 'time'): string {
  if (iso.length < 19) return '?';
  return part === 'date' ? iso.slice(0, 16).replace('T', ' ') : iso.slice(11, 19);
}

function firstLine(text: string): string {
  return (text.split('\n').find((line) => line.trim() !== '') ?? '').trim();
}

function cut(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}
