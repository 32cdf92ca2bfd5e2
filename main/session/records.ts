import { z } from 'zod';
import { IMAGE_MEDIA_TYPES, type ImageRef } from '../../protocol/composer.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import type { ReasoningBlock } from '../model/types.ts';
import { checkedRecord } from './record-check.ts';

// The lines of a session file. One JSON object per line, appended and fsynced in order:
//   header        — first line: who, where, which model
//   event         — every durable status event, with its seq and time
//   tool_content  — the complete model-facing content of one call (nested calls too)
//   reasoning     — the model's reasoning blocks of the assistant_message written next (the
//                   provider needs them back with the step's tool results)
// The model context is rebuilt from these alone (see context.ts): user and assistant messages come
// from their events, tool messages from the content records, in the order the model asked for them.

export const SESSION_FORMAT_VERSION = 1;

export interface HeaderRecord {
  kind: 'header';
  version: number;
  id: string;
  workspace: string;
  created_at: string;
  model: string;
  /**
   * Set on a session forked from another by a conversation rewind (see fork.ts); `message` is the
   * number of the person's message it goes back before (1 for the first), absent in older forks.
   */
  parent?: { session: string; turn_id: string; call_id?: string; message?: number };
  /** Set on a child session an `agent` call started: the parent session, that call, and the agent's name. */
  agent_of?: { session: string; call_id: string; agent: string };
  /** Set on a session started as an agent (`aether run --agent`, the panel's "New session as"): a resume runs as it too. */
  as_agent?: string;
}

export interface EventRecord {
  kind: 'event';
  event: StatusEvent;
}

export interface ToolContentRecord {
  kind: 'tool_content';
  call_id: string;
  name: string;
  content: string;
  is_error: boolean;
  parent_call_id?: string;
  images?: ImageRef[];
}

export interface ReasoningRecord {
  kind: 'reasoning';
  blocks: ReasoningBlock[];
}

export type SessionRecord = HeaderRecord | EventRecord | ToolContentRecord | ReasoningRecord;

const headerSchema = z.object({
  kind: z.literal('header'),
  version: z.number().int().positive(),
  id: z.string().min(1),
  workspace: z.string(),
  created_at: z.string(),
  model: z.string(),
  parent: z
    .object({
      session: z.string(),
      turn_id: z.string(),
      call_id: z.string().optional(),
      message: z.number().int().nonnegative().optional(),
    })
    .optional(),
  agent_of: z.object({ session: z.string(), call_id: z.string(), agent: z.string() }).optional(),
  as_agent: z.string().optional(),
});

// Events are checked for the fields replay relies on; the rest passes through as written.
const callIdField = { call_id: z.string() };
const eventSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('user_message'), turn_id: z.string(), text: z.string() }),
  z.looseObject({ type: z.literal('turn_started'), turn_id: z.string() }),
  z.looseObject({ type: z.literal('turn_completed'), turn_id: z.string() }),
  z.looseObject({ type: z.literal('turn_failed'), turn_id: z.string() }),
  z.looseObject({
    type: z.literal('assistant_message'),
    turn_id: z.string(),
    text: z.string(),
    tool_calls: z.array(z.looseObject({ call_id: z.string(), name: z.string(), args: z.unknown() })),
  }),
  z.looseObject({ type: z.literal('reasoning'), turn_id: z.string(), text: z.string() }),
  z.looseObject({
    type: z.literal('context_message'),
    turn_id: z.string(),
    source: z.string(),
    text: z.string(),
    change: z.enum(['loaded', 'changed', 'removed']),
  }),
  z.looseObject({ type: z.literal('tool_started'), ...callIdField, name: z.string() }),
  z.looseObject({ type: z.literal('tool_approval_requested'), ...callIdField }),
  z.looseObject({ type: z.literal('tool_approval_resolved'), ...callIdField }),
  z.looseObject({ type: z.literal('tool_completed'), ...callIdField, name: z.string(), is_error: z.boolean() }),
  z.looseObject({ type: z.literal('tool_code_dispatch'), ...callIdField }),
  z.looseObject({
    type: z.literal('compaction'),
    summary: z.string(),
    kept_messages: z.number().int().nonnegative(),
    kept_user_message: z.string().optional(),
    kept_instructions: z.array(z.string()).optional(),
  }),
  z.looseObject({ type: z.literal('compaction_failed'), error: z.string() }),
  z.looseObject({ type: z.literal('code_rewound'), target: z.string(), undo: z.string(), what: z.string() }),
  z.looseObject({ type: z.literal('hook_ran'), hook_event: z.string(), command: z.string(), decision: z.string() }),
  z.looseObject({ type: z.literal('todos'), todos: z.array(z.looseObject({ id: z.string(), text: z.string() })) }),
  z.looseObject({ type: z.literal('context_note'), turn_id: z.string(), text: z.string() }),
  z.looseObject({ type: z.literal('plan_kept'), ...callIdField }),
  z.looseObject({
    type: z.literal('queue'),
    items: z.array(z.looseObject({ id: z.string(), text: z.string(), mode: z.enum(['steer', 'next']) })),
  }),
  z.looseObject({
    type: z.literal('process_state'),
    process: z.looseObject({ id: z.string(), call_id: z.string(), command: z.string(), state: z.string() }),
  }),
  z.looseObject({
    type: z.literal('step_usage'),
    turn_id: z.string(),
    usage: z.looseObject({ input_tokens: z.number(), output_tokens: z.number() }),
    context_tokens: z.number(),
    session_cost: z.number(),
  }),
]);

/** Exported for record-check.test.ts, which holds the hand check to it. */
export const recordSchema = z.discriminatedUnion('kind', [
  headerSchema,
  z.object({ kind: z.literal('event'), event: eventSchema }),
  z.object({
    kind: z.literal('tool_content'),
    call_id: z.string(),
    name: z.string(),
    content: z.string(),
    is_error: z.boolean(),
    parent_call_id: z.string().optional(),
    images: z
      .array(z.object({ sha256: z.string(), media_type: z.enum(IMAGE_MEDIA_TYPES), bytes: z.number().int().min(0) }))
      .optional(),
  }),
  z.object({
    kind: z.literal('reasoning'),
    blocks: z.array(
      z.object({ provider: z.string(), text: z.string(), data: z.record(z.string(), z.unknown()).optional() }),
    ),
  }),
]);

/** One line back into a record, or the reason it cannot be. */
export function parseRecord(line: string): { ok: true; record: SessionRecord } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, reason: `not JSON (${(error as Error).message})` };
  }
  const sure = checkedRecord(value);
  if (sure) return { ok: true, record: sure };
  const parsed = recordSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      reason: `not a session record (${issue ? `${issue.path.join('.') || 'record'}: ${issue.message}` : 'unknown shape'})`,
    };
  }
  return { ok: true, record: parsed.data as unknown as SessionRecord };
}

export function serializeRecord(record: SessionRecord): string {
  return `${JSON.stringify(record)}\n`;
}
