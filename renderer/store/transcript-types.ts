import type { ProcessInfo } from '../../protocol/processes.ts';
import type { TodoItem } from '../../protocol/todos.ts';
import { EMPTY_QUEUE, type QueueState } from '../../protocol/queue.ts';
import type { ImageRef } from '../../protocol/composer.ts';
import type { CallDescription, EchoShape } from '../../protocol/echo.ts';
import type {
  ApprovalAnswer,
  ApprovalRequest,
  CodeRewoundEvent,
  CompactionEvent,
  CompactionFailedEvent,
  HookRanEvent,
  ToolCodeDispatchEvent,
  Usage,
} from '../../protocol/events.ts';
import type { ToolProgress } from '../../protocol/tools.ts';
import { emptyMeter, type MeterState } from './meter.ts';

// The transcript as the panel shows it: messages and tool calls kept as byId + order. Every entry
// is replaced, never mutated, so a component that selects one entry re-renders only when it changes.

export type CallState = 'running' | 'done' | 'error' | 'interrupted';

export interface Approval {
  /** The call that asks: the card's own call, or a nested Code Mode call inside it. */
  call_id: string;
  name: string;
  request: ApprovalRequest;
  answer?: ApprovalAnswer;
  /** The call or turn was stopped before anyone answered. */
  stopped?: boolean;
}

/** A nested Code Mode call: a line in its parent's trace, never a card. */
export type NestedCall = Pick<
  ToolCodeDispatchEvent,
  'call_id' | 'name' | 'args' | 'content' | 'echo' | 'is_error' | 'execution_time' | 'description'
>;

export interface ToolCallView {
  call_id: string;
  name: string;
  args: unknown;
  turn_id?: string;
  /** What the call does (tool_started): the card's subtitle and its tooltip. */
  description?: CallDescription;
  /** The echo kind the tool answers with: which card shows the call, from its start. */
  echo_kind?: string;
  state: CallState;
  /** The newest live report; replaced wholesale by each one. */
  progress?: ToolProgress;
  /** The echo of `tool_completed` (protocol/echo.ts), decoded by the view of its kind. */
  echo?: EchoShape;
  is_error: boolean;
  execution_time?: number;
  /** ISO time the call started, when the event carried one. */
  started_at?: string;
  approvals: Approval[];
  nested: NestedCall[];
  /** The call may change the workspace (a checkpoint was taken before it, or would have been): its card offers Rewind. */
  may_change_workspace?: true;
  /** Why the card cannot rewind the code (checkpoints were off, or its checkpoint was pruned); absent: it can. */
  rewind_unavailable?: string;
  /** The hooks that ran on the call (PreToolUse, PostToolUse), in order: the card's hook lines. */
  hooks?: HookRanEvent[];
}

export type MessageEntry =
  /** The model context was compacted (or a compaction failed); `turn_id` is '' for one made between turns. */
  | { kind: 'compaction'; id: string; turn_id: string; event: CompactionEvent | CompactionFailedEvent }
  /** `steer`: sent while the turn ran, and entered it here (after the calls above it settled). */
  | { kind: 'user'; id: string; turn_id: string; text: string; images?: ImageRef[]; steer?: true }
  | { kind: 'assistant'; id: string; turn_id: string; text: string; streaming: boolean; partial: boolean }
  /** A turn's failure or stop; `info`: something the person should know (checkpoints pruned, say). */
  | {
      kind: 'notice';
      id: string;
      turn_id: string;
      text: string;
      tone: 'error' | 'stopped' | 'info';
      /** Refused for a rate limit: Retry waits until then (an ISO time). */
      retry_at?: string;
    }
  /** The model's reasoning in a turn: growing while it streams, then whole with its duration. */
  | {
      kind: 'thinking';
      id: string;
      turn_id: string;
      text: string;
      streaming: boolean;
      /** ISO time of the first delta, for the live timer. */
      started_at?: string;
      duration_ms?: number;
    }
  /** Project instructions the model received (a context message), shown as the context-message tree. */
  | {
      kind: 'context';
      id: string;
      turn_id: string;
      source: string;
      text: string;
      change: 'loaded' | 'changed' | 'removed';
      truncated?: { bytes: number; limit: number };
    };

/** One row of the transcript; message ids and call ids live in separate maps, so `kind` says which. */
export interface TranscriptItem {
  kind: 'message' | 'call';
  id: string;
}

export interface TurnView {
  turn_id: string;
  model?: string;
  state: 'running' | 'completed' | 'failed' | 'stopped';
  usage?: Usage;
  /** ISO times the turn started and ended, when the events carried them (a turn row's timer and duration). */
  started_at?: string;
  ended_at?: string;
  /** Assistant messages seen in this turn; names the next one. */
  assistant_count: number;
}

export interface TranscriptState {
  /** The rows, in the order they appear. */
  order: TranscriptItem[];
  messages: Record<string, MessageEntry>;
  calls: Record<string, ToolCallView>;
  turns: Record<string, TurnView>;
  /** The assistant message currently receiving deltas, per turn; `thinking:<turn>` the reasoning. */
  streaming: Record<string, string>;
  /** Nested call id → the card (outer call) it belongs to. */
  parents: Record<string, string>;
  activeTurnId: string | null;
  usage: Usage;
  /** The context meter and the cost (meter.ts). */
  meter: MeterState;
  /** The session's code rewinds (code_rewound), oldest first: each leaves a card that can undo it. */
  rewinds: RewindEntry[];
  /** Messages sent while a turn ran and not delivered yet (protocol/queue.ts). */
  queue: QueueState;
  /** The todo list as the last `todos` event left it. */
  todos: TodoItem[];
  /** The plan_propose calls whose plan the person approved. */
  approvedPlans: string[];
  /** The plan_propose calls the person answered with Keep planning (`plan_kept`). */
  keptPlans: string[];
  /** Each background process's last `process_state`, by the exec call that started it: its card's state. */
  processes: Record<string, ProcessInfo>;
}

/** A code rewind's card. */
export interface RewindEntry {
  event: CodeRewoundEvent;
  /** A later rewind went to its `undo`: the card says so instead of offering it again. */
  undone?: boolean;
  /** Its `undo` checkpoint was pruned by the storage limit: it can no longer be undone. */
  undo_gone?: boolean;
}

export function emptyTranscript(): TranscriptState {
  return {
    order: [],
    messages: {},
    calls: {},
    turns: {},
    streaming: {},
    parents: {},
    activeTurnId: null,
    usage: { input_tokens: 0, output_tokens: 0 },
    meter: emptyMeter(),
    rewinds: [],
    queue: EMPTY_QUEUE,
    todos: [],
    approvedPlans: [],
    keptPlans: [],
    processes: {},
  };
}
