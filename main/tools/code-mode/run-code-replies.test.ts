import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StatusRecorder } from '../../status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { ToolRegistry } from '../registry.ts';
import { defineTool } from '../tool.ts';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { rm } from 'node:fs/promises';
import type { CallReply } from './run-code-protocol.ts';
import { createRunCodeTool } from './run-code.ts';
import { REPLY_BUFFER_BYTES, ReplyReader, ReplyWriter } from './run-code-replies.ts';
import { coolSandbox } from './warm-sandbox.ts';

const ok = (id: number, json: string | null): CallReply => ({ type: 'reply', id, ok: true, json });
const failed = (id: number, message: string): CallReply => ({ type: 'reply', id, ok: false, message });

/** A writer and a reader of one buffer in this thread, with the messages the writer had to post. */
function channel(bytes?: number) {
  const writer = new ReplyWriter(bytes);
  const reader = new ReplyReader(writer.shared);
  const posted: CallReply[] = [];
  return {
    send: (reply: CallReply) => writer.send(reply, (sent) => posted.push(sent)),
    take: () => reader.take(() => posted.shift()),
    posted,
  };
}

describe('the shared reply buffer', () => {
  it('hands over replies in order, each kind as it was sent', () => {
    const { send, take, posted } = channel();
    const replies = [
      ok(1, '{"n":1}'),
      ok(2, null),
      failed(3, 'tools.x failed: ünïcode ✓ 𝄞'),
      failed(4, ''),
      ok(2 ** 40, '""'),
    ];
    for (const reply of replies) send(reply);
    expect(posted).toEqual([]);
    expect(take()).toEqual(replies);
  });

  it('writes from the front again once everything was taken, so a small buffer serves any number of calls', () => {
    const { send, take, posted } = channel(256);
    const json = JSON.stringify({ text: 'x'.repeat(150) });
    for (let id = 1; id <= 1000; id += 1) {
      send(ok(id, json));
      expect(take()).toEqual([ok(id, json)]);
    }
    expect(posted).toEqual([]);
  });

  it('posts a reply larger than the buffer, and one that finds it full, and loses none', () => {
    const { send, take, posted } = channel(256);
    const small = (id: number) => ok(id, JSON.stringify({ id }));
    send(ok(1, JSON.stringify('y'.repeat(1000))));
    expect(posted).toHaveLength(1);
    for (let id = 2; id <= 40; id += 1) send(small(id));
    // The buffer filled up before the reader took anything: the rest were posted.
    expect(posted.length).toBeGreaterThan(1);
    const taken = take();
    expect(taken.map((reply) => reply.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(taken.find((reply) => reply.id === 1)).toEqual(ok(1, JSON.stringify('y'.repeat(1000))));
    expect(posted).toEqual([]);
    send(small(41));
    expect(take()).toEqual([small(41)]);
  });
});

/** A thread blocked in take() on `shared`; it posts 'waiting' first and what it took after. */
function blockedReader(shared: SharedArrayBuffer): Worker {
  const module = new URL('./run-code-replies.ts', import.meta.url).href;
  return new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     import(${JSON.stringify(module)}).then(({ ReplyReader }) => {
       const reader = new ReplyReader(workerData);
       parentPort.postMessage('waiting');
       parentPort.postMessage(reader.take(() => undefined));
     });`,
    { eval: true, workerData: shared },
  );
}

describe('a sandbox thread waiting for replies', () => {
  it('wakes when the host writes a reply', async () => {
    const writer = new ReplyWriter();
    const worker = blockedReader(writer.shared);
    const [first] = (await once(worker, 'message')) as [string];
    expect(first).toBe('waiting');
    const taken = once(worker, 'message');
    writer.send(ok(7, '{"done":true}'), () => {
      throw new Error('a small reply must not be posted');
    });
    expect(await taken).toEqual([[ok(7, '{"done":true}')]]);
    await worker.terminate();
  });

  it('is ended by terminate() while it blocks (the time limit and Stop rely on it)', async () => {
    const worker = blockedReader(new ReplyWriter().shared);
    await once(worker, 'message');
    const exited = once(worker, 'exit');
    // Were the wait not interruptible, this would never resolve and the test would time out.
    await worker.terminate();
    expect(await exited).toEqual([1]);
  });
});

describe('run_code with replies through shared memory', () => {
  let cleanup: (() => Promise<void>) | null = null;
  afterAll(async () => {
    await coolSandbox();
    await cleanup?.();
  });

  it('gives the program results larger than the buffer, and several at once under Promise.all', async () => {
    const { root, workspace, sessionDir } = await makeTempWorkspace('aether-run-code-replies-');
    cleanup = () => rm(root, { recursive: true, force: true });
    const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'nobody can answer in this test'));
    const registry = new ToolRegistry({ workspace, sessionDir, sink: new StatusRecorder(), gate });
    const text = defineTool({
      name: 'text',
      model: {
        description: 'Returns a text of the given length.',
        schema: z.object({ length: z.number().int().min(0), fill: z.string().length(1) }),
        render: (result: { text: string }) => `${result.text.length} characters`,
      },
      gate: { kind: 'read' },
      async execute(args) {
        return { text: args.fill.repeat(args.length) };
      },
    });
    registry.register(text, createRunCodeTool({ tools: () => registry.list() }));
    const large = REPLY_BUFFER_BYTES + 1000;
    const code = `
      const sizes = [${large}, 5, ${REPLY_BUFFER_BYTES / 2}, ${REPLY_BUFFER_BYTES / 2}, 3];
      const fills = ['a', 'é', 'c', 'd', '✓'];
      const results = await Promise.all(sizes.map((length, i) => tools.text({ length, fill: fills[i] })));
      const whole = results.every((result, i) => result.text === fills[i].repeat(sizes[i]));
      const after = await tools.text({ length: 2, fill: 'z' });
      return results.map((result) => result.text.length).join(',') + ' ' + whole + ' ' + after.text;`;
    const outcome = await registry.call({ callId: 'replies', name: 'run_code', args: { code } });
    expect(outcome).toMatchObject({
      isError: false,
      content: `${large},5,${REPLY_BUFFER_BYTES / 2},${REPLY_BUFFER_BYTES / 2},3 true zz`,
    });
  });
});
