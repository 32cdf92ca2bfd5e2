import { describe, expect, it } from 'vitest';
import type { ToolProgress } from '../../protocol/tools.ts';
import { ManualClock } from '../../test/manual-clock.ts';
import { OutputAccumulator } from './exec/output-accumulator.ts';
import { ProgressReporter } from './progress-reporter.ts';

const LIMITS = { memoryBytes: 1024, memoryLines: 100, tailBytes: 1024, liveBytes: 64 * 1024 };

/** An accumulator wired to a reporter on a manual clock; reports land in a plain array, synchronously. */
function harness() {
  const clock = new ManualClock();
  const accumulator = new OutputAccumulator('/nonexistent/never-written.txt', LIMITS);
  const reports: { at: number; progress: ToolProgress }[] = [];
  const reporter = new ProgressReporter(
    () => accumulator.progress(),
    (progress) => reports.push({ at: clock.now(), progress }),
    clock,
    150,
  );
  const write = (text: string): void => {
    accumulator.append(Buffer.from(text));
    reporter.notify();
  };
  return { clock, accumulator, reporter, reports, write };
}

describe('ProgressReporter', () => {
  it('sends the first change at once (leading edge)', () => {
    const { reports, write } = harness();
    write('one\n');
    expect(reports).toEqual([{ at: 0, progress: { text: 'one\n', cut_bytes: 0, total_bytes: 4 } }]);
  });

  it('folds changes inside the interval into one trailing report carrying everything so far', () => {
    const { clock, reports, reporter, write } = harness();
    write('a');
    clock.advance(10);
    write('b');
    clock.advance(10);
    write('c');
    clock.advance(10);
    write('d');
    expect(reports.map((report) => report.progress.text)).toEqual(['a']);
    clock.advance(120);
    expect(reports).toEqual([
      { at: 0, progress: { text: 'a', cut_bytes: 0, total_bytes: 1 } },
      { at: 150, progress: { text: 'abcd', cut_bytes: 0, total_bytes: 4 } },
    ]);
    expect(reporter.counters).toMatchObject({ sent: 2, dropped: 2 });
  });

  it('sends at most one report per interval under a steady stream of output', () => {
    const { clock, reports, write } = harness();
    for (let tick = 0; tick < 100; tick += 1) {
      write(`${tick}\n`);
      clock.advance(10);
    }
    // 1000 ms of output every 10 ms: the leading report at 0, then one every 150 ms.
    expect(reports.map((report) => report.at)).toEqual([0, 150, 300, 450, 600, 750, 900]);
  });

  it('sends nothing when nothing changed since the last report', () => {
    const { clock, reports, write } = harness();
    write('x');
    clock.advance(1000);
    expect(reports).toHaveLength(1);
  });

  it('sends a change after a quiet interval at once', () => {
    const { clock, reports, write } = harness();
    write('x');
    clock.advance(400);
    write('y');
    expect(reports.map((report) => [report.at, report.progress.text])).toEqual([
      [0, 'x'],
      [400, 'xy'],
    ]);
  });

  it('drops reports, never output: the flush at the end carries the exact output', async () => {
    const { clock, accumulator, reporter, reports, write } = harness();
    const chunks = Array.from({ length: 50 }, (_, index) => `line ${index} ✓\n`);
    for (const chunk of chunks) {
      write(chunk);
      clock.advance(3);
    }
    const final = await accumulator.finish();
    reporter.flush();
    expect(reporter.counters.dropped).toBeGreaterThan(0);
    expect(reports.at(-1)?.progress.text).toBe(chunks.join(''));
    expect(final.text).toBe(chunks.join(''));
    expect(clock.timersPending).toBe(0);
  });

  it('sends nothing after stop, even when a trailing report was due', () => {
    const { clock, reports, reporter, write } = harness();
    write('a');
    write('b');
    reporter.stop();
    clock.advance(500);
    write('c');
    expect(reports.map((report) => report.progress.text)).toEqual(['a']);
  });

  it('keeps reporting when the receiver throws', () => {
    const clock = new ManualClock();
    let calls = 0;
    const reporter = new ProgressReporter(
      () => ({ text: 't', cut_bytes: 0, total_bytes: 1 }),
      () => {
        calls += 1;
        throw new Error('listener failed');
      },
      clock,
    );
    reporter.notify();
    clock.advance(200);
    reporter.notify();
    expect(calls).toBe(2);
  });
});
