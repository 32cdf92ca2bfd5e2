import { writeDevServer } from './dev-server.ts';
import { expect, test } from './panel-fixture.ts';

// A command's card that stays live: a dev server run in the foreground is moved to the background
// with Keep running in the background on its card; the card then follows the process — its state,
// the port it listens on, its latest lines as it prints — until it is stopped, and a reload shows
// how it ended from the session's records. At 1280, 420 and 360 px.

test('Keep running in the background, then a live process card until it ends, also after a reload', async ({
  panel,
}) => {
  const port = await writeDevServer(panel);
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_dev', name: 'exec', args: { command: 'node server.mjs', timeout_s: 600 } }] },
      { text: ['The server keeps running in the background.'] },
    ],
  });
  await panel.page.setViewportSize({ width: 1280, height: 800 });
  await panel.send('Start the dev server');
  await panel.page.getByTestId('approve-once').click();

  const card = panel.page.locator('[data-testid="tool-card"]').filter({ hasText: 'node server.mjs' }).first();
  await expect(card.getByTestId('exec-output')).toContainText(`ready on http://127.0.0.1:${port}`);
  const keep = card.getByTestId('exec-keep-running');
  await expect(keep).toBeVisible();
  await panel.shot('process-card-keep-running');
  await keep.click();
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText(
    'The server keeps running in the background.',
  );

  // The card follows the process: its state, its port, its latest lines as it prints more.
  const live = card.getByTestId('process-live');
  await expect(live.getByTestId('process-live-state')).toHaveText('running · p1');
  await expect(live.getByTestId('process-live-port')).toHaveText(`:${port}`);
  await expect(card).toContainText('Moved to the background as p1');
  expect(await (await fetch(`http://127.0.0.1:${port}/first`)).text()).toBe('hello');
  await expect(live.getByTestId('process-live-output')).toContainText('GET /first');
  await panel.shot('process-card-live');

  for (const width of [420, 360]) {
    await panel.page.setViewportSize({ width, height: 800 });
    await expect(live.getByTestId('process-live-port')).toBeInViewport();
    expect(await panel.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await panel.shot(`process-card-live-${width}`);
  }

  // Stopped from the strip: the card says how it ended, and keeps its last lines.
  await panel.page.getByTestId('process-strip').getByTestId('process-stop').click();
  await expect(live.getByTestId('process-live-state')).toHaveText('p1 · stopped by you');
  await expect(live.getByTestId('process-live-port')).toHaveCount(0);
  await panel.shot('process-card-stopped-360');

  // A reload reads its end from the session's process_state events.
  await panel.page.setViewportSize({ width: 1280, height: 800 });
  await panel.page.reload();
  const again = panel.page.locator('[data-testid="tool-card"]').filter({ hasText: 'node server.mjs' }).first();
  await expect(again.getByTestId('process-live-state')).toHaveText('p1 · stopped by you');
  await expect(again.getByTestId('process-live-output')).toContainText('GET /first');
  await again.scrollIntoViewIfNeeded();
  await expect(again).toBeInViewport();
  await panel.shot('process-card-reloaded');
});
