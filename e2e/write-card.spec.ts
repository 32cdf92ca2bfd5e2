import { createHash } from 'node:crypto';
import { expect, test, type Panel } from './panel-fixture.ts';

// write_file shows what it wrote: a new file as numbered, highlighted lines (like a read card), an
// overwrite as a diff (like a patch card), and the minimal `✓ ok` when there is nothing to show.
// Screenshots at a desktop width and at a narrow panel's.

const writeCard = (panel: Panel) => panel.page.locator('[data-testid="tool-card"][data-tool="write_file"]');
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

const HELLO = ['def hello(name):', '    """Greets someone."""', '    return f"Hello, {name}!"', ''].join('\n');

function writes(args: Record<string, unknown>, answer: string) {
  return { steps: [{ tool_calls: [{ id: 'call_write', name: 'write_file', args }] }, { text: [answer] }] };
}

async function shotAtWidths(panel: Panel, name: string): Promise<void> {
  for (const width of [1280, 420]) {
    await panel.page.setViewportSize({ width, height: 860 });
    await writeCard(panel).scrollIntoViewIfNeeded();
    await panel.shot(`${name}-${width}`);
  }
}

test('a new file shows as numbered lines, with the basename and the path as its tooltip', async ({ panel }) => {
  panel.script(writes({ path: 'src/tools/hello.py', content: HELLO }, 'Wrote hello.py.'));
  await panel.send('Write a greeting module');
  const card = writeCard(panel);
  await card.getByTestId('approve-once').click();
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Wrote hello.py.');
  await expect(card).toHaveAttribute('data-view', 'write-file');
  await expect(card.getByTestId('card-subtitle')).toHaveText('hello.py');
  await expect(card.getByTestId('card-subtitle')).toHaveAttribute('title', 'src/tools/hello.py');
  await expect(card.getByTestId('write-summary')).toHaveText('New file · 3 lines');
  await expect(card.getByTestId('code-line')).toHaveCount(3);
  await expect(card.getByTestId('code-line').nth(2)).toHaveText('3    return f"Hello, {name}!"');
  expect(await panel.read('src/tools/hello.py')).toBe(HELLO);
  await shotAtWidths(panel, 'write-card-new');
});

test('an overwrite shows the diff of what changed', async ({ panel }) => {
  await panel.write('notes.md', '# Notes\n\n- first\n- second\n');
  const after = '# Notes\n\n- first\n- SECOND\n- third\n';
  panel.script(
    writes({ path: 'notes.md', content: after, expected_sha256: sha256('# Notes\n\n- first\n- second\n') }, 'Updated.'),
  );
  await panel.send('Update the notes');
  const card = writeCard(panel);
  await card.getByTestId('approve-once').click();
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Updated.');
  await expect(card.getByTestId('patch-stats')).toHaveText('+2 −1');
  await expect(card.getByTestId('patch-diff')).toContainText('-- second');
  await expect(card.getByTestId('patch-diff')).toContainText('+- SECOND');
  await expect(card.getByTestId('patch-diff')).toContainText('+- third');
  expect(await panel.read('notes.md')).toBe(after);
  await shotAtWidths(panel, 'write-card-overwrite');
});

test('an empty new file is the minimal ok card', async ({ panel }) => {
  panel.script(writes({ path: 'empty.txt', content: '' }, 'Created it.'));
  await panel.send('Create an empty file');
  const card = writeCard(panel);
  await card.getByTestId('approve-once').click();
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Created it.');
  await expect(card.getByTestId('card-done')).toHaveText('✓ ok');
  await expect(card.locator('.card-body')).toHaveCount(0);
});
