import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, type Panel } from './panel-fixture.ts';

// The composer's / and @, in a desktop window and a side panel: the command menu from the keyboard
// alone (an ARIA combobox and listbox), a person's command from a Markdown file expanding with its
// arguments, and a file picked with @ going to the model with its content and showing as a read card.

/** The app's home the fixture gives the panel ($AETHERCODEX_HOME), beside the workspace. */
const homeOf = (panel: Panel) => path.join(path.dirname(panel.workspace), 'home');

async function writeCommand(folder: string, name: string, text: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, name), text);
}

/** Everything the model was sent, as one string. */
const sentToModel = (panel: Panel) => JSON.stringify(panel.model.requests.map((request) => request.body));

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const width of [1280, 420]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ panel }) => {
      await panel.page.setViewportSize({ width, height: 800 });
    });

    test('the slash menu works from the keyboard alone and tells screen readers what is active', async ({ panel }) => {
      const { page } = panel;
      const input = page.getByTestId('composer-input');
      const menu = page.getByRole('listbox', { name: 'Commands' });
      await expect(input).toBeFocused();
      await expect(input).toHaveAttribute('aria-expanded', 'false');

      await page.keyboard.type('/');
      await expect(menu).toBeVisible();
      await expect(input).toHaveAttribute('aria-expanded', 'true');
      await expect(menu.getByRole('option')).toContainText(['/model [id]', '/effort [level]', '/status']);
      await page.keyboard.type('ef');
      await expect(menu.getByRole('option')).toHaveCount(1);
      const active = menu.getByRole('option', { selected: true });
      await expect(active).toContainText('/effort [level]');
      await expect(input).toHaveAttribute('aria-activedescendant', (await active.getAttribute('id')) ?? '');
      await expectNoSidewaysScroll(page);
      await panel.shot(`composer-slash-menu-${width}`);

      // Tab completes the name; the level is typed; Enter runs it.
      await page.keyboard.press('Tab');
      await expect(input).toHaveValue('/effort ');
      await expect(menu).toBeHidden();
      await page.keyboard.type('high');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('composer-notice')).toContainText('Reasoning effort: high');
      await expect(page.getByTestId('footer-effort')).toContainText('high');
      await expect(input).toHaveValue('');

      // Arrows move through the menu; Enter on a command without arguments runs it at once.
      await page.keyboard.type('/s');
      await expect(menu.getByRole('option', { selected: true })).toContainText('/status');
      await page.keyboard.press('ArrowDown');
      await expect(menu.getByRole('option', { selected: true })).toContainText('/sessions');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Enter');
      const notice = page.getByTestId('composer-notice');
      await expect(notice).toContainText('Status');
      await expect(notice).toContainText('Effort: high');
      await expect(notice).toContainText(`Model: compat:${panel.model.baseURL}#scripted`);
      await expect(notice).toContainText('Window:');
      await expect(notice).toContainText('Cost: $0.00');
      await expect(notice).toContainText('Compaction: automatic at 85 % of the window');

      // Esc closes the menu and keeps the text; an unknown command says so and keeps it too.
      await page.keyboard.type('/nope');
      await expect(page.getByTestId('completion-empty')).toContainText('No command starts with /nope');
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('completion-menu')).toBeHidden();
      await expect(input).toHaveValue('/nope');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('composer-notice')).toHaveAttribute('role', 'alert');
      await expect(page.getByTestId('composer-notice')).toContainText('Unknown command /nope');
      await expect(input).toHaveValue('/nope');
      expect(panel.model.requests).toHaveLength(0);
    });

    test("a person's command from a Markdown file expands with its arguments", async ({ panel }) => {
      const { page } = panel;
      await writeCommand(
        path.join(homeOf(panel), 'commands'),
        'review.md',
        '---\ndescription: Review a file for bugs\nargument-hint: <path>\n---\nPlease review $ARGUMENTS for bugs, then list them.\n',
      );
      await writeCommand(path.join(panel.workspace, '.aethercodex', 'commands'), 'explain.md', '# Explain the build\n');
      panel.script({ steps: [{ text: ['Reviewed.'] }] });
      const input = page.getByTestId('composer-input');
      await input.focus();
      await page.keyboard.type('/');
      const menu = page.getByRole('listbox', { name: 'Commands' });
      await expect(menu.getByRole('option', { name: /explain/ })).toContainText('Explain the build');
      await expect(menu.getByRole('option', { name: /explain/ })).toContainText('workspace');
      await page.keyboard.type('rev');
      await expect(menu.getByRole('option', { selected: true })).toContainText('/review <path>');
      await expect(menu.getByRole('option', { selected: true })).toContainText('Review a file for bugs');
      await page.keyboard.press('Tab');
      await page.keyboard.type('src/app.ts');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('message-user').last()).toContainText(
        'Please review src/app.ts for bugs, then list them.',
      );
      await expect(page.getByTestId('message-assistant').last()).toContainText('Reviewed.');
      expect(sentToModel(panel)).toContain('Please review src/app.ts for bugs, then list them.');
      await panel.shot(`composer-user-command-${width}`);
    });

    test('/compact with a focus compacts the conversation into a card that names the focus', async ({ panel }) => {
      const { page } = panel;
      panel.script({ steps: [{ text: ['Noted the plan.'] }, { text: ['## Summary\nThe plan was discussed.'] }] });
      await panel.send('Here is the plan: keep the API small.');
      await expect(page.getByTestId('message-assistant').last()).toContainText('Noted the plan.');
      const input = page.getByTestId('composer-input');
      await input.focus();
      await page.keyboard.type('/comp');
      const menu = page.getByRole('listbox', { name: 'Commands' });
      await expect(menu.getByRole('option', { selected: true })).toContainText('/compact [focus]');
      await page.keyboard.press('Tab');
      await page.keyboard.type('the API');
      await page.keyboard.press('Enter');
      const card = page.locator('[data-testid="compaction-card"][data-state="done"]');
      await expect(card).toHaveAttribute('data-trigger', 'manual');
      await expect(card.getByTestId('compaction-focus')).toContainText('the API');
      await expect(input).toHaveValue('');
    });

    test('a file picked with @ goes to the model with its content and shows as a read card', async ({ panel }) => {
      const { page } = panel;
      await panel.write('src/greeting.ts', "export const GREETING = 'hello from the mentioned file';\n");
      await panel.write('src/other.ts', 'export {};\n');
      await panel.write('.gitignore', 'build/\n');
      await panel.write('build/greeting.js', 'ignored\n');
      panel.script({ steps: [{ text: ['It exports a greeting.'] }] });
      const input = page.getByTestId('composer-input');
      await input.focus();
      await page.keyboard.type('What does @grtng');
      const menu = page.getByRole('listbox', { name: 'Files and folders' });
      await expect(menu.getByRole('option').first()).toContainText('src/greeting.ts');
      await expect(menu.getByRole('option', { name: /build/ })).toHaveCount(0);
      await expectNoSidewaysScroll(page);
      await panel.shot(`composer-mention-menu-${width}`);
      await page.keyboard.press('Enter');
      await expect(input).toHaveValue('What does @src/greeting.ts ');
      await page.keyboard.type('export?');
      await page.keyboard.press('Enter');

      const card = page.locator('[data-testid="tool-card"][data-tool="read_file"]');
      await expect(card).toHaveAttribute('data-state', 'done');
      await expect(card.getByTestId('card-subtitle')).toContainText('greeting.ts');
      await expect(page.getByTestId('message-assistant').last()).toContainText('It exports a greeting.');
      const sent = sentToModel(panel);
      expect(sent).toContain('What does @src/greeting.ts export?');
      expect(sent).toContain('hello from the mentioned file');
      await panel.shot(`composer-mention-sent-${width}`);
    });
  });
}
