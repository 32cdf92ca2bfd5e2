import { expect, test } from './panel-fixture.ts';

// The provider's rate limits and prompt cache in the panel, at 420 px (and the words at 360 px):
// after a turn whose last response says only 3 of 50 requests are left, a line above the footer
// says so in words with the reset time; the status view shows the cache's reads of that turn (the
// fixture counts them by the provider's rules) and each limit with when it resets. A request then
// refused for the limit says which limit, when it resets and what to do; Retry waits for the reset
// and then sends the message again.

const CLOCK = /\d\d:\d\d:\d\d/;

test('limits are shown before they bite, a refusal says when to retry, and the status view shows the cache', async ({
  panel,
}) => {
  const { page } = panel;
  await page.setViewportSize({ width: 420, height: 800 });
  await panel.write('notes.txt', 'alpha\n');
  panel.script({
    prompt_cache: true,
    models: [{ id: 'scripted', context_window: 200_000 }],
    steps: [
      {
        tool_calls: [{ id: 'call_a', name: 'read_file', args: { path: 'notes.txt' } }],
        rate_limits: { requests: { limit: 50, remaining: 30, reset_s: 600 } },
      },
      {
        text: ['The notes say alpha.'],
        rate_limits: {
          requests: { limit: 50, remaining: 3, reset_s: 600 },
          tokens: { limit: 400_000, remaining: 350_000, reset_s: 30 },
        },
      },
      {
        fault: { type: 'http_error', status: 429, retry_after: 4, should_retry: false, message: 'Rate limit reached.' },
        rate_limits: { requests: { limit: 50, remaining: 0, reset_s: 4 } },
      },
      { text: ['Here again.'] },
    ],
  });
  await expect(page.getByTestId('limit-note')).toHaveCount(0);
  await panel.send('What do the notes say?');
  await expect(page.getByText('The notes say alpha.')).toBeVisible({ timeout: 30_000 });

  // In words, in a live region, before any request is refused.
  const note = page.getByRole('status').filter({ has: page.getByTestId('limit-note') });
  await expect(note).toContainText('Near the provider’s rate limit: 3 requests left of 50 (6 %) until ');
  await expect(note).toContainText('Past it, requests are refused until it resets; another model can go on meanwhile.');
  await expect(page.getByTestId('limit-note')).toHaveText(CLOCK);
  await expect(page.getByTestId('limit-note')).toBeInViewport();
  await panel.shot('limit-note-420');
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(page.getByTestId('limit-note')).toBeInViewport();
  await panel.shot('limit-note-360');
  await page.setViewportSize({ width: 420, height: 800 });

  await page.getByTestId('context-meter').click();
  await expect(page.getByTestId('status-view')).toBeInViewport();
  // The second request repeats the first and adds to it: the fixture's cache reads the first's prefix.
  await expect(page.getByTestId('status-cache')).toContainText(
    /^last step \d+ % of [\d,]+ input tokens read from the cache/,
  );
  await expect(page.getByTestId('status-cache')).not.toContainText('last step 0 %');
  await expect(page.getByTestId('status-limits')).toHaveText(
    /^requests 3 of 50 left \(resets \d\d:\d\d:\d\d\); tokens 350,000 of 400,000 left \(resets \d\d:\d\d:\d\d\)$/,
  );
  await panel.shot('status-limits-420');
  await page.keyboard.press('Escape');

  // Refused for the limit: which limit, when it resets, what to do; Retry waits for the reset.
  await panel.send('And now?');
  const refusal = page.getByText('The provider’s limit on requests was reached (0 of 50 left); it resets at');
  await expect(refusal).toBeVisible({ timeout: 30_000 });
  await expect(refusal).toContainText('Wait until then — Retry is offered then — or switch to another model.');
  const retry = page.getByTestId('turn-retry');
  await expect(retry).toBeDisabled();
  await expect(retry).toHaveText(/^Retry at \d\d:\d\d:\d\d$/);
  // The refusal's own headers are the newest word: none left.
  await expect(page.getByTestId('limit-note')).toContainText('0 requests left of 50 (0 %)');
  await panel.shot('limit-refusal-420');
  // The reset passes: Retry is offered and sends the message again.
  await expect(retry).toHaveText('Retry', { timeout: 15_000 });
  await retry.click();
  await expect(page.getByText('Here again.')).toBeVisible({ timeout: 30_000 });
});

for (const width of [1280, 420] as const) {
  test(`the prompt cache's lifetime is chosen in Settings with its price, by keyboard, and kept (${width} px)`, async ({
    panel,
  }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 860 });
    await page.getByTestId('settings-button').click();
    const lifetime = page.getByLabel('Prompt cache');
    await expect(lifetime).toHaveValue('5m');
    await expect(lifetime.locator('option:checked')).toHaveText('5 minutes (writes at 1.25× the input price)');
    await lifetime.focus();
    await page.keyboard.press('ArrowDown');
    await expect(lifetime).toHaveValue('1h');
    await lifetime.scrollIntoViewIfNeeded();
    await panel.shot(`settings-prompt-cache-${width}`);
    // Kept: the panel reloaded shows the hour.
    await page.reload();
    await page.getByTestId('settings-button').click();
    await expect(page.getByLabel('Prompt cache')).toHaveValue('1h');
  });
}
