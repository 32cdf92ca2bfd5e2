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

test("the prompts an older version kept in the page's storage are handed to the host once, and recalled after a reload", async ({
  panel,
}) => {
  const { page } = panel;
  await page.setViewportSize({ width: 420, height: 800 });
  const key = `aether.prompt-history:${panel.workspace}`;
  // What a version that kept the history in the page left behind (newest last), and another workspace's.
  await page.evaluate(
    ({ own, other }) => {
      localStorage.setItem(own, JSON.stringify(['Typed before the update', '/help', 'The last one before it']));
      localStorage.setItem(other, JSON.stringify(['Not this workspace']));
    },
    { own: key, other: 'aether.prompt-history:/somewhere/else' },
  );
  await page.reload();
  const input = page.getByTestId('composer-input');
  await input.press('ArrowUp');
  await expect(input).toHaveValue('The last one before it');
  await input.press('ArrowUp');
  await expect(input).toHaveValue('Typed before the update');
  await input.press('ArrowUp');
  await expect(input).toHaveValue('Typed before the update');
  // Handed over: gone from the page, kept by the host; the other workspace's entry is left alone.
  await expect.poll(() => page.evaluate((own) => localStorage.getItem(own), key)).toBeNull();
  expect(await page.evaluate(() => localStorage.getItem('aether.prompt-history:/somewhere/else'))).not.toBeNull();
  const folder = path.join(path.dirname(panel.workspace), 'home', 'prompt-history');
  const [file] = await readdir(folder);
  const kept = JSON.parse(await readFile(path.join(folder, file!), 'utf8')) as { prompts: string[] };
  expect(kept.prompts).toEqual(['Typed before the update', 'The last one before it']);

  // A prompt sent now is the newest; after another reload nothing is imported twice.
  panel.script({ steps: [{ text: ['Done.'] }] });
  await input.fill('');
  await panel.send('After the update');
  await expect(page.getByTestId('message-assistant').last()).toContainText('Done.');
  await page.reload();
  await page.getByTestId('composer-input').press('ArrowUp');
  await expect(page.getByTestId('composer-input')).toHaveValue('After the update');
  const after = JSON.parse(await readFile(path.join(folder, file!), 'utf8')) as { prompts: string[] };
  expect(after.prompts).toEqual(['Typed before the update', 'The last one before it', 'After the update']);
});
