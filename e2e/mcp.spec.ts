import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { EVERYTHING, FIXTURE } from '../test/mcp-servers.ts';
import { expect, test } from './panel-fixture.ts';
import { axeOn } from './axe.ts';

// An MCP server's tool in the panel: the approval names the server, the tool and the arguments; the
// card shows the server's progress live; Stop cancels the call, and the server itself receives the
// cancellation (its own log says so). Its binary resources and links show their name, type and size,
// Save… downloads a blob's bytes (or a link's, read from its server), and "What the model received"
// shows the images the model got.

test('an MCP call asks naming the server, shows live progress, and Stop cancels it on the server', async ({
  panel,
}) => {
  // The fixture's home is next to its workspace; mcp.json must be there before the first session.
  const home = path.join(path.dirname(panel.workspace), 'home');
  const log = path.join(path.dirname(panel.workspace), 'fixture.log');
  await mkdir(home, { recursive: true });
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({
      mcpServers: { fixture: { command: process.execPath, args: [FIXTURE], env: { MCP_FIXTURE_LOG: log } } },
    }),
  );
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_mcp', name: 'mcp__fixture__counts-until-stopped', args: {} }] },
      { text: ['It was stopped.'] },
    ],
  });
  await panel.send('Count until I stop you');

  const card = panel.page.locator('[data-testid="tool-card"][data-tool="mcp__fixture__counts-until-stopped"]');
  await expect(card.getByTestId('approval-detail')).toContainText('MCP server: fixture');
  await expect(card.getByTestId('approval-detail')).toContainText('Tool: counts-until-stopped');
  await panel.shot('mcp-approval');
  await card.getByTestId('approve-once').click();

  await expect(card.getByTestId('mcp-progress')).toContainText(/\d+\/1000 step \d+/);
  // The newest six lines, after a line counting the earlier ones once there are more.
  await expect(card.getByTestId('mcp-progress')).toContainText(/^(… \d+ earlier lines?\n)?(\d+\/1000 step \d+\n?){6}$/);
  await expect(card.getByTestId('mcp-progress')).toContainText(/^… \d+ earlier lines?\n/);
  // The tool is named once, as server › tool, not again as mcp__server__tool.
  await expect(card.getByTestId('card-title')).toHaveText('fixture › counts-until-stopped');
  await expect(card.getByTestId('card-subtitle')).toHaveCount(0);
  await panel.page.setViewportSize({ width: 1280, height: 800 });
  await panel.shot('mcp-progress');
  await panel.page.setViewportSize({ width: 420, height: 800 });
  await panel.shot('mcp-progress-420');
  await panel.page.setViewportSize({ width: 360, height: 800 });
  await panel.shot('mcp-progress-360');
  await card.getByTestId('card-stop').click();
  await expect(card).toHaveAttribute('data-state', 'error');
  await expect.poll(async () => readFile(log, 'utf8').catch(() => '')).toMatch(/^cancelled \S+$/m);
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('It was stopped.');
});

test('an MCP card names a binary resource and saves its bytes, links show their URI, and the model’s images show in what it received', async ({
  panel,
}) => {
  const home = path.join(path.dirname(panel.workspace), 'home');
  await mkdir(home, { recursive: true });
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }),
  );
  panel.script({
    steps: [
      {
        tool_calls: [
          {
            id: 'call_blob',
            name: 'mcp__everything__get-resource-reference',
            args: { resourceType: 'Blob', resourceId: 2 },
          },
          { id: 'call_links', name: 'mcp__everything__get-resource-links', args: { count: 2 } },
          { id: 'call_image', name: 'mcp__everything__get-tiny-image', args: {} },
        ],
      },
      { text: ['Here they are.'] },
    ],
  });
  await panel.send('Fetch a blob, two links and the tiny image');
  const { page } = panel;
  await expect(page.getByTestId('message-assistant').last()).toContainText('Here they are.');

  const blobCard = page.locator('[data-testid="tool-card"][data-tool="mcp__everything__get-resource-reference"]');
  const blob = blobCard.locator('[data-testid="mcp-resource"][data-type="blob"]');
  await expect(blob.getByTestId('mcp-resource-name')).toHaveText('2');
  await expect(blob.getByTestId('mcp-resource-facts')).toHaveText(/^text\/plain · \d+ bytes$/);
  await expect(blob.getByTestId('mcp-resource-uri')).toHaveText('demo://resource/dynamic/blob/2');
  const downloading = page.waitForEvent('download');
  await blob.getByRole('button', { name: 'Save 2…' }).click();
  const download = await downloading;
  // Chromium adds the extension of the type (text/plain) to a name without one.
  expect(download.suggestedFilename()).toMatch(/^2(\.txt)?$/);
  expect(await readFile(await download.path(), 'utf8')).toMatch(/^Resource 2: This is a base64 blob created at /);

  const links = page.locator('[data-testid="tool-card"][data-tool="mcp__everything__get-resource-links"]');
  await expect(links.locator('[data-testid="mcp-resource"][data-type="link"]')).toHaveCount(2);
  await expect(links.getByTestId('mcp-resource-uri').first()).toHaveText(/^demo:\/\/resource\//);
  const linkDownload = page.waitForEvent('download');
  await links.getByRole('button', { name: 'Save Blob Resource 1…' }).click();
  expect(await readFile(await (await linkDownload).path(), 'utf8')).toMatch(/^Resource 1: This is a base64 blob/);

  const imageCard = page.locator('[data-testid="tool-card"][data-tool="mcp__everything__get-tiny-image"]');
  await imageCard.getByTestId('full-content-button').click();
  const shown = imageCard.getByTestId('model-image-button');
  await expect(shown.getByRole('img')).toHaveAttribute(
    'alt',
    /^Image 1 of 1 the model received, PNG, [\d.]+ (bytes|KiB)$/,
  );
  expect(await shown.getByRole('img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await shown.focus();
  await page.keyboard.press('Enter');
  await expect(shown).toHaveAttribute('aria-pressed', 'true');
  await shown.scrollIntoViewIfNeeded();
  await panel.shot('mcp-model-images');

  for (const width of [1280, 420]) {
    await page.setViewportSize({ width, height: 900 });
    await blobCard.scrollIntoViewIfNeeded();
    await panel.shot(`mcp-resources-${width}`);
    const scrollable = await blob.evaluate((row) => row.scrollWidth > row.clientWidth + 1);
    expect(scrollable, `the resource row fits ${width} px`).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
  }
});

/** Serious and critical WCAG 2 A/AA violations on the page as it is now, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await (await axeOn(page)).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}
