import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from './panel-fixture.ts';

// The message box remembers this workspace's prompts (↑ at the first line, ↓ back, Shift+Delete
// forgets one), kept by the host in the app's data folder. Where focus goes after Retry and a rewind: focus-return.spec.ts.

for (const width of [1280, 420]) {
  test(`↑ and ↓ recall earlier prompts, editable, and Shift+Delete forgets one at ${width} px`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    panel.script({ steps: [{ text: ['One.'] }, { text: ['Two.'] }, { text: ['Three.'] }] });
    await panel.send('First prompt');
    await expect(page.getByTestId('message-assistant').last()).toContainText('One.');
    await panel.send('Second prompt');
    await expect(page.getByTestId('message-assistant').last()).toContainText('Two.');

    const input = page.getByTestId('composer-input');
    await input.focus();
    await input.press('ArrowUp');
    await expect(input).toHaveValue('Second prompt');
    await input.press('ArrowUp');
    await expect(input).toHaveValue('First prompt');
    await input.press('ArrowDown');
    await expect(input).toHaveValue('Second prompt');
    await panel.shot(`history-recalled-${width}`);
    await input.press('ArrowDown');
    await expect(input).toHaveValue('');

    // Forget the first; the walk no longer finds it.
    await input.press('ArrowUp');
    await input.press('ArrowUp');
    await expect(input).toHaveValue('First prompt');
    await input.press('Shift+Delete');
    // The next prompt shows in its place; there is none older any more.
    await expect(input).toHaveValue('Second prompt');
    await input.press('ArrowUp');
    await expect(input).toHaveValue('Second prompt');

    // A recalled prompt is edited, then sent.
    await input.press('End');
    await input.pressSequentially(', again');
    await input.press('Enter');
    await expect(page.getByTestId('message-user').last()).toContainText('Second prompt, again');
    // Kept by the host, not the page: with the page's storage emptied it is still there.
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.getByTestId('composer-input').press('ArrowUp');
    await expect(page.getByTestId('composer-input')).toHaveValue('Second prompt, again');
    // On disk in the app's data folder, without the prompt Shift+Delete forgot.
    const folder = path.join(path.dirname(panel.workspace), 'home', 'prompt-history');
    const [file] = await readdir(folder);
    const kept = JSON.parse(await readFile(path.join(folder, file!), 'utf8')) as { prompts: string[] };
    expect(kept.prompts).toEqual(['Second prompt', 'Second prompt, again']);
  });
}
