import type { QueueState } from '../../protocol/queue.ts';
import type { UserInput } from './turn.ts';
import type { OpenedSession } from '../../protocol/api.ts';
import type { ReasoningEffort, StatusEvent } from '../../protocol/events.ts';
import type { ChatMessage, ModelAdapter } from '../model/types.ts';
import type { SessionPages } from '../session/event-pages.ts';
import type { StatusSink } from '../status/sink.ts';
import type { SessionCheckpoints } from '../tools/checkpoints/call-checkpoints.ts';
import type { CheckpointSettings } from '../tools/checkpoints/checkpoint-store.ts';
import type { SessionHooks } from '../tools/hooks/session-hooks.ts';
import type { GateRules, PermissionGate } from '../tools/permission-gate.ts';
import type { AnyTool } from '../tools/tool.ts';
import type { ContextBudget } from './compaction.ts';
import type { ModelInfoLookup } from './usage-meter.ts';

/** What AgentSession.start and AgentSession.resume take, besides where sessions are kept. */
export interface AgentSessionOptions {
  /** Where `sink` receives every status event (the panel, the CLI printer, a test recorder). */
  sink: StatusSink;
  model: ModelAdapter;
  /** The workspace root, real path. */
  workspace: string;
  gate?: PermissionGate;
  rules?: GateRules;
  /** Default: builtinTools(). */
  tools?: AnyTool[];
  /** Which of the session's own tools (todo_write, plan_propose) it keeps; default: both. */
  ownTools?: (tool: AnyTool) => boolean;
  effort?: ReasoningEffort;
  /** Model steps one turn may take before it is stopped. Default 50. */
  maxSteps?: number;
  /** Checkpoint settings, read at each call; default: on, with the default limits. */
  checkpoints?: () => CheckpointSettings & { enabled: boolean };
  /** A child's calls are recorded in its parent's checkpoints, under the parent's `agent` call. */
  checkpointsWithin?: { checkpoints: SessionCheckpoints; callId: string };
  /** The model's window, the token estimate and the compaction threshold; default: `modelInfo`'s window, the tokenizer, `compactAt`. */
  budget?: ContextBudget;
  /** The fraction of the window past which the next request compacts first, read before each step (default 0.85); null: off. */
  compactAt?: () => number | null;
  /** How long Anthropic keeps the cached prefix (prompt-cache.ts); an hour's writes cost 2× the input price. Default 5 minutes. */
  promptCacheTtl?: '5m' | '1h';
  now?: () => Date;
  /** A model's window and prices for the context meter and the cost; default: the registry alone. */
  modelInfo?: ModelInfoLookup;
  /** The person's and the workspace's hooks (PreToolUse, Stop…); none without. */
  hooks?: SessionHooks;
  /** Folders besides the workspace that read tools may read (the person's skills). */
  readableRoots?: string[];
  /** A child session an `agent` call starts: its parent session and that call, written in its header. */
  agentOf?: { session: string; call_id: string; agent: string };
  /** An agent's own instructions, after the system prompt's. */
  instructions?: string;
  /** The agent a new session runs as, written in its header. */
  asAgent?: string;
}

/** What a session starts from: nothing for a new one, its replayed log for a resumed one. */
export interface SessionHistory {
  messages: ChatMessage[];
  /** A resumed session's model context, built when first needed (resumed-context.ts); else null. */
  buildContext?: () => ChatMessage[];
  /** What it reads of its events: those of the model context and the usage steps (contextLater). */
  events: StatusEvent[];
  title: string;
  updatedAt: string;
  reopened: OpenedSession | null;
  pages?: SessionPages;
  /** A resumed session's waiting messages (held until the person sends them), with their images' bytes. */
  queue?: { state: QueueState; inputs: ReadonlyMap<string, UserInput> };
}
