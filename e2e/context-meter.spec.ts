import { expect, test } from './panel-fixture.ts';

// The footer's context meter during a turn of three model steps against a fixture server that
// states a 10 000-token window and counts each request a quarter above the tokenizer's estimate:
// an estimate (~) before each step, the provider's figure after it (held while a command waits for
// its answer), the figure climbing step by step without falling back between the two; near the
// compaction threshold it says so in words ("Compacts soon: 84 % of 10k", announced as a status);
// the turn's row shows its tokens and cost; the meter opens the status view. At the desktop width
// and at 420 px (and the words at 360 px too).

for (const width of [1280, 420]) {
  test(`the context meter moves with each step of a turn and says when compaction is near at ${width} px`, async ({
    panel,
  }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    await panel.write('notes.txt', 'alpha\n');
    panel.script({
      models: [{ id: 'scripted', context_window: 10_000 }],
      steps: [
        {
          tool_calls: [{ id: 'call_a', name: 'read_file', args: { path: 'notes.txt' } }],
          usage: { input_tokens: 7_500, output_tokens: 40 },
          chunk_delay_ms: 60,
        },
        {
          tool_calls: [{ id: 'call_b', name: 'exec', args: { command: 'echo listed' } }],
          usage: { input_tokens: 7_800, output_tokens: 40 },
          chunk_delay_ms: 60,
        },
        { text: ['All ', 'read.'], usage: { input_tokens: 8_380, output_tokens: 20 }, chunk_delay_ms: 60 },
      ],
    });
    const meter = page.getByTestId('context-meter');
    const percent = page.getByTestId('context-meter-percent');
    // Every state the meter shows, in order, as `estimated:percent` (a figure can last only as
    // long as a fast tool call, too short to poll for).
    await meter.evaluate((element) => {
      const seen: string[] = [];
      (window as unknown as { meterStates: string[] }).meterStates = seen;
      const note = () => {
        const state = `${element.getAttribute('data-estimated')}:${element.querySelector('[data-testid="context-meter-percent"]')?.textContent}`;
        if (seen.at(-1) !== state) seen.push(state);
      };
      new MutationObserver(note).observe(element, {
        subtree: true,
        attributes: true,
        childList: true,
        characterData: true,
      });
    });
    await expect(page.getByTestId('context-note')).toHaveCount(0);
    await panel.send('Read the notes and list the folder');
    // While the command waits for its answer, the meter holds the provider's figure for step 2.
    await expect(page.getByTestId('approval')).toBeVisible({ timeout: 30_000 });
    await expect(meter).toHaveAttribute('data-estimated', 'false');
    await expect(percent).toHaveText('78%');
    await page.getByTestId('approve-once').click();

    await expect(percent).toHaveText('84%', { timeout: 30_000 });
    await expect(meter).toHaveAttribute('data-estimated', 'false');
    const states = await page.evaluate(() => (window as unknown as { meterStates: string[] }).meterStates);
    // Each step: the tokenizer's estimate of the request first, then the provider's figure (7 540,
    // 7 840, then 8 400 of 10 000). Events that arrive together render once, so a provider's figure
    // that lasts only as long as a fast tool call may be passed over on a busy machine (the next
    // step's estimate replaces it in the same frame); but the meter moves during the turn, and once
    // the provider has counted, the estimates are in its terms: the figure never falls back.
    const provided = states.filter((state) => state.startsWith('false:') && state !== 'false:—');
    expect(provided.length).toBeGreaterThanOrEqual(2);
    expect(provided.at(-1)).toBe('false:84%');
    const values = provided.map((state) => Number.parseInt(state.slice('false:'.length), 10));
    expect(values.every((value) => [75, 78, 84].includes(value))).toBe(true);
    const firstEstimate = states.findIndex((state) => state.startsWith('true:'));
    expect(firstEstimate).toBeGreaterThanOrEqual(0);
    expect(firstEstimate).toBeLessThan(states.indexOf(provided[0]!));
    const shown = states
      .slice(states.indexOf(provided[0]!))
      .map((state) => Number.parseInt(state.slice(state.indexOf(':') + 1), 10));
    expect(shown, states.join(' ')).toEqual(shown.toSorted((a, b) => a - b));
    await expect(meter.getByRole('meter')).toHaveAttribute('aria-valuenow', '84');
    await expect(page.getByTestId('context-meter-cost')).toHaveText('$0.00');
    await expect(page.getByTestId('turn-meta').last()).toContainText('23,680 tokens in, 100 out · $0.00');
    await expect(meter).toBeInViewport();

    // In words, where a screen reader hears it, and on the meter itself.
    const note = page.getByRole('status').filter({ has: page.getByTestId('context-note') });
    await expect(note).toHaveText('Compacts soon: 84 % of 10k');
    await expect(meter.getByRole('meter')).toHaveAttribute('aria-valuetext', 'Compacts soon: 84 % of 10k');
    for (const shot of width === 420 ? [420, 360] : [width]) {
      await page.setViewportSize({ width: shot, height: 800 });
      await expect(page.getByTestId('context-note')).toBeInViewport();
      await expect(meter).toBeInViewport();
      await panel.shot(`context-note-${shot}`);
    }
    await page.setViewportSize({ width, height: 800 });

    await meter.click();
    const status = page.getByTestId('status-view');
    await expect(status).toBeVisible();
    await expect(status).toBeInViewport();
    await expect(page.getByTestId('status-model')).toContainText('#scripted');
    await expect(page.getByTestId('status-window')).toHaveText('10,000 tokens');
    await expect(page.getByTestId('status-used')).toHaveText('8,400 tokens of 10,000 (84.0 %)');
    await expect(page.getByTestId('status-compaction')).toContainText('automatic at 85 %');
    await panel.shot(`context-meter-${width}`);
    await page.keyboard.press('Escape');
    await expect(status).toBeHidden();
    await expect(meter).toBeFocused();
  });
}
