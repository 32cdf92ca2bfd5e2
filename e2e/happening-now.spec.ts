import { expect, test } from './panel-fixture.ts';

// What is happening now, at a desktop width and as a narrow side panel: a command waiting for
// approval says so and offers no Stop; once it runs it has a timer and a Stop, the running turn
// ticks under the message, and the finished turn says how long it took. Two cards reading files
// with the same basename show their folders.

for (const width of [1280, 420] as const) {
  test(`a waiting, then running, then finished turn at ${width} px`, async ({ panel }) => {
    await panel.page.setViewportSize({ width, height: 800 });
    await panel.write('src/client/index.ts', 'export const side = "client";\n');
    await panel.write('src/server/index.ts', 'export const side = "server";\n');
    panel.script({
      steps: [
        {
          tool_calls: [
            { id: 'call_client', name: 'read_file', args: { path: 'src/client/index.ts' } },
            { id: 'call_server', name: 'read_file', args: { path: 'src/server/index.ts' } },
          ],
        },
        { tool_calls: [{ id: 'call_wait', name: 'exec', args: { command: 'sleep 2' } }] },
        { text: ['Both sides read; waited.'] },
      ],
    });
    await panel.send('Read both index files, then wait');

    // The two reads of one step fold into one card; opened, it shows each read's own card.
    await panel.page.getByTestId('read-group-toggle').click();
    const reads = panel.page.locator('[data-testid="tool-card"][data-tool="read_file"]');
    await expect(reads.nth(0).getByTestId('card-subtitle')).toHaveText('index.ts src/client/');
    await expect(reads.nth(1).getByTestId('card-subtitle')).toHaveText('index.ts src/server/');

    const exec = panel.page.locator('[data-testid="tool-card"][data-tool="exec"]');
    await expect(exec.getByTestId('approve-once')).toBeVisible();
    await expect(exec.getByText('needs approval')).toBeVisible();
    await expect(exec.getByTestId('card-stop')).toHaveCount(0);
    await expect(panel.page.getByTestId('turn-elapsed')).toBeVisible();
    await panel.shot(`now-waiting-${width}`);

    await exec.getByTestId('approve-once').click();
    await expect(exec.getByTestId('card-stop')).toBeVisible();
    await expect(exec.getByTestId('card-elapsed')).toHaveText(/^\d+ s$/);
    await panel.shot(`now-running-${width}`);

    await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Both sides read; waited.');
    await expect(panel.page.getByTestId('turn-meta')).toHaveText(
      /^Took [\d.]+ s · \d+ tokens in, \d+ out · \$\d+\.\d{2}$/,
    );
    await expect(exec.getByTestId('card-elapsed')).toHaveCount(0);
    await expect(exec.getByTestId('full-content-button')).toHaveAccessibleName('Show what the model received');
    await panel.shot(`now-done-${width}`);
  });
}
