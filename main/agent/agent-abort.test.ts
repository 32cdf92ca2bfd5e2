import { access } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSessionFile } from '../session/replay.ts';
import { conversationOf, sessionLines, startRig, waitForEvent, WIRES, type Rig } from '../../test/agent-kit.ts';

let rig: Rig | undefined;

afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const words = Array.from({ length: 40 }, (_, index) => `word${index} `);

describe.each(WIRES)('stopping a turn over the %s wire', (wire) => {
  it('mid-stream: cancels the stream, keeps the text so far marked partial, and fails the turn as stopped', async () => {
    rig = await startRig(wire, { script: { steps: [{ text: words, chunk_delay_ms: 50 }] } });
    rig.session.send('Talk a while');
    await waitForEvent(rig.recorder, (event) => event.type === 'assistant_delta');
    await rig.session.stop();
    const outcome = await rig.session.idle();

    expect(outcome).toMatchObject({ status: 'failed', aborted: true, error: 'Stopped by the user.' });
    const partial = rig.recorder.ofType('assistant_message')[0]!;
    expect(partial.partial).toBe(true);
    expect(partial.text.length).toBeGreaterThan(0);
    expect(words.join('').startsWith(partial.text)).toBe(true);
    expect(partial.text).not.toBe(words.join(''));
    expect(rig.recorder.ofType('turn_failed')[0]).toMatchObject({ aborted: true, error: 'Stopped by the user.' });

    const replay = await readSessionFile(rig.session.file);
    expect(replay.events.map((event) => event.type)).toEqual([
      'user_message',
      'turn_started',
      'assistant_message',
      'turn_failed',
    ]);
    expect(replay.events[2]).toMatchObject({ partial: true, text: partial.text });
    expect(replay.repairs).toEqual([]);
  });

  it('mid-tool: the running tool sees its signal, the calls after it never start, and the model is not asked again', async () => {
    rig = await startRig(wire, {
      script: {
        steps: [
          {
            tool_calls: [
              { id: 'h', name: 'hold', args: { name: 'h1' } },
              { id: 'w', name: 'append_line', args: { path: 'after.txt', line: 'never' } },
            ],
          },
          { text: ['unreachable'] },
        ],
      },
    });
    rig.session.send('Hold, then write');
    await rig.kit.running('h1');
    await rig.session.stop();

    const contents = rig.recorder.ofType('tool_completed').map((event) => [event.call_id, event.is_error]);
    expect(contents).toEqual([
      ['h', true],
      ['w', true],
    ]);
    expect(rig.session.toolContent('h')).toMatchObject({
      ok: true,
      value: { content: 'hold h1 saw its signal abort' },
    });
    expect(rig.session.toolContent('w')).toMatchObject({
      ok: true,
      value: { content: expect.stringMatching(/^Cancelled: append_line was stopped before it started/) },
    });
    await expect(access(path.join(rig.workspace, 'after.txt'))).rejects.toThrow();
    expect(rig.server.requests).toHaveLength(1);
    expect(rig.recorder.ofType('turn_failed')[0]).toMatchObject({ aborted: true });

    const replay = await readSessionFile(rig.session.file);
    expect(replay.repairs).toEqual([]);
    expect(replay.context).toEqual(rig.session.context());
  });

  it('Stop on one card cancels that call alone: the model gets its cancelled result and the turn goes on', async () => {
    rig = await startRig(wire, {
      script: {
        steps: [
          { tool_calls: [{ id: 'h', name: 'hold', args: { name: 'h3' } }] },
          { text: ['It was cancelled; moving on.'] },
        ],
      },
    });
    rig.session.send('Hold');
    await rig.kit.running('h3');
    expect(rig.session.cancelCall('h')).toEqual({ ok: true, value: undefined });
    const outcome = await rig.session.idle();

    expect(outcome?.status).toBe('completed');
    expect(rig.session.toolContent('h')).toMatchObject({
      ok: true,
      value: { content: 'hold h3 saw its signal abort', is_error: true },
    });
    expect(rig.server.requests).toHaveLength(2);
    expect(JSON.stringify(rig.server.requests[1])).toContain('hold h3 saw its signal abort');
    expect(rig.session.cancelCall('h')).toMatchObject({ ok: false, error: expect.stringContaining('not running') });
  });

  it('holds what was waiting, and the next message starts a fresh turn with the stopped one in context', async () => {
    rig = await startRig(wire, {
      script: { steps: [{ tool_calls: [{ id: 'h', name: 'hold', args: { name: 'h2' } }] }, { text: ['Fresh.'] }] },
    });
    rig.session.send('Hold');
    await rig.kit.running('h2');
    rig.session.send('held, not sent');
    await rig.session.stop();
    rig.session.send('Start again');
    const outcome = await rig.session.idle();

    expect(outcome?.status).toBe('completed');
    expect(rig.recorder.ofType('turn_started')).toHaveLength(2);
    const users = conversationOf(rig.server.requests[1]!.body).filter((entry) => entry.kind === 'user');
    expect(users).toEqual([
      { kind: 'user', text: 'Hold' },
      { kind: 'user', text: 'Start again' },
    ]);
    // Kept, held, for the person to send or remove; never sent by itself.
    expect(rig.session.queue()).toMatchObject({ held: true, items: [{ text: 'held, not sent', mode: 'next' }] });
    const written = (await sessionLines(rig.session.file)).map((line) => JSON.stringify(line));
    expect(written.some((line) => line.includes('"user_message"') && line.includes('held, not sent'))).toBe(false);
  });
});
