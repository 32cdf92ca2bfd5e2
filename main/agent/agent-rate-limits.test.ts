import { afterEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { startRig, WIRES, type Rig } from '../../test/agent-kit.ts';
import { readSessionFile } from '../session/replay.ts';

// A session keeps what the provider says of its rate limits: each step's usage carries the limits
// its response stated (durable, so a reopened panel shows them), and a turn refused for a limit
// ends saying which one and when it resets, with the time Retry waits for.

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const ofType = <T extends StatusEvent['type']>(events: StatusEvent[], type: T) =>
  events.filter((event): event is Extract<StatusEvent, { type: T }> => event.type === type);

describe.each(WIRES)('%s wire', (wire) => {
  it('records each step’s rate limits, and a refusal’s reset time and limits on the failed turn', async () => {
    rig = await startRig(wire, {
      script: {
        steps: [
          { text: ['Fine.'], rate_limits: { requests: { limit: 50, remaining: 4, reset_s: 30 } } },
          {
            fault: { type: 'http_error', status: 429, retry_after: 120, message: 'Slow down.' },
            rate_limits: { requests: { limit: 50, remaining: 0, reset_s: 120 } },
          },
        ],
      },
    });
    rig.session.send('Hello');
    expect(await rig.session.idle()).toMatchObject({ status: 'completed' });
    const before = Date.now();
    rig.session.send('Again');
    const outcome = await rig.session.idle();
    expect(outcome).toMatchObject({ status: 'failed' });

    const [usage] = ofType(rig.recorder.events, 'step_usage');
    expect(usage?.rate_limits).toEqual([{ name: 'requests', limit: 50, remaining: 4, resets_at: expect.any(String) }]);
    const [failed] = ofType(rig.recorder.events, 'turn_failed');
    expect(failed?.error).toContain('The provider’s limit on requests was reached (0 of 50 left); it resets at');
    expect(failed?.error).toContain('or switch to another model.');
    expect(Date.parse(failed?.retry_at ?? '') - before).toBeGreaterThan(110_000);
    expect(failed?.rate_limits).toEqual([{ name: 'requests', limit: 50, remaining: 0, resets_at: expect.any(String) }]);
    // Durable: the log has both, so a reopened panel shows the same.
    const replay = await readSessionFile(rig.session.log.file);
    expect(ofType(replay.events, 'step_usage')[0]?.rate_limits).toEqual(usage?.rate_limits);
    expect(ofType(replay.events, 'turn_failed')[0]?.retry_at).toBe(failed?.retry_at);
  });
});
