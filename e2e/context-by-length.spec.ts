import { expect, test } from './panel-fixture.ts';

// Far from compaction the context meter's estimate is counted from the length of the texts, not by
// the tokenizer: the meter shows it as an estimate (~) and the status view says how it was counted.
// The fixture holds back the step's answer, so the estimate is what the meter shows until Stop. At the
// desktop width, 420 and 360 px.

test('the status view says the estimate far from compaction is counted from its length', async ({ panel }) => {
  const { page } = panel;
  await page.setViewportSize({ width: 1280, height: 800 });
  panel.script({
    models: [{ id: 'scripted', context_window: 200_000 }],
    // The answer's first byte waits a minute: the turn is stopped long before.
    latency_ms: 60_000,
    steps: [{ text: ['Never sent.'] }],
  });
  await panel.send('How big is the context?');
  const meter = page.getByTestId('context-meter');
  await expect(meter).toHaveAttribute('data-estimated', 'true');
  await expect(page.getByTestId('context-meter-percent')).toHaveText(/^\d+(\.\d)?%$/);
  await meter.click();
  const used = page.getByTestId('status-used');
  await expect(used).toHaveText(/^[\d,]+ tokens \(estimated from the text’s length\) of 200,000 \(\d+\.\d %\)$/);
  for (const width of [1280, 420, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await expect(used).toBeInViewport();
    await panel.shot(`context-by-length-${width}`);
  }
  await page.keyboard.press('Escape');
  await page.getByTestId('composer-stop').click();
  await expect(page.getByTestId('composer-stop')).toBeHidden();
});
