import path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { echoPlainText, patchEchoSchema, writeEchoSchema, type EchoShape } from '../../protocol/echo.ts';
import type { ApprovalRequest, StatusEvent, ToolStartedEvent } from '../../protocol/events.ts';
import type { TodoItem } from '../../protocol/todos.ts';

// The status stream as ACP `session/update`s: one translation for a live turn and for a session
// replayed by `session/load`. A live turn streams its text and reasoning as deltas, and its durable
// `assistant_message` / `reasoning` then add only what the deltas did not carry; a replay has no
// deltas, so the durable events carry all of it. Writes and patches become ACP diffs of the hunks
// they changed (each with its context lines), since the echo keeps the change, not the whole file.

/** What a tool is, as an ACP client groups calls (its icon, how it folds the call). */
const TOOL_KINDS: Record<string, acp.ToolKind> = {
  read_file: 'read',
  list_dir: 'read',
  search_files: 'search',
  write_file: 'edit',
  patch_file: 'edit',
  exec: 'execute',
  ssh_exec: 'execute',
  web_fetch: 'fetch',
  todo_write: 'think',
};

export function toolKindOf(name: string): acp.ToolKind {
  return TOOL_KINDS[name] ?? 'other';
}

/** Between two hunks of a diff: a line both sides share, so a client shows the gap as unchanged. */
const HUNK_GAP = '⋮';

/** The two sides of a unified diff's hunks (`@@` headers, ` ` / `-` / `+` lines). */
export function sidesOfDiff(diff: string): { oldText: string; newText: string } {
  const before: string[] = [];
  const after: string[] = [];
  let hunks = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('@@')) {
      if (hunks > 0) {
        before.push(HUNK_GAP);
        after.push(HUNK_GAP);
      }
      hunks += 1;
    } else if (line.startsWith('---') || line.startsWith('+++') || line.startsWith('\\') || hunks === 0) {
      continue;
    } else if (line.startsWith('-')) before.push(line.slice(1));
    else if (line.startsWith('+')) after.push(line.slice(1));
    else {
      before.push(line.slice(1));
      after.push(line.slice(1));
    }
  }
  return { oldText: before.join('\n'), newText: after.join('\n') };
}

/** The hunks a write proposes, as the two sides of a diff (hunk lines carry their sign). */
function sidesOfHunks(hunks: readonly { lines: readonly string[] }[]): { oldText: string; newText: string } {
  const diff = hunks.map((hunk) => ['@@', ...hunk.lines].join('\n')).join('\n');
  return sidesOfDiff(diff);
}

/** A write's or a patch's change as ACP diff content, or null for any other echo. */
export function diffOfEcho(echo: EchoShape, workspace: string): acp.ToolCallContent | null {
  const write = writeEchoSchema.safeParse(echo);
  if (write.success) {
    const file = path.resolve(workspace, write.data.path);
    if (write.data.change) return { type: 'diff', path: file, ...sidesOfDiff(write.data.change.diff) };
    if (write.data.content) return { type: 'diff', path: file, oldText: null, newText: write.data.content.text };
    return null;
  }
  const patch = patchEchoSchema.safeParse(echo);
  if (patch.success)
    return { type: 'diff', path: path.resolve(workspace, patch.data.path), ...sidesOfDiff(patch.data.diff) };
  return null;
}

/** The proposed change an approval question shows, as ACP diff content (the whole change: no hunk choice). */
export function diffOfReview(request: ApprovalRequest, workspace: string): acp.ToolCallContent[] {
  const review = request.review;
  if (!review) return [];
  const sides = sidesOfHunks(review.hunks);
  return [
    {
      type: 'diff',
      path: path.resolve(workspace, review.path),
      ...(review.created ? { oldText: null, newText: sides.newText } : sides),
    },
  ];
}

const PLAN_STATUS: Record<Exclude<TodoItem['status'], 'dropped'>, acp.PlanEntryStatus> = {
  pending: 'pending',
  in_progress: 'in_progress',
  done: 'completed',
};

/** The todo list as an ACP plan: the whole list each time, a dropped item left out. */
export function planOf(todos: readonly TodoItem[]): acp.SessionUpdate {
  return {
    sessionUpdate: 'plan',
    entries: todos.flatMap((item) =>
      item.status === 'dropped'
        ? []
        : [{ content: item.text, priority: 'medium' as const, status: PLAN_STATUS[item.status] }],
    ),
  };
}

function text(value: string): acp.ContentBlock {
  return { type: 'text', text: value };
}

function toolCallOf(event: ToolStartedEvent, workspace: string): acp.SessionUpdate {
  const where = event.description?.path;
  return {
    sessionUpdate: 'tool_call',
    toolCallId: event.call_id,
    title: event.description?.title ?? event.name,
    kind: toolKindOf(event.name),
    status: 'pending',
    rawInput: isObject(event.args) ? event.args : { value: event.args },
    ...(where ? { locations: [{ path: path.resolve(workspace, where) }] } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A call's result as the client shows it: a diff for a write or a patch, else the card's text. */
function resultContent(echo: EchoShape, workspace: string): acp.ToolCallContent[] {
  const diff = diffOfEcho(echo, workspace);
  if (diff) return [diff];
  const words = echoPlainText(echo);
  return words.trim() === '' ? [] : [{ type: 'content', content: text(words) }];
}

/**
 * Translates a session's status events into ACP updates, in order. One translator per session:
 * it remembers what the deltas of the current step already carried.
 */
export class UpdateTranslator {
  private readonly workspace: string;
  private streamedText = '';
  private streamedThought = '';
  /** Calls already announced: a replayed `tool_completed` of a call whose start the page cut is announced first. */
  private readonly announced = new Set<string>();

  constructor(workspace: string) {
    this.workspace = workspace;
  }

  /** The updates an event makes; `replay`: a stored session read back, whose person's messages are shown too. */
  updates(event: StatusEvent, replay: boolean): acp.SessionUpdate[] {
    switch (event.type) {
      case 'user_message':
        return replay ? [{ sessionUpdate: 'user_message_chunk', content: text(event.text) }] : [];
      case 'assistant_delta':
        this.streamedText += event.text;
        return [{ sessionUpdate: 'agent_message_chunk', content: text(event.text) }];
      case 'reasoning_delta':
        this.streamedThought += event.text;
        return [{ sessionUpdate: 'agent_thought_chunk', content: text(event.text) }];
      case 'reasoning': {
        const rest = remainder(event.text, this.streamedThought);
        this.streamedThought = '';
        return rest === '' ? [] : [{ sessionUpdate: 'agent_thought_chunk', content: text(rest) }];
      }
      case 'assistant_message': {
        const rest = remainder(event.text, this.streamedText);
        this.streamedText = '';
        return rest === '' ? [] : [{ sessionUpdate: 'agent_message_chunk', content: text(rest) }];
      }
      case 'tool_started':
        this.announced.add(event.call_id);
        return [toolCallOf(event, this.workspace)];
      case 'tool_approval_resolved':
        return event.answer === 'deny'
          ? []
          : [{ sessionUpdate: 'tool_call_update', toolCallId: event.call_id, status: 'in_progress' }];
      case 'tool_progress':
        return [];
      case 'tool_completed': {
        const started: acp.SessionUpdate[] = this.announced.has(event.call_id)
          ? []
          : [toolCallOf({ type: 'tool_started', call_id: event.call_id, name: event.name, args: {} }, this.workspace)];
        return [
          ...started,
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: event.call_id,
            status: event.is_error ? 'failed' : 'completed',
            content: resultContent(event.result, this.workspace),
          },
        ];
      }
      case 'tool_code_dispatch':
        // A run_code program's nested call: its own call in the client's list, already finished.
        return [
          {
            sessionUpdate: 'tool_call',
            toolCallId: event.call_id,
            title: event.description?.title ?? event.name,
            kind: toolKindOf(event.name),
            status: event.is_error ? 'failed' : 'completed',
            rawInput: isObject(event.args) ? event.args : { value: event.args },
            content: resultContent(event.echo, this.workspace),
          },
        ];
      case 'todos':
        return [planOf(event.todos)];
      case 'turn_failed':
        // What went wrong reads as the agent's words; a stop by the person needs none.
        return event.aborted ? [] : [{ sessionUpdate: 'agent_message_chunk', content: text(`\n\n${event.error}`) }];
      default:
        return [];
    }
  }
}

/** What of `whole` the deltas (`streamed`) did not carry; all of it when they streamed something else. */
function remainder(whole: string, streamed: string): string {
  return whole.startsWith(streamed) ? whole.slice(streamed.length) : whole;
}
