import { access } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FixtureStepInput } from '../model/fixture-script.ts';
import { readSessionFile } from '../session/replay.ts';
import { isLiveOnly } from '../status/sink.ts';
import { startRig, WIRES, type Rig, type Wire } from '../../test/agent-kit.ts';

// Each injected fault of the fixture server, on both wires, ends as the loop promises: a failed
// turn with a message a person can act on, the text that arrived kept and marked partial, a call
// whose arguments were cut never run, and a session file that replays to the same story.

let rig: Rig | undefined;

afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

// Retries do not sleep. The stall timeout is short only where a stall is the fault under test: a
// busy machine can hold the fixture server's next bytes for longer than 300 ms.
const noWait = { sleep: async () => undefined, stallTimeoutMs: 5_000 };
const shortStall = { ...noWait, stallTimeoutMs: 300 };

async function run(wire: Wire, steps: FixtureStepInput[], model = noWait): Promise<Rig> {
  rig = await startRig(wire, { script: { steps }, model });
  rig.session.send('Go');
  await rig.session.idle();
  return rig;
}

/** The session file tells the same story as the live events, with nothing left to repair. */
async function expectFileMatchesLive(current: Rig): Promise<void> {
  const replay = await readSessionFile(current.session.file);
  const live = current.recorder.events.filter((event) => !isLiveOnly(event));
  expect(replay.events).toEqual(live);
  expect(replay.repairs).toEqual([]);
  expect(replay.corrupt).toEqual([]);
  expect(replay.context).toEqual(current.session.context());
}

describe.each(WIRES)('faults on the %s wire', (wire) => {
  it('a rate limit with retry-after is retried, and the turn completes', async () => {
    const current = await run(wire, [
      { fault: { type: 'http_error', status: 429, retry_after: 1 } },
      { text: ['Fine now.'] },
    ]);
    expect(current.server.requests).toHaveLength(2);
    expect(current.recorder.ofType('turn_completed')).toHaveLength(1);
    expect(current.recorder.ofType('assistant_message')[0]).toMatchObject({ text: 'Fine now.' });
    await expectFileMatchesLive(current);
  });

  it('retries exhausted: the turn fails with the status in its message', async () => {
    const busy = { fault: { type: 'http_error', status: 503 } } as const;
    const current = await run(wire, [busy, busy, busy]);
    expect(current.server.requests).toHaveLength(3);
    const failed = current.recorder.ofType('turn_failed')[0]!;
    expect(failed.error).toMatch(/503/);
    expect(failed.aborted).toBeUndefined();
    await expectFileMatchesLive(current);
  });

  it('an error event mid-stream fails the turn and keeps the text before it, marked partial', async () => {
    const afterEvents = wire === 'anthropic' ? 4 : 2;
    const current = await run(wire, [
      {
        text: ['partial ', 'answer'],
        fault: { type: 'error_event', after_events: afterEvents, message: 'Overloaded right now' },
      },
    ]);
    const failed = current.recorder.ofType('turn_failed')[0]!;
    expect(failed.error).toMatch(/Overloaded right now/);
    expect(current.recorder.ofType('assistant_message')).toMatchObject([
      { text: 'partial ', partial: true, tool_calls: [] },
    ]);
    await expectFileMatchesLive(current);
  });

  it("a cut inside a tool call's arguments fails the turn and never runs the call", async () => {
    const current = await run(wire, [
      {
        text: ['Writing.'],
        tool_calls: [{ id: 'cut', name: 'append_line', args_chunks: ['{"path": "cut.txt", ', '"line": "never"}'] }],
        fault: { type: 'cut', after_text: 'cut.txt' },
      },
    ]);
    expect(current.recorder.ofType('turn_failed')[0]?.error).toMatch(/closed mid-stream.*not run/);
    expect(current.recorder.ofType('tool_started')).toEqual([]);
    expect(current.recorder.ofType('assistant_message')).toMatchObject([
      { text: 'Writing.', partial: true, tool_calls: [] },
    ]);
    await expect(access(path.join(current.workspace, 'cut.txt'))).rejects.toThrow();
    await expectFileMatchesLive(current);
  });

  it('a stall fails the turn once no bytes arrive for the stall timeout', async () => {
    const current = await run(
      wire,
      [{ text: ['waiting', ' forever'], fault: { type: 'stall', after_text: ' forever' } }],
      shortStall,
    );
    const failed = current.recorder.ofType('turn_failed')[0]!;
    expect(failed.error).toMatch(/no data from the model/);
    expect(current.recorder.ofType('assistant_message')).toMatchObject([{ text: 'waiting', partial: true }]);
    await expectFileMatchesLive(current);
  });

  it('a stream that ends without its final event fails the turn', async () => {
    const current = await run(wire, [{ text: ['almost ', 'done'], fault: { type: 'eof' } }]);
    expect(current.recorder.ofType('turn_failed')[0]?.error).toMatch(/ended before its final event/);
    expect(current.recorder.ofType('turn_completed')).toEqual([]);
    expect(current.recorder.ofType('assistant_message')).toMatchObject([{ text: 'almost done', partial: true }]);
    await expectFileMatchesLive(current);
  });
});
