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

test.describe('in the ask mode', () => {
  test.use({ homeSettings: null });
  for (const width of [1280, 420]) {
    test(`previews what a command would change, then keeps exactly that (${width} px)`, async ({ panel }) => {
      await panel.page.setViewportSize({ width, height: 900 });
      await panel.write('log.txt', 'first line\n');
      await panel.write('old.txt', 'to be removed\n');
      const command = "printf 'made\\n' > new.txt && echo 'second line' >> log.txt && rm old.txt && echo done";
      panel.script({
        steps: [{ tool_calls: [{ id: 'call_change', name: 'exec', args: { command } }] }, { text: ['Changed.'] }],
      });
      await panel.send('Change the files');
      const card = cards(panel).first();
      await card.getByTestId('preview-command').click();
      const preview = card.getByTestId('command-preview');
      await expect(preview.getByTestId('preview-summary')).toHaveText('Preview · 3 files would change · exit 0');
      await expect(preview.getByTestId('preview-file')).toHaveText([
        /log\.txt\s*\+1 −0 changed/,
        /new\.txt\s*\+1 −0 new/,
        /old\.txt\s*\+0 −1 deleted/,
      ]);
      await preview.locator('[data-path="log.txt"] .changes-toggle').click();
      await expect(preview.locator('[data-path="log.txt"]')).toContainText('second line');
      // Nothing of the workspace changed yet.
      expect(await panel.read('old.txt')).toBe('to be removed\n');
      await panel.shot(`sandbox-preview-${width}`);
      await preview.getByTestId('preview-keep').click();
      await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Changed.');
      expect(await panel.read('log.txt')).toBe('first line\nsecond line\n');
      expect(await panel.read('new.txt')).toBe('made\n');
      await expect(panel.read('old.txt')).rejects.toThrow();
      await expect(card.getByTestId('exec-output')).toHaveText('done\n');
    });
  }
});
