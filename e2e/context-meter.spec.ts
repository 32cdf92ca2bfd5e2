import { expect, test } from './panel-fixture.ts';

// The footer's context meter during a turn of three model steps against a fixture server that
// states an 8 000-token window: an estimate (~) before each step, the provider's figure after it,
// the percentage climbing step by step; the turn's row shows its tokens and cost; the meter opens
// the status view. At the desktop width and at 420 px.

for (const width of [1280, 420]) {
  test(`the context meter moves with each step of a turn at ${width} px`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    await panel.write('notes.txt', 'alpha\n');
    panel.script({
      models: [{ id: 'scripted', context_window: 8_000 }],
      steps: [
        {
          tool_calls: [{ id: 'call_a', name: 'read_file', args: { path: 'notes.txt' } }],
          usage: { input_tokens: 2_000, output_tokens: 40 },
          chunk_delay_ms: 60,
        },
        {
          tool_calls: [{ id: 'call_b', name: 'list_dir', args: { path: '.' } }],
          usage: { input_tokens: 4_000, output_tokens: 40 },
          chunk_delay_ms: 60,
        },
        { text: ['All ', 'read.'], usage: { input_tokens: 6_000, output_tokens: 20 }, chunk_delay_ms: 60 },
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
    await panel.send('Read the notes and list the folder');

    await expect(percent).toHaveText('75%', { timeout: 30_000 });
    await expect(meter).toHaveAttribute('data-estimated', 'false');
    const states = await page.evaluate(() => (window as unknown as { meterStates: string[] }).meterStates);
    // Each step: the tokenizer's estimate of the request first, then the provider's figure (2 040,
    // 4 040, then 6 020 of 8 000). Events that arrive together render once, so a provider's figure
    // that lasts only as long as a fast tool call may be passed over on a busy machine (the next
    // step's estimate replaces it in the same frame); but the meter moves during the turn, through
    // the estimates and the figures, and only upwards between provider figures.
    const provided = states.filter((state) => state.startsWith('false:') && state !== 'false:—');
    expect(provided.length).toBeGreaterThanOrEqual(1);
    const shown = new Set(states.map((state) => state.slice(state.indexOf(':') + 1)).filter((text) => text !== '—'));
    expect(shown.size).toBeGreaterThanOrEqual(3);
    expect(provided.at(-1)).toBe('false:75%');
    const values = provided.map((state) => Number.parseInt(state.slice('false:'.length), 10));
    expect(values).toEqual(values.toSorted((a, b) => a - b));
    expect(values.every((value) => [26, 51, 75].includes(value))).toBe(true);
    const firstEstimate = states.findIndex((state) => state.startsWith('true:'));
    expect(firstEstimate).toBeGreaterThanOrEqual(0);
    expect(firstEstimate).toBeLessThan(states.indexOf(provided[0]!));
    await expect(meter.getByRole('meter')).toHaveAttribute('aria-valuenow', '75');
    await expect(page.getByTestId('context-meter-cost')).toHaveText('$0.00');
    await expect(page.getByTestId('turn-meta').last()).toContainText('12,000 tokens in, 100 out · $0.00');
    await expect(meter).toBeInViewport();

    await meter.click();
    const status = page.getByTestId('status-view');
    await expect(status).toBeVisible();
    await expect(status).toBeInViewport();
    await expect(page.getByTestId('status-model')).toContainText('#scripted');
    await expect(page.getByTestId('status-window')).toHaveText('8,000 tokens');
    await expect(page.getByTestId('status-used')).toHaveText('6,020 tokens of 8,000 (75.3 %)');
    await expect(page.getByTestId('status-compaction')).toContainText('automatic at 85 %');
    await panel.shot(`context-meter-${width}`);
    await page.keyboard.press('Escape');
    await expect(status).toBeHidden();
    await expect(meter).toBeFocused();
  });
}
