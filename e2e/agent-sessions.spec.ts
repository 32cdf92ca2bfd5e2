import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './panel-fixture.ts';
import { axeOn } from './axe.ts';

// An agent's session opened from the session list, by keyboard alone: it shows read-only under a
// strip naming its agent, with the focus on the way back; it exports as the agent's own transcript;
// a message is refused and stays in the box;
// "Show its agent card" opens the parent at the card, and "Back to …" opens the parent. At the
// desktop width, at 420 and at 360 px.

const SCRIPT = {
  steps: [
    {
      tool_calls: [
        { id: 'a-explore', name: 'agent', args: { agent: 'explore', task: 'What is in notes/? (task look)' } },
      ],
    },
    { text: ['The explorer is done.'] },
  ],
  streams: [
    {
      match: 'task look',
      steps: [
        { tool_calls: [{ id: 'l1', name: 'list_dir', args: { path: 'notes' } }] },
        { text: ['notes/ holds **todo.md**.'] },
      ],
    },
  ],
};

/** Serious and critical WCAG 2 A/AA violations on the page as it is now, one line each. */
async function axeViolations(page: Page): Promise<string[]> {
  const results = await (await axeOn(page)).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Presses Tab until `testId` has the focus (at most 30 times): reachable by keyboard, in page order. */
async function tabTo(page: Page, testId: string): Promise<void> {
  for (let presses = 0; presses < 30; presses += 1) {
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
    if (focused === testId) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${testId}`);
}

for (const width of [1280, 420, 360]) {
  test(`an agent's session opens from the session list by keyboard, read-only, with its ways back at ${width} px`, async ({
    panel,
  }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    await panel.write('notes/todo.md', '- ship\n');
    panel.script(SCRIPT);
    await panel.send('Look at the notes');
    await expect(page.getByTestId('message-assistant').last()).toContainText('The explorer is done.', {
      timeout: 30_000,
    });

    await page.getByTestId('sessions-button').focus();
    await page.keyboard.press('Enter');
    await tabTo(page, 'session-agent-open');
    await expect(page.getByTestId('session-agent-open')).toContainText('explore');
    await panel.shot(`agent-sessions-list-${width}`);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');

    const origin = page.getByTestId('agent-origin');
    await expect(origin).toContainText('Agent explore’s session · read-only');
    await expect(page.getByTestId('agent-origin-parent')).toContainText('Back to Look at the notes');
    await expect(page.getByTestId('agent-origin-parent')).toBeFocused();
    // The child's own transcript: its task as its message, its call, its answer.
    await expect(page.getByTestId('message-user')).toContainText('Task given by the parent');
    await expect(page.locator('[data-testid="tool-card"][data-tool="list_dir"]')).toBeVisible();
    await expect(page.getByTestId('message-assistant').last()).toContainText('notes/ holds todo.md.');
    await expect(page.getByTestId('session-list')).toBeHidden();
    await panel.shot(`agent-sessions-child-${width}`);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // Its export, by keyboard: after the ways back, Export… opens the formats with the focus on the
    // first; the file is the agent's own transcript, and the focus comes back to Export….
    await page.getByTestId('agent-origin-card').focus();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('agent-origin-export')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('agent-origin-export-markdown')).toBeFocused();
    await panel.shot(`agent-sessions-export-${width}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    const downloading = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    const exported = await readFile(await (await downloading).path(), 'utf8');
    expect(exported).toContain('notes/ holds **todo.md**.');
    expect(exported).not.toContain('The explorer is done.');
    await expect(page.getByTestId('agent-origin-export')).toBeFocused();

    // A message typed here is not sent anywhere: it stays, with the reason.
    const input = page.getByTestId('composer-input');
    await input.fill('Tell me more');
    await input.press('Control+Enter');
    await expect(page.getByTestId('error-banner')).toContainText('Not sent');
    await expect(input).toHaveValue('Tell me more');
    await input.fill('');

    await page.getByTestId('agent-origin-parent').focus();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('agent-origin-card')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(origin).toBeHidden();
    const card = page.locator('[data-testid="tool-card"][data-call-id="a-explore"]');
    await expect(card).toBeVisible();
    await expect(page.locator('[data-find-current]')).toHaveAttribute('data-row-key', 'call:a-explore');
    await expect.poll(() => card.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await panel.shot(`agent-sessions-card-${width}`);

    // Open it again, then go back to the parent with its first control.
    await page.getByTestId('sessions-button').focus();
    await page.keyboard.press('Enter');
    await tabTo(page, 'session-agent-open');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('agent-origin-parent')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(origin).toBeHidden();
    await expect(page.getByTestId('message-assistant').last()).toContainText('The explorer is done.');
    // The parent takes messages again.
    panel.script({ steps: [{ text: ['Back in the parent.'] }] });
    await panel.send('Thanks');
    await expect(page.getByTestId('message-assistant').last()).toContainText('Back in the parent.');
  });
}

test("an agent's own agent is listed under it and opens with the way back to that agent, at 360 px", async ({
  panel,
}) => {
  const { page } = panel;
  await page.setViewportSize({ width: 360, height: 800 });
  // A person's agent that may start agents itself (the app home is beside the workspace).
  const agents = path.join(path.dirname(panel.workspace), 'home', 'agents');
  await mkdir(agents, { recursive: true });
  await writeFile(
    path.join(agents, 'lead.md'),
    '---\nname: lead\ndescription: Hands the reading to an explorer.\nnesting: true\n---\nAsk explore, then answer.\n',
  );
  await panel.write('notes/todo.md', '- ship\n');
  panel.script({
    steps: [
      { tool_calls: [{ id: 'a-lead', name: 'agent', args: { agent: 'lead', task: 'Survey notes (task outer)' } }] },
      { text: ['The lead is done.'] },
    ],
    streams: [
      {
        match: 'task outer',
        steps: [
          {
            tool_calls: [{ id: 'a-inner', name: 'agent', args: { agent: 'explore', task: 'List notes (task inner)' } }],
          },
          { text: ['The explorer answered.'] },
        ],
      },
      { match: 'task inner', steps: [{ text: ['notes/ holds todo.md.'] }] },
    ],
  });
  await panel.send('Survey the workspace');
  await expect(page.getByTestId('message-assistant').last()).toContainText('The lead is done.', { timeout: 30_000 });

  await page.getByTestId('sessions-button').click();
  const nested = page.getByTestId('session-agent').filter({ hasText: 'lead' }).getByTestId('session-agent');
  await expect(nested).toContainText('explore');
  await expect(nested).toContainText('List notes (task inner)');
  await panel.shot('agent-sessions-nested-list-360');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await nested.getByTestId('session-agent-open').click();
  await expect(page.getByTestId('agent-origin')).toContainText('Agent explore’s session');
  await expect(page.getByTestId('agent-origin-parent')).toContainText('Back to Survey notes (task outer)');
  await page.getByTestId('agent-origin-card').click();
  // The lead's own session, at the card of the call that started the explorer.
  await expect(page.getByTestId('agent-origin')).toContainText('Agent lead’s session');
  await expect(page.locator('[data-find-current]')).toHaveAttribute('data-row-key', 'call:a-inner');
  await expect(page.locator('[data-testid="tool-card"][data-call-id="a-inner"]')).toBeInViewport();
  await expect(page.getByTestId('message-user')).toContainText('Task given by the parent');
  await panel.shot('agent-sessions-nested-card-360');
});
