import { expect, test } from './panel-fixture.ts';

// Compaction as a person sees it, at a desktop width and two narrow ones: the Compact button in the
// footer asks the session's model for a summary; a failure leaves a card that says nothing was
// removed; a success leaves a card with the tokens before → after, what was kept, and the summary
// (folded, expandable, copyable). The cards above stay, the model's next request starts from the
// summary (the fixture server records it), and the card comes back the same after a reload.

const SUMMARY = '## Goal and open tasks\nRead notes.md and report.\n## Files touched\nnotes.md: read, unchanged.';

for (const width of [1280, 420, 360] as const) {
  test.describe(`${width} px`, () => {
    test.beforeEach(async ({ panel }) => {
      await panel.page.setViewportSize({ width, height: 800 });
    });

    test('Compact summarises the context into a card; a failed compaction says nothing was removed', async ({
      panel,
    }) => {
      const { page } = panel;
      await panel.write('notes.md', `${'A line of notes.\n'.repeat(200)}`);
      panel.script({
        steps: [
          { text: ['Reading.'], tool_calls: [{ name: 'read_file', args: { path: 'notes.md' } }] },
          { text: ['The notes repeat one line.'] },
          { fault: { type: 'http_error', status: 400, message: 'the model is unavailable', should_retry: false } },
          { text: [SUMMARY] },
          { text: ['Still here, from the summary.'] },
        ],
      });
      await panel.send('Read notes.md and report.');
      await expect(page.getByTestId('message-assistant').last()).toContainText('The notes repeat one line.');

      const button = page.getByTestId('compact-button');
      await expect(button).toBeEnabled();
      await button.click();
      const failed = page.locator('[data-testid="compaction-card"][data-state="failed"]');
      await expect(failed).toBeVisible();
      await expect(failed.getByTestId('compaction-error')).toContainText('Nothing was removed');
      await expect(failed.getByTestId('compaction-error')).toContainText('the model is unavailable');

      await button.focus();
      await page.keyboard.press('Enter');
      const card = page.locator('[data-testid="compaction-card"][data-state="done"]');
      await expect(card).toBeVisible();
      await expect(card).toHaveAttribute('data-trigger', 'manual');
      await expect(card.getByTestId('compaction-tokens')).toHaveText(/^[\d,]+ → [\d,]+ tokens$/);
      const [before, after] = ((await card.getByTestId('compaction-tokens').textContent()) ?? '')
        .replace(/,/g, '')
        .match(/\d+/g)!
        .map(Number);
      expect(after).toBeLessThan(before!);
      await expect(card.getByTestId('compaction-kept')).toContainText('your last message');
      await expect(card.getByTestId('compaction-summary')).toHaveCount(0);
      await card.getByTestId('compaction-toggle').click();
      await expect(card.getByTestId('compaction-toggle')).toHaveAttribute('aria-expanded', 'true');
      await expect(card.getByTestId('compaction-summary')).toContainText('notes.md: read, unchanged.');
      const box = await card.boundingBox();
      expect(box!.width).toBeLessThanOrEqual(width);
      await panel.shot(`compaction-card-${width}`);

      // No banner: the failure has its card. The earlier cards stay (scrolled to, as a person would).
      await expect(page.getByTestId('error-banner')).toHaveCount(0);
      await page.getByTestId('transcript').hover();
      await page.mouse.wheel(0, -1_000_000);
      await expect(page.getByTestId('message-user').first()).toContainText('Read notes.md and report.');
      // The model's next request starts from the summary.
      await panel.send('Are you still there?');
      await expect(page.getByTestId('message-assistant').last()).toContainText('Still here, from the summary.');
      const messages = panel.model.requests.at(-1)!.body['messages'] as { role: string; content: unknown }[];
      expect(JSON.stringify(messages.find((message) => message.role === 'user'))).toContain(
        'notes.md: read, unchanged.',
      );
      expect(JSON.stringify(messages)).not.toContain('A line of notes.');

      await page.reload();
      await expect(page.locator('[data-testid="compaction-card"][data-state="done"]')).toBeVisible();
      await expect(page.locator('[data-testid="compaction-card"][data-state="failed"]')).toBeVisible();
    });
  });
}
