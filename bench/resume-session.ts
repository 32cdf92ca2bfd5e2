import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, open, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StatusEvent } from '../protocol/events.ts';
import { SessionLog } from '../main/session/session-log.ts';
import { SESSION_FORMAT_VERSION, serializeRecord, type SessionRecord } from '../main/session/records.ts';
import { longRunCall, longRunRegistry, type LongRunShape } from './long-run-calls.ts';

// The conversation the resume bench reopens, written twice, fast: as ÆtherCodex's session log and as
// pi's session JSONL, with the same messages, the same calls and the same results. It is the session
// a long `aether run` leaves (long-run.ts's shape: steps of parallel reads and searches, then a
// closing answer). Each distinct call runs once through the real tools (a few hundred calls), so
// the records are what the tools write; the 10 000 calls reuse them under their own ids.

/** What a tool left in the log for one call: its start, its content and its completion. */
interface CallRecords {
  started: Record<string, unknown>;
  content: { content: string; is_error: boolean };
  completed: Record<string, unknown>;
}

export interface Conversation {
  shape: LongRunShape;
  prompt: string;
  answer: string;
  /** The records of each distinct call, by its name and arguments. */
  calls: Map<string, CallRecords>;
}

const keyOf = (name: string, args: unknown) => `${name} ${JSON.stringify(args)}`;

/** Runs each distinct call of the shape once through the registry and keeps what the log wrote. */
export async function recordConversation(workspace: string, shape: LongRunShape): Promise<Conversation> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-resume-calls-'));
  try {
    const log = await SessionLog.create({ root: scratch, workspace, model: 'bench' });
    const registry = longRunRegistry(workspace, log);
    /** Call id → its key, for the first call of each key. */
    const distinct = new Map<string, string>();
    const seen = new Set<string>();
    const firsts = [];
    for (let step = 0; step < shape.steps; step += 1)
      for (let index = 0; index < shape.parallel; index += 1) {
        const call = longRunCall(shape, step, index);
        const key = keyOf(call.name, call.args);
        if (seen.has(key)) continue;
        seen.add(key);
        distinct.set(call.id, key);
        firsts.push(call);
      }
    await Promise.all(firsts.map((call) => registry.call({ callId: call.id, name: call.name, args: call.args })));
    await log.close();
    const byId = new Map<string, Partial<CallRecords>>();
    for (const line of (await readFile(log.file, 'utf8')).split('\n')) {
      if (line.length === 0) continue;
      const record = JSON.parse(line) as SessionRecord;
      const id = record.kind === 'event' ? (record.event as { call_id?: string }).call_id : undefined;
      const entry = (callId: string) => byId.get(callId) ?? byId.set(callId, {}).get(callId)!;
      if (record.kind === 'tool_content')
        entry(record.call_id).content = { content: record.content, is_error: record.is_error };
      else if (record.kind === 'event' && id !== undefined && record.event.type === 'tool_started')
        entry(id).started = record.event as unknown as Record<string, unknown>;
      else if (record.kind === 'event' && id !== undefined && record.event.type === 'tool_completed')
        entry(id).completed = record.event as unknown as Record<string, unknown>;
    }
    const calls = new Map<string, CallRecords>();
    for (const [id, key] of distinct) {
      const records = byId.get(id);
      if (!records?.started || !records.content || !records.completed)
        throw new Error(`The bench's call ${key} left no complete records in ${log.file}.`);
      calls.set(key, records as CallRecords);
    }
    return { shape, prompt: 'Read the modules.', answer: 'Done.', calls };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Lines to a file in large writes. */
async function lineWriter(file: string) {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const handle = await open(file, 'w', 0o600);
  let chunk: string[] = [];
  let size = 0;
  return {
    async write(line: string) {
      chunk.push(line);
      size += line.length;
      if (size < 1 << 20) return;
      await handle.write(chunk.join(''));
      chunk = [];
      size = 0;
    },
    async close() {
      await handle.write(chunk.join(''));
      await handle.close();
    },
  };
}

function recorded(conversation: Conversation, step: number, index: number) {
  const call = longRunCall(conversation.shape, step, index);
  const records = conversation.calls.get(keyOf(call.name, call.args));
  if (!records) throw new Error(`No records for ${call.id}.`);
  return { call, records };
}

/** The conversation as ÆtherCodex's session log, at `sessionFileOf(root, id)`. */
export async function writeAetherSession(
  conversation: Conversation,
  file: string,
  header: { id: string; workspace: string; model: string },
): Promise<void> {
  const out = await lineWriter(file);
  const at = new Date(Date.UTC(2026, 11, 7)).toISOString();
  const turn = 'turn-bench';
  let seq = 0;
  const write = (record: SessionRecord) => out.write(serializeRecord(record));
  const event = (value: Record<string, unknown>) =>
    write({ kind: 'event', event: { ...value, seq: (seq += 1), at } as unknown as StatusEvent });
  const usage = () =>
    event({
      type: 'step_usage',
      turn_id: turn,
      model: header.model,
      usage: { input_tokens: 12, output_tokens: 6, cache_read_tokens: 0, reasoning_tokens: 0 },
      context_tokens: 18,
      cost: 0,
      session_cost: 0,
    });
  await write({ kind: 'header', version: SESSION_FORMAT_VERSION, ...header, created_at: at });
  await event({ type: 'user_message', turn_id: turn, text: conversation.prompt });
  await event({ type: 'turn_started', turn_id: turn, model: header.model });
  const { steps, parallel } = conversation.shape;
  for (let step = 0; step < steps; step += 1) {
    const calls = Array.from({ length: parallel }, (_, index) => recorded(conversation, step, index));
    await usage();
    await event({
      type: 'assistant_message',
      turn_id: turn,
      text: '',
      tool_calls: calls.map(({ call }) => ({ call_id: call.id, name: call.name, args: call.args })),
    });
    for (const { call, records } of calls)
      await event({ ...records.started, call_id: call.id, turn_id: turn, seq: undefined, at: undefined });
    for (const { call, records } of calls) {
      await write({ kind: 'tool_content', call_id: call.id, name: call.name, ...records.content });
      await event({ ...records.completed, call_id: call.id, seq: undefined, at: undefined });
    }
  }
  await usage();
  await event({ type: 'assistant_message', turn_id: turn, text: conversation.answer, tool_calls: [] });
  await event({
    type: 'turn_completed',
    turn_id: turn,
    usage: { input_tokens: 12 * (steps + 1), output_tokens: 6 * (steps + 1) },
    stop_reason: 'stop',
  });
  await out.close();
}

/**
 * The same conversation as pi's session file (its docs/session-format.md, version 3): a header,
 * then message entries chained by parentId — the person's message, each step's assistant message
 * with its tool calls, one toolResult per call, and the closing answer.
 */
export async function writePiSession(
  conversation: Conversation,
  file: string,
  session: { cwd: string; provider: string; model: string },
): Promise<void> {
  const out = await lineWriter(file);
  const timestamp = new Date(Date.UTC(2026, 11, 7)).toISOString();
  const ms = Date.parse(timestamp);
  let entries = 0;
  let parentId: string | null = null;
  const message = (value: Record<string, unknown>) => {
    const id = (entries += 1).toString(16).padStart(8, '0');
    const line = JSON.stringify({ type: 'message', id, parentId, timestamp, message: { ...value, timestamp: ms } });
    parentId = id;
    return out.write(`${line}\n`);
  };
  const usage = {
    input: 12,
    output: 6,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 18,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  const assistant = { api: 'openai-completions', provider: session.provider, model: session.model, usage };
  await out.write(
    `${JSON.stringify({ type: 'session', version: 3, id: randomUUID(), timestamp, cwd: session.cwd })}\n`,
  );
  await message({ role: 'user', content: conversation.prompt });
  const { steps, parallel } = conversation.shape;
  for (let step = 0; step < steps; step += 1) {
    const calls = Array.from({ length: parallel }, (_, index) => recorded(conversation, step, index));
    await message({
      role: 'assistant',
      content: calls.map(({ call }) => ({ type: 'toolCall', id: call.id, name: call.name, arguments: call.args })),
      ...assistant,
      stopReason: 'toolUse',
    });
    for (const { call, records } of calls)
      await message({
        role: 'toolResult',
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: 'text', text: records.content.content }],
        isError: records.content.is_error,
      });
  }
  await message({
    role: 'assistant',
    content: [{ type: 'text', text: conversation.answer }],
    ...assistant,
    stopReason: 'stop',
  });
  await out.close();
}
