import type { StatusEvent, Usage } from '../../protocol/events.ts';
import type { ProcessInfo } from '../../protocol/processes.ts';
import { textEcho } from '../tools/call-echo.ts';
import { interruptedContent } from './context.ts';
import type { SessionRecord, ToolContentRecord } from './records.ts';
import { isFormat1Event } from './upgrade.ts';

// What a session file leaves open when the app stopped mid-way, gathered as its events are read,
// and the repair records that close it: a call without a result gets an "interrupted, outcome
// unknown" result (for its card and for the model) and is never run again; an unanswered approval
// is denied; a process last seen running is stopped; an unfinished turn is failed.

/** What replay needs to know of the events read, gathered as they are read. */
export interface Tally {
  /** Calls asked for or started, by id, with their tool's name; those completed; approvals unanswered. */
  calls: Map<string, string>;
  done: Set<string>;
  asked: Set<string>;
  openTurns: Set<string>;
  lastSeq: number;
  usage: Usage;
  firstUser: string | null;
  updatedAt: string | null;
  /** Some event was written before echoes had kinds. */
  format1: boolean;
  /** Each background process's last record, by id. */
  processes: Map<string, ProcessInfo>;
}

export function newTally(): Tally {
  return {
    calls: new Map(),
    done: new Set(),
    asked: new Set(),
    openTurns: new Set(),
    lastSeq: 0,
    usage: { input_tokens: 0, output_tokens: 0 },
    firstUser: null,
    updatedAt: null,
    format1: false,
    processes: new Map(),
  };
}

/** Counts one event as it is read (while it is fresh in the cache, not in a second pass over them all). */
export function countEvent(tally: Tally, event: StatusEvent): void {
  if (event.seq !== undefined && event.seq > tally.lastSeq) tally.lastSeq = event.seq;
  if (event.at) tally.updatedAt = event.at;
  if (!tally.format1 && isFormat1Event(event)) tally.format1 = true;
  const { calls, done, asked, openTurns, usage } = tally;
  if (event.type === 'assistant_message') for (const call of event.tool_calls) calls.set(call.call_id, call.name);
  else if (event.type === 'tool_started') calls.set(event.call_id, event.name);
  else if (event.type === 'tool_completed') done.add(event.call_id);
  else if (event.type === 'tool_approval_requested') asked.add(event.call_id);
  else if (event.type === 'tool_approval_resolved') asked.delete(event.call_id);
  else if (event.type === 'turn_started') openTurns.add(event.turn_id);
  else if (event.type === 'user_message' && tally.firstUser === null) tally.firstUser = event.text;
  else if (event.type === 'process_state') tally.processes.set(event.process.id, event.process);
  else if (event.type === 'turn_completed' || event.type === 'turn_failed') {
    openTurns.delete(event.turn_id);
    if (event.usage) {
      usage.input_tokens += event.usage.input_tokens;
      usage.output_tokens += event.usage.output_tokens;
    }
  }
}

export function repairRecords(
  { calls, done, asked, openTurns, processes }: Tally,
  contents: Map<string, ToolContentRecord>,
  stamp: <E extends StatusEvent>(event: E) => E,
): SessionRecord[] {
  const repairs: SessionRecord[] = [];
  for (const callId of asked) {
    repairs.push({ kind: 'event', event: stamp({ type: 'tool_approval_resolved', call_id: callId, answer: 'deny' }) });
  }
  for (const [callId, name] of calls) {
    if (done.has(callId)) continue;
    let content = contents.get(callId);
    if (!content) {
      content = { kind: 'tool_content', call_id: callId, name, content: interruptedContent(name), is_error: true };
      repairs.push(content);
    }
    repairs.push({
      kind: 'event',
      event: stamp({
        type: 'tool_completed',
        call_id: callId,
        name,
        execution_time: 0,
        is_error: content.is_error,
        result: textEcho(content.content, name),
      }),
    });
  }
  // A process the log last saw running was running when the app died: the next start's sweep ends
  // whatever the app left running (left-processes.ts), before a resume appends this.
  for (const process of processes.values()) {
    if (process.state !== 'running') continue;
    repairs.push({
      kind: 'event',
      event: stamp({
        type: 'process_state',
        process: { ...process, state: 'stopped', end_reason: 'app_closed', ports: [] },
      }),
    });
  }
  for (const turnId of openTurns) {
    repairs.push({
      kind: 'event',
      event: stamp({
        type: 'turn_failed',
        turn_id: turnId,
        error: 'Interrupted: the session ended before this turn finished.',
      }),
    });
  }
  return repairs;
}
