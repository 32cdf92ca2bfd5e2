import { expect, test } from './panel-fixture.ts';

// Consecutive read-only calls with nothing said between them, at a desktop width and as a narrow side
// panel: one compact card says what they did and names the files; opened (by keyboard), it shows each
// call's own card. Two pages of one file are named by their lines, and a search by its pattern.

for (const width of [1280, 420, 360] as const) {
  test(`reads, a listing and a search of one step fold into one card at ${width} px`, async ({ panel }) => {
    await panel.page.setViewportSize({ width, height: 800 });
    await panel.write('src/a.ts', 'export const a = 1;\n');
    await panel.write('src/b.ts', 'export const b = 2;\n');
    await panel.write('src/c.ts', 'export const c = a + b;\n');
    await panel.write('src/data.js', Array.from({ length: 10 }, (_, i) => `export const v${i} = ${i};`).join('\n'));
    panel.script({
      steps: [
        {
          tool_calls: [
            { id: 'call_a', name: 'read_file', args: { path: 'src/a.ts' } },
            { id: 'call_b', name: 'read_file', args: { path: 'src/b.ts' } },
            { id: 'call_c', name: 'read_file', args: { path: 'src/c.ts' } },
            { id: 'call_p1', name: 'read_file', args: { path: 'src/data.js', limit: 5 } },
            { id: 'call_p2', name: 'read_file', args: { path: 'src/data.js', offset: 6 } },
            { id: 'call_s', name: 'search_files', args: { pattern: 'export', path: '.' } },
          ],
        },
        { text: ['One more look.'], tool_calls: [{ id: 'call_d', name: 'read_file', args: { path: 'src/a.ts' } }] },
        { text: ['Read them.'] },
      ],
    });
    await panel.send('Read the sources');
    await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Read them.', { timeout: 30_000 });

    const group = panel.page.getByTestId('read-group');
    await expect(group).toHaveCount(1);
    await expect(group.getByTestId('read-group-summary')).toHaveText('Read 4 files, searched 1 pattern');
    await expect(group.getByTestId('read-group-names')).toHaveText(
      'a.ts, b.ts, c.ts, data.js lines 1–5, data.js lines 6–10, /export/',
    );
    // The header is one row, its summary one line, at every width.
    const summaryHeight = await group.getByTestId('read-group-summary').evaluate((element) => element.clientHeight);
    expect(summaryHeight).toBeLessThan(24);
    await expect(group.getByTestId('tool-card')).toHaveCount(0);
    // A read after the model said something stays a card of its own.
    await expect(panel.page.locator('[data-testid="tool-card"][data-call-id="call_d"]')).toBeVisible();
    // The turn's figures sit under the message, with its Rewind, not inside the bubble.
    const message = panel.page.getByTestId('message-user');
    await expect(message.getByTestId('turn-meta')).toHaveCount(0);
    await expect(message.getByTestId('rewind-button')).toHaveCount(0);
    await expect(panel.page.locator('.turn-row').getByTestId('turn-meta')).toContainText('Took');
    await panel.shot(`read-group-folded-${width}`);

    const toggle = group.getByTestId('read-group-toggle');
    await toggle.focus();
    await panel.page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(group.getByTestId('tool-card')).toHaveCount(6);
    await expect(group.locator('[data-call-id="call_p2"]').getByTestId('card-subtitle')).toHaveText(
      'data.js lines 6–10',
    );
    await expect(group.locator('[data-call-id="call_s"]').getByTestId('card-subtitle')).toHaveText('/export/');
    // Reads have nothing to rewind: no Rewind on their cards.
    await expect(group.getByTestId('rewind-button')).toHaveCount(0);
    await expect(group.locator('[data-call-id="call_c"]').getByTestId('code-line')).toHaveText([
      '1export const c = a + b;',
    ]);
    await group.locator('[data-call-id="call_p2"]').scrollIntoViewIfNeeded();
    await panel.shot(`read-group-open-${width}`);

    await panel.page.keyboard.press('Enter');
    await expect(group.getByTestId('tool-card')).toHaveCount(0);
  });
}

test('an opened group of many reads draws only the cards near the view, and the rest as it scrolls', async ({
  panel,
}) => {
  await panel.page.setViewportSize({ width: 420, height: 800 });
  const count = 40;
  const files = Array.from({ length: count }, (_, index) => `src/part${index}.ts`);
  for (const [index, file] of files.entries())
    await panel.write(
      file,
      Array.from({ length: 12 }, (_, line) => `export const v${index}_${line} = ${line};`).join('\n'),
    );
  panel.script({
    steps: [
      { tool_calls: files.map((file, index) => ({ id: `call_${index}`, name: 'read_file', args: { path: file } })) },
      { text: ['Read them all.'] },
    ],
  });
  await panel.send('Read every part');
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Read them all.', { timeout: 30_000 });

  const group = panel.page.getByTestId('read-group');
  await expect(group.getByTestId('read-group-summary')).toHaveText(`Read ${count} files`);
  await group.getByTestId('read-group-toggle').click();
  await expect(group.locator('[data-call-id="call_0"]')).toBeVisible();
  const drawn = await group.getByTestId('tool-card').count();
  expect(drawn).toBeGreaterThan(0);
  expect(drawn).toBeLessThan(count / 2);
  await panel.shot('read-group-many-420');

  // Scrolling down through the group brings its last card, and the first has left the DOM.
  const last = group.locator(`[data-call-id="call_${count - 1}"]`);
  await expect(async () => {
    await panel.page.getByTestId('transcript').hover();
    await panel.page.mouse.wheel(0, 4000);
    await expect(last).toBeVisible({ timeout: 200 });
  }).toPass({ timeout: 20_000 });
  await expect(group.locator('[data-call-id="call_0"]')).toHaveCount(0);
  await expect(last.getByTestId('code-line').first()).toHaveText('1export const v39_0 = 0;');
});
