import { expect, test } from './panel-fixture.ts';

// Project instructions and the model's reasoning as a person sees them, at a desktop width and a
// narrow one. AGENTS.md reaches the model as a context message (the fixture server records the
// request) and shows as a context card, the context-message tree: a tree when the document is
// well-formed XML, the raw text when it is not. The reasoning streams into a Thinking block that
// folds to its duration once done, and comes back the same after a reload.

const CONVENTIONS = [
  '# Conventions',
  '',
  '- Run npm test before you finish.',
  '- Keep files under 400 lines.',
  '- Name things after the domain.',
  '- Never commit secrets.',
  '',
].join('\n');
const DOCUMENT = `<instructions source="AGENTS.md">\n${CONVENTIONS.trimEnd()}\n</instructions>`;
const MALFORMED = 'Warnings go in <b>bold.\nA rule applies when a < b.\n';

for (const width of [1280, 420] as const) {
  test.describe(`${width} px`, () => {
    test.beforeEach(async ({ panel }) => {
      await panel.page.setViewportSize({ width, height: 800 });
    });

    test('AGENTS.md reaches the model and shows as a tree with its source; an edit comes with a notice', async ({
      panel,
    }) => {
      const { page } = panel;
      await panel.write('AGENTS.md', CONVENTIONS);
      panel.script({ steps: [{ text: ['Understood.'] }, { text: ['Noted the change.'] }] });
      await panel.send('What are the rules here?');
      await expect(page.getByTestId('message-assistant').last()).toContainText('Understood.');

      const messages = panel.model.requests[0]!.body['messages'] as { role: string; content: unknown }[];
      expect(messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([
        DOCUMENT,
        'What are the rules here?',
      ]);

      const card = page.getByTestId('context-card');
      await expect(card).toHaveCount(1);
      await expect(card).toHaveAttribute('data-source', 'AGENTS.md');
      await expect(card.getByTestId('context-source')).toHaveText('AGENTS.md');
      const tree = card.getByTestId('xml-tree');
      await expect(tree.locator('.xml-line').first()).toHaveText('instructions source="AGENTS.md"');
      await expect(tree).toContainText('# Conventions');
      await expect(tree).not.toContainText('Never commit secrets.');
      await expect(tree).toContainText('more lines');
      await expect(card.getByTestId('context-raw')).toHaveCount(0);
      const box = await card.boundingBox();
      expect(box!.width).toBeLessThanOrEqual(width);
      await panel.shot(`instructions-tree-${width}`);

      await card.getByTestId('xml-toggle').click();
      await expect(tree).toContainText('- Never commit secrets.');
      await expect(tree).not.toContainText('<');

      await panel.write('AGENTS.md', `${CONVENTIONS}- Answer in French.\n`);
      await panel.send('And now?');
      await expect(page.getByTestId('message-assistant').last()).toContainText('Noted the change.');
      const edited = page.locator('[data-testid="context-card"][data-change="changed"]');
      await expect(edited.getByTestId('context-notice')).toContainText(
        'AGENTS.md was edited: the model got the new version.',
      );
      await expect(edited.getByTestId('xml-tree')).toBeVisible();
      const second = panel.model.requests[1]!.body['messages'] as { role: string; content: unknown }[];
      expect(String(second.at(-2)!.content)).toContain('- Answer in French.');
      await panel.shot(`instructions-edited-${width}`);

      // Durable: a reloaded panel shows both sendings again, the first still a tree.
      await page.reload();
      await expect(page.getByTestId('message-assistant').last()).toContainText('Noted the change.');
      await expect(page.getByTestId('context-card')).toHaveCount(2);
      await expect(page.getByTestId('context-card').first().getByTestId('xml-tree')).toContainText('# Conventions');
      await expect(page.locator('[data-testid="context-card"][data-change="changed"]')).toBeVisible();
    });

    test('an AGENTS.md that is not well-formed XML shows as its raw text', async ({ panel }) => {
      const { page } = panel;
      await panel.write('AGENTS.md', MALFORMED);
      panel.script({ steps: [{ text: ['Understood.'] }] });
      await panel.send('Any rules?');
      await expect(page.getByTestId('message-assistant').last()).toContainText('Understood.');
      const card = page.getByTestId('context-card');
      await expect(card.getByTestId('context-raw')).toHaveText(
        `<instructions source="AGENTS.md">\n${MALFORMED.trimEnd()}\n</instructions>`,
      );
      await expect(card.getByTestId('xml-tree')).toHaveCount(0);
      await panel.shot(`instructions-raw-${width}`);
    });

    test('a Thinking block streams live, folds to its duration, and is the same after a reload', async ({ panel }) => {
      const { page } = panel;
      const thoughts = [
        'Reading ',
        'the question. ',
        'Six ',
        'times ',
        'seven: ',
        'six ',
        'sevens ',
        'are ',
        'forty-two, ',
        'so ',
        'the answer ',
        'is 42.',
      ];
      panel.script({ steps: [{ thinking: thoughts, text: ['It is 42.'], chunk_delay_ms: 400 }] });
      await panel.send('What is six times seven?');

      // Live: the open block already shows the first words while the rest still streams.
      const live = page.locator('[data-testid="thinking-block"][data-state="streaming"]');
      await expect(live.getByTestId('thinking-text')).toContainText('Reading');
      await expect(live.getByTestId('thinking-toggle')).toContainText('Thinking…');
      await expect(live.getByTestId('thinking-toggle')).toHaveAttribute('aria-expanded', 'true');
      await panel.shot(`thinking-live-${width}`);

      await expect(page.getByTestId('message-assistant').last()).toContainText('It is 42.');
      const block = page.getByTestId('thinking-block');
      await expect(block).toHaveCount(1);
      await expect(block).toHaveAttribute('data-state', 'done');
      await expect(block.getByTestId('thinking-text')).toHaveCount(0);
      await expect(block.getByTestId('thinking-time')).toHaveText(/^\d/);
      const toggle = block.getByTestId('thinking-toggle');
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await toggle.focus();
      await page.keyboard.press('Enter');
      await expect(block.getByTestId('thinking-text')).toHaveText(thoughts.join(''));
      await panel.shot(`thinking-open-${width}`);

      await page.reload();
      await expect(page.getByTestId('message-assistant').last()).toContainText('It is 42.');
      const replayed = page.getByTestId('thinking-block');
      await expect(replayed).toHaveAttribute('data-state', 'done');
      await expect(replayed.getByTestId('thinking-text')).toHaveCount(0);
      await expect(replayed.getByTestId('thinking-time')).toHaveText(/^\d/);
      await replayed.getByTestId('thinking-toggle').click();
      await expect(replayed.getByTestId('thinking-text')).toHaveText(thoughts.join(''));
    });
  });
}
