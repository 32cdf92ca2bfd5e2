import { expect, test, type Panel } from './panel-fixture.ts';
import { patchScript } from './patch-script.ts';

// The file cards as a person sees them: the read card (basename subtitle, numbered
// lines), the patch card (statistics and diff, the file changed on disk), an error card with its
// text, and the complete content the model received behind the card's button.

const GREET = ['export function greet(name: string): string {', '  return `Hello, ${name}!`;', '}', ''].join('\n');

const readCard = (panel: Panel) => panel.page.locator('[data-testid="tool-card"][data-tool="read_file"]');
const patchCard = (panel: Panel) => panel.page.locator('[data-testid="tool-card"][data-tool="patch_file"]');

test('a read card shows the basename and numbered lines', async ({ panel }) => {
  await panel.write('src/lib/greet.ts', GREET);
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_read', name: 'read_file', args: { path: 'src/lib/greet.ts' } }] },
      { text: ['The file defines `greet`.'] },
    ],
  });
  await panel.send('What is in greet.ts?');
  const card = readCard(panel);
  await expect(card.getByTestId('card-subtitle')).toHaveText('greet.ts');
  await expect(card.getByTestId('card-subtitle')).toHaveAttribute('title', 'src/lib/greet.ts');
  await expect(card.getByTestId('code-line')).toHaveCount(3);
  await expect(card.getByTestId('code-line').nth(0)).toHaveText('1export function greet(name: string): string {');
  await expect(card.getByTestId('code-line').nth(2)).toHaveText('3}');
  await expect(card).not.toContainText('<content>');
  await expect(card.getByTestId('card-time')).toBeVisible();
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('The file defines greet.');
  await panel.shot('read-card');
});

test('the full-content button shows exactly what the model received', async ({ panel }) => {
  await panel.write('notes.txt', 'alpha\nbeta\n');
  panel.script({
    steps: [{ tool_calls: [{ id: 'call_read', name: 'read_file', args: { path: 'notes.txt' } }] }, { text: ['Read.'] }],
  });
  await panel.send('Read notes.txt');
  const card = readCard(panel);
  await expect(card.getByTestId('code-line')).toHaveCount(2);
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Read.');
  await card.getByTestId('full-content-button').click();
  const shown = await card.getByTestId('full-content').locator('pre').textContent();
  const request = panel.model.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
  const toolMessage = request.messages.find((message) => message.role === 'tool');
  expect(shown).toBe(toolMessage?.content);
  expect(shown).toContain('<path>');
  await panel.shot('full-content');
});

test('a patch card shows its statistics and diff, and the file changes on disk', async ({ panel }) => {
  await panel.write('src/greet.ts', GREET);
  panel.script(patchScript('src/greet.ts', [{ old_text: 'Hello', new_text: 'Howdy' }], 'Patched.'));
  await panel.send('Say howdy instead');
  const card = patchCard(panel);
  await card.getByTestId('approve-once').click();
  await expect(card.getByTestId('card-subtitle')).toHaveText('greet.ts');
  await expect(card.getByTestId('patch-stats')).toHaveText('+1 −1');
  await expect(card.getByTestId('patch-diff')).toContainText('-  return `Hello, ${name}!`;');
  await expect(card.getByTestId('patch-diff')).toContainText('+  return `Howdy, ${name}!`;');
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Patched.');
  expect(await panel.read('src/greet.ts')).toBe(GREET.replace('Hello', 'Howdy'));
  await panel.shot('patch-card');
});

test('an error card shows the error text', async ({ panel }) => {
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_missing', name: 'read_file', args: { path: 'docs/missing.md' } }] },
      { text: ['That file does not exist.'] },
    ],
  });
  await panel.send('Read docs/missing.md');
  const card = readCard(panel);
  await expect(card).toHaveAttribute('data-state', 'error');
  await expect(card.getByTestId('card-subtitle')).toHaveText('missing.md');
  await expect(card.getByTestId('card-error')).toContainText('missing.md');
  await panel.shot('error-card');
});
