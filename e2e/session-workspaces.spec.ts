import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SessionLog } from '../main/session/session-log.ts';
import { SessionSink } from '../main/session/session-sink.ts';
import { expect, test, type Panel } from './panel-fixture.ts';
import { axeOn } from './axe.ts';

// The session list groups sessions by workspace, searches their names and messages, and renames
// them for good. A session of another workspace opens read-only with a notice: its file links are
// the files of its own workspace, a message sent then is refused (and kept), the refusal goes when
// another session is shown, and "New session here" starts one in this workspace.

async function writeSession(panel: Panel, workspace: string, question: string, answer: string): Promise<string> {
  const log = await SessionLog.create({
    root: path.join(path.dirname(panel.workspace), 'sessions'),
    workspace,
    model: 'compat:cli',
  });
  const sink = new SessionSink(log, { emit: () => undefined });
  await sink.emit({ type: 'user_message', turn_id: 'turn_1', text: question });
  await sink.emit({ type: 'turn_started', turn_id: 'turn_1', model: 'compat:cli' });
  await sink.emit({ type: 'assistant_message', turn_id: 'turn_1', text: answer, tool_calls: [] });
  await sink.emit({
    type: 'turn_completed',
    turn_id: 'turn_1',
    usage: { input_tokens: 3, output_tokens: 4 },
    stop_reason: 'end_turn',
  });
  await log.close();
  return log.id;
}

async function openList(panel: Panel): Promise<void> {
  if (!(await panel.page.getByTestId('session-list').isVisible()))
    await panel.page.getByTestId('sessions-button').click();
  await expect(panel.page.getByTestId('session-list')).toBeVisible();
}

for (const width of [1280, 420] as const) {
  test(`sessions are grouped by workspace, searched and renamed for good at ${width} px`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    const elsewhere = await realpath(await mkdtemp(path.join(path.dirname(panel.workspace), 'other-project-')));
    await writeSession(panel, panel.workspace, 'Plan the release notes', 'The notes mention a zebra crossing.');
    await writeSession(panel, elsewhere, 'Fix the parser elsewhere', 'Done over there.');

    await openList(panel);
    const groups = page.getByTestId('session-group');
    await expect(groups).toHaveCount(2);
    await expect(groups.nth(0).getByRole('heading')).toHaveText(`This workspace (${path.basename(panel.workspace)})`);
    await expect(groups.nth(0).getByTestId('session-item')).toContainText('Plan the release notes');
    await expect(groups.nth(1).getByRole('heading')).toHaveText(path.basename(elsewhere));
    await expect(groups.nth(1).getByTestId('session-item')).toContainText('Fix the parser elsewhere');

    // The search reads the messages too, not only the names.
    await page.getByTestId('session-search').fill('ZEBRA');
    await expect(page.getByTestId('session-item')).toHaveCount(1);
    await expect(page.getByTestId('session-snippet')).toContainText('zebra crossing');
    await page.getByTestId('session-search').fill('nothing like this');
    await expect(page.getByTestId('session-search-empty')).toBeVisible();
    await page.getByTestId('session-search').fill('');
    await expect(page.getByTestId('session-item')).toHaveCount(2);

    const item = page.getByTestId('session-item').filter({ hasText: 'Plan the release notes' });
    await item.getByTestId('session-rename').click();
    const name = page.getByTestId('session-rename-input');
    await expect(name).toBeFocused();
    await name.fill('Release notes, renamed');
    await name.press('Enter');
    await expect(page.getByTestId('session-item').filter({ hasText: 'Release notes, renamed' })).toHaveCount(1);
    await expect(page.getByTestId('session-rename').first()).toBeFocused();
    const axe = await (await axeOn(page)).include('[data-testid="session-list"]').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await panel.shot(`sessions-grouped-${width}`);

    // Durable: a reload reads it back from the sessions folder, and the search finds the new name.
    await page.reload();
    await openList(panel);
    await expect(page.getByTestId('session-item').filter({ hasText: 'Release notes, renamed' })).toHaveCount(1);
    await page.getByTestId('session-search').fill('renamed');
    await expect(page.getByTestId('session-item')).toHaveCount(1);
  });

  test(`a session of another workspace opens read-only, links its own files, and sending never swaps it at ${width} px`, async ({
    panel,
  }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    const elsewhere = await realpath(await mkdtemp(path.join(path.dirname(panel.workspace), 'other-project-')));
    await mkdir(path.join(elsewhere, 'notes'));
    await writeFile(path.join(elsewhere, 'notes', 'there.md'), 'first line\nwritten over there\n');
    await writeSession(
      panel,
      elsewhere,
      'Question from the other project',
      'Answer from the other project: notes/there.md:2.',
    );
    await writeSession(panel, panel.workspace, 'Question from here', 'Answer from here.');

    await openList(panel);
    await page
      .getByTestId('session-item')
      .filter({ hasText: 'Question from the other project' })
      .getByTestId('session-open')
      .click();
    await expect(page.getByTestId('message-assistant').last()).toContainText('Answer from the other project');
    const notice = page.getByTestId('session-notice').locator('[data-kind="other_workspace"]');
    await expect(notice).toContainText('another workspace');
    await expect(notice).toContainText(elsewhere);
    // Its links are the files of its own workspace, which this one does not have.
    const link = page.getByTestId('file-link');
    await expect(link).toHaveText('notes/there.md:2');
    // Nothing there acts on this workspace's session in its name.
    await expect(page.getByTestId('rewind-button')).toHaveCount(0);

    panel.script({ steps: [{ text: ['Answered here.'] }] });
    const input = page.getByTestId('composer-input');
    await input.fill('Continue over there');
    await input.press('Control+Enter');
    await expect(page.getByTestId('error-banner')).toContainText('read-only here');
    await expect(input).toHaveValue('Continue over there');
    await expect(page.getByTestId('message-user')).toHaveCount(1);
    for (const shot of width === 420 ? [420, 360] : [width]) {
      await page.setViewportSize({ width: shot, height: 800 });
      await panel.shot(`other-workspace-${shot}`);
    }
    await link.click();
    const viewer = page.getByTestId('file-viewer');
    await expect(viewer).toContainText('written over there');
    for (const shot of width === 420 ? [420, 360] : [width]) {
      await page.setViewportSize({ width: shot, height: 800 });
      await panel.shot(`other-workspace-file-${shot}`);
    }
    await page.setViewportSize({ width, height: 800 });
    await page.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);

    // Back on a session of this workspace: the refusal and the notice go with the session they were about.
    await openList(panel);
    await page
      .getByTestId('session-item')
      .filter({ hasText: 'Question from here' })
      .getByTestId('session-open')
      .click();
    await expect(page.getByTestId('message-assistant').last()).toContainText('Answer from here.');
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
    await expect(page.getByTestId('session-notice')).toHaveCount(0);
    await expect(page.getByTestId('rewind-button').first()).toBeAttached();
    for (const shot of width === 420 ? [420, 360] : [width]) {
      await page.setViewportSize({ width: shot, height: 800 });
      await panel.shot(`other-workspace-back-${shot}`);
    }
    await page.setViewportSize({ width, height: 800 });

    await openList(panel);
    await page
      .getByTestId('session-item')
      .filter({ hasText: 'Question from the other project' })
      .getByTestId('session-open')
      .click();
    // The message sent is for the session shown: wait until it is the other project's again.
    await expect(page.getByTestId('message-assistant').last()).toContainText('Answer from the other project');
    await expect(input).toHaveValue('Continue over there');
    await input.press('Control+Enter');
    await expect(page.getByTestId('error-banner')).toContainText('read-only here');
    await page.getByTestId('session-new-here').click();
    await expect(page.getByTestId('session-notice')).toHaveCount(0);
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
    await expect(page.getByTestId('message-user')).toHaveCount(0);
    await input.press('Control+Enter');
    await expect(page.getByTestId('message-assistant').last()).toContainText('Answered here.');
  });
}
