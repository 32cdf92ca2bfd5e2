import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator } from '@playwright/test';
import { FIXTURE } from '../test/mcp-servers.ts';
import { expect, test, type Panel } from './panel-fixture.ts';
import { expectNoSeriousViolations, expectNoSideScroll } from './screens.ts';

// A real MCP server (the fixture, over stdio) asks for a form during its tool call (elicitation):
// the panel shows it above the composer with a field for each property, the required ones marked;
// Accept with blank required fields says what is missing under each; filled in by keyboard, the
// answer reaches the server, whose result says what it got. Decline and Esc (cancel) reach it too.

async function useFixture(panel: Panel): Promise<void> {
  const home = path.join(path.dirname(panel.workspace), 'home');
  await mkdir(home, { recursive: true });
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [FIXTURE] } } }),
  );
}

const TOOL = 'mcp__fixture__asks-for-release';

async function approve(panel: Panel, card: Locator): Promise<void> {
  // As a person would: once the button is shown (the transcript shows a new row once measured) and
  // has the focus, Enter.
  const once = card.getByTestId('approve-once');
  await expect(once).toBeVisible();
  await once.focus();
  await expect(once).toBeFocused();
  await panel.page.keyboard.press('Enter');
  await expect(card.getByTestId('approval-answer')).toBeVisible();
}

for (const width of [1280, 420, 360]) {
  test(`an MCP server's form is filled in and accepted by keyboard at ${width} px`, async ({ panel }) => {
    test.setTimeout(60_000);
    const { page } = panel;
    await page.setViewportSize({ width, height: 860 });
    await useFixture(panel);
    panel.script({
      steps: [{ tool_calls: [{ id: 'call_form', name: TOOL, args: {} }] }, { text: ['The release is cut.'] }],
    });
    await panel.send('Cut a release');
    const card = page.locator(`[data-testid="tool-card"][data-tool="${TOOL}"]`);
    await approve(panel, card);

    const form = page.getByTestId('mcp-form');
    await expect(form.getByTestId('mcp-form-message')).toHaveText('Which release should be cut?');
    await expect(form).toContainText('The MCP server fixture asks');
    const version = form.getByLabel('Version');
    await expect(version).toBeFocused();
    await expect(form.getByLabel('Tell the team')).toBeChecked();

    // Accept with nothing filled in: each required field says so, and the keyboard goes to the first.
    await page.keyboard.press('Enter');
    await expect(form.getByTestId('mcp-form-problem')).toHaveText(['Version is required.', 'Channel is required.']);
    await expect(version).toBeFocused();
    await expect(version).toHaveAttribute('aria-invalid', 'true');
    await panel.shot(`mcp-form-problems-${width}`);
    await expectNoSideScroll(page);

    await page.keyboard.type('2.4.0');
    await page.keyboard.press('Tab');
    await page.keyboard.type('3');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await expect(form.getByLabel('Tell the team')).not.toBeChecked();
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Channel')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(form.getByLabel('Channel')).toHaveValue('beta');
    await panel.shot(`mcp-form-filled-${width}`);
    await expectNoSeriousViolations(page, '[data-testid="mcp-forms"]');
    await page.keyboard.press('Tab');
    await expect(form.getByTestId('mcp-form-accept')).toBeFocused();
    await page.keyboard.press('Enter');

    await expect(form).toHaveCount(0);
    await expect(card).toContainText('accept {"version":"2.4.0","count":3,"notify":false,"channel":"beta"}');
    await expect(page.getByTestId('message-assistant').last()).toContainText('The release is cut.');
  });
}

test("Decline and Esc answer an MCP server's form as declined and cancelled", async ({ panel }) => {
  test.setTimeout(60_000);
  const { page } = panel;
  await useFixture(panel);
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_declined', name: TOOL, args: {} }] },
      { tool_calls: [{ id: 'call_cancelled', name: TOOL, args: {} }] },
      { text: ['Nothing was cut.'] },
    ],
  });
  await panel.send('Cut a release');
  const cards = page.locator(`[data-testid="tool-card"][data-tool="${TOOL}"]`);

  await approve(panel, cards.nth(0));
  const form = page.getByTestId('mcp-form');
  await expect(form.getByLabel('Version')).toBeFocused();
  await form.getByTestId('mcp-form-decline').focus();
  await page.keyboard.press('Enter');
  await expect(cards.nth(0)).toContainText('decline {}');

  await approve(panel, cards.nth(1));
  await expect(form.getByLabel('Version')).toBeFocused();
  await page.keyboard.type('2.5.0');
  await page.keyboard.press('Escape');
  await expect(cards.nth(1)).toContainText('cancel {}');
  await expect(form).toHaveCount(0);
  await expect(page.getByTestId('message-assistant').last()).toContainText('Nothing was cut.');
});
