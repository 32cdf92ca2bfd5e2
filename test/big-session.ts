import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { StatusEvent } from '../protocol/events.ts';
import { SESSION_FORMAT_VERSION, serializeRecord, type SessionRecord } from '../main/session/records.ts';
import { sessionFileOf } from '../main/session/session-log.ts';
import { textEcho } from '../main/tools/call-echo.ts';

// A long session written straight to its file, as the log would have written it: turns of
// sequential exec calls, each with its assistant_message, tool_started, full content and
// tool_completed. 10 000 calls make a file of about 16 MB, the size the open benchmark names.

export interface BigSessionOptions {
  root: string;
  id: string;
  workspace: string;
  calls: number;
  callsPerTurn?: number;
  /** Characters of model-facing content per call. */
  contentChars?: number;
}

/** The command of call `index`, so a test can find a given card. */
export function bigSessionCommand(index: number): string {
  return `echo call-${String(index).padStart(5, '0')}`;
}

export async function writeBigSession(options: BigSessionOptions): Promise<string> {
  const { calls, callsPerTurn = 100, contentChars = 500 } = options;
  const file = sessionFileOf(path.resolve(options.root), options.id);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const handle = await open(file, 'w', 0o600);
  const created = new Date(Date.UTC(2026, 0, 1)).toISOString();
  let seq = 0;
  let chunk: string[] = [];
  const write = async (record: SessionRecord) => {
    chunk.push(serializeRecord(record));
    if (chunk.length >= 512) await flush();
  };
  const flush = async () => {
    await handle.write(chunk.join(''));
    chunk = [];
  };
  const event = (value: StatusEvent) => write({ kind: 'event', event: { ...value, seq: (seq += 1), at: created } });
  try {
    await write({
      kind: 'header',
      version: SESSION_FORMAT_VERSION,
      id: options.id,
      workspace: options.workspace,
      created_at: created,
      model: 'compat:bench',
    });
    for (let call = 0; call < calls; call += 1) {
      const turn = `t${Math.floor(call / callsPerTurn)}`;
      if (call % callsPerTurn === 0) {
        await event({ type: 'user_message', turn_id: turn, text: `Turn ${turn}: run the next commands` });
        await event({ type: 'turn_started', turn_id: turn, model: 'compat:bench' });
      }
      const callId = `call-${call}`;
      const command = bigSessionCommand(call);
      const args = { command };
      const content = `${command}\n${'output line of a long session\n'.repeat(Math.ceil(contentChars / 30))}`.slice(
        0,
        contentChars,
      );
      await event({
        type: 'assistant_message',
        turn_id: turn,
        text: '',
        tool_calls: [{ call_id: callId, name: 'exec', args }],
      });
      await event({ type: 'tool_started', turn_id: turn, call_id: callId, name: 'exec', args });
      await write({ kind: 'tool_content', call_id: callId, name: 'exec', content, is_error: false });
      await event({
        type: 'tool_completed',
        call_id: callId,
        name: 'exec',
        execution_time: 3,
        is_error: false,
        result: textEcho(content, 'exec'),
      });
      if (call % callsPerTurn === callsPerTurn - 1 || call === calls - 1) {
        await event({ type: 'assistant_message', turn_id: turn, text: `Done with ${turn}.`, tool_calls: [] });
        await event({
          type: 'turn_completed',
          turn_id: turn,
          usage: { input_tokens: 10, output_tokens: 10 },
          stop_reason: 'end_turn',
        });
      }
    }
    await flush();
  } finally {
    await handle.close();
  }
  return file;
}
