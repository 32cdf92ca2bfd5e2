import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import type { RecordedRequest } from '../model/fixture-server.ts';
import { parseFixtureStep, type FixtureStepInput } from '../model/fixture-script.ts';
import { builtinTools } from '../tools/index.ts';
import { conversationOf, startRig, WIRES, type Rig } from '../../test/agent-kit.ts';

// The model overwrites a file the way it is told to: read_file, then write_file with the sha256 the
// read reported. Each step of the fixture model is computed from the request it was sent, so the
// hash it passes is the one in the text it received, over each route a read reaches the model by.

let rig: Rig | undefined;

afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** A step computed from the text of the newest message the model was sent (a tool result or the user's). */
type Reply = (received: string) => FixtureStepInput;

function replying(replies: Reply[]): (request: RecordedRequest) => ReturnType<typeof parseFixtureStep> | undefined {
  let next = 0;
  return (request) => {
    const reply = replies[next++];
    if (reply === undefined) return undefined;
    const last = conversationOf(request.body).at(-1);
    return parseFixtureStep(
      reply(last === undefined || last.kind === 'assistant' ? '' : last.kind === 'tool' ? last.content : last.text),
    );
  };
}

/** The sha256 as the model would copy it from what it read: a labelled line, or a field of JSON. */
function hashIn(text: string): string | undefined {
  return /sha256"?:\s*"?([0-9a-f]{64})/.exec(text)?.[1];
}

const overwrite: Reply = (received) => ({
  tool_calls: [
    {
      id: 'call_write',
      name: 'write_file',
      args: { path: 'notes.txt', content: 'rewritten\n', expected_sha256: hashIn(received) },
    },
  ],
});
const done: Reply = () => ({ text: ['Done.'] });

function completed(events: readonly StatusEvent[], callId: string): StatusEvent | undefined {
  return events.find((event) => event.type === 'tool_completed' && event.call_id === callId);
}

describe.each(WIRES)('overwriting a file over the %s wire', (wire) => {
  async function run(replies: Reply[], message: string, mentions?: string[]): Promise<Rig> {
    rig = await startRig(wire, { respond: replying(replies), tools: builtinTools() });
    await writeFile(path.join(rig.workspace, 'notes.txt'), 'one\ntwo\nthree\n');
    expect(rig.session.send(message, mentions).ok).toBe(true);
    expect((await rig.session.idle())?.status).toBe('completed');
    return rig;
  }

  it.each([
    ['the whole file', { path: 'notes.txt' }],
    ['a range of it', { path: 'notes.txt', offset: 2, limit: 1 }],
  ])('writes with the sha256 from the text of a read_file of %s', async (_, args) => {
    const read: Reply = () => ({ tool_calls: [{ id: 'call_read', name: 'read_file', args }] });
    const { workspace, recorder } = await run([read, overwrite, done], 'Rewrite notes.txt');
    expect(completed(recorder.events, 'call_write')).toMatchObject({ is_error: false });
    expect(await readFile(path.join(workspace, 'notes.txt'), 'utf8')).toBe('rewritten\n');
  });

  it("writes with the sha256 from a file the person's message mentions", async () => {
    const { workspace, recorder } = await run([overwrite, done], 'Rewrite @notes.txt', ['notes.txt']);
    expect(completed(recorder.events, 'call_write')).toMatchObject({ is_error: false });
    expect(await readFile(path.join(workspace, 'notes.txt'), 'utf8')).toBe('rewritten\n');
  });

  it('writes with the sha256 a read in run_code returns', async () => {
    const program = "return await tools.read_file({ path: 'notes.txt' });";
    const read: Reply = () => ({ tool_calls: [{ id: 'call_code', name: 'run_code', args: { code: program } }] });
    const { workspace, recorder } = await run([read, overwrite, done], 'Rewrite notes.txt');
    expect(completed(recorder.events, 'call_write')).toMatchObject({ is_error: false });
    expect(await readFile(path.join(workspace, 'notes.txt'), 'utf8')).toBe('rewritten\n');
  });

  it('overwrites inside run_code with the sha256 of a nested read', async () => {
    const program = [
      "const page = await tools.read_file({ path: 'notes.txt' });",
      "await tools.write_file({ path: 'notes.txt', content: 'rewritten\\n', expected_sha256: page.sha256 });",
      "return 'ok';",
    ].join('\n');
    const code: Reply = () => ({ tool_calls: [{ id: 'call_code', name: 'run_code', args: { code: program } }] });
    const { workspace, recorder } = await run([code, done], 'Rewrite notes.txt');
    expect(completed(recorder.events, 'call_code')).toMatchObject({ is_error: false });
    expect(await readFile(path.join(workspace, 'notes.txt'), 'utf8')).toBe('rewritten\n');
  });
});
