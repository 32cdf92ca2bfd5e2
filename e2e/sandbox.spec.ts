import { expect, test, type Panel } from './panel-fixture.ts';

// The sandbox mode as a person sees it, at a desktop width and a narrow panel's: Settings names the
// mode and its rules; a command runs without a question and its card says it was sandboxed; a
// command that writes outside the workspace is stopped, and its card says what it needed.

test.use({ homeSettings: { of: () => ({ permission_mode: 'sandbox' }) } });

const cards = (panel: Panel) => panel.page.locator('[data-testid="tool-card"][data-tool="exec"]');

for (const width of [1280, 420]) {
  test(`runs commands in the sandbox and shows what it refused (${width} px)`, async ({ panel }) => {
    await panel.page.setViewportSize({ width, height: 860 });
    panel.script({
      steps: [
        { tool_calls: [{ id: 'call_build', name: 'exec', args: { command: 'echo built > built.txt && echo built' } }] },
        {
          tool_calls: [
            { id: 'call_out', name: 'exec', args: { command: 'echo installed > /usr/local/aether-sandbox-e2e.txt' } },
          ],
        },
        { text: ['The sandbox kept the second one in.'] },
      ],
    });
    await panel.send('Build, then install outside');
    await expect(panel.page.getByTestId('message-assistant').last()).toContainText('kept the second one in');
    const [built, refused] = [cards(panel).nth(0), cards(panel).nth(1)];
    // Neither asked: the sandbox mode runs commands without a question.
    await expect(cards(panel).getByTestId('approve-once')).toHaveCount(0);
    await expect(built.getByTestId('exec-sandboxed')).toHaveText('sandboxed');
    await expect(built.getByTestId('exec-exit')).toHaveText('exit 0');
    expect(await panel.read('built.txt')).toBe('built\n');
    await expect(refused.getByTestId('exec-sandboxed')).toHaveText('sandboxed');
    await expect(refused.getByTestId('exec-sandbox-refusal')).toContainText(
      'The sandbox stopped it: it tried to write /usr/local/aether-sandbox-e2e.txt, outside what the sandbox lets it write (the workspace, /tmp',
    );
    await refused.scrollIntoViewIfNeeded();
    await panel.shot(`sandbox-refused-${width}`);

    await panel.page.getByTestId('settings-button').click();
    await expect(panel.page.getByTestId('permission-select')).toHaveValue('sandbox');
    await expect(panel.page.getByTestId('sandbox-rules')).toContainText('no network');
    await panel.page.getByTestId('sandbox-hosts').fill('registry.npmjs.org, not a host!');
    await panel.page.getByTestId('sandbox-hosts').press('Enter');
    await expect(panel.page.getByTestId('sandbox-hosts-problem')).toHaveText(
      'Not a host, *.domain or host:port: not a host!',
    );
    await panel.page.getByTestId('sandbox-hosts').fill('registry.npmjs.org');
    await panel.page.getByTestId('sandbox-hosts').press('Enter');
    await expect(panel.page.getByTestId('sandbox-rules')).toContainText('network to registry.npmjs.org only');
    await panel.shot(`sandbox-settings-${width}`);
  });
}
