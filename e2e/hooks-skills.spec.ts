import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from './panel-fixture.ts';
import { expectNoSeriousViolations, expectNoSideScroll } from './screens.ts';

// A repository set up for Claude Code, opened in the panel: its hooks (.claude/settings.json) wait
// in Settings until approved by keyboard, its skill (.claude/skills/release) is listed; once
// approved, a formatter's line and a guard's denial show on the cards they acted on, the output one
// click away. At both widths.

async function claudeRepo(workspace: string): Promise<void> {
  await mkdir(path.join(workspace, '.claude', 'skills', 'release'), { recursive: true });
  const formatter = `f=$(node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).tool_input.file_path))'); tr a-z A-Z < "$f" > "$f.tmp" && mv "$f.tmp" "$f" && echo "formatted $f"`;
  const guard = `grep -q -- '--force' && { echo "force-push is not allowed here" >&2; exit 2; } || true`;
  const settings = {
    hooks: {
      PostToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: formatter }] }],
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }],
    },
  };
  await writeFile(path.join(workspace, '.claude', 'settings.json'), JSON.stringify(settings, null, 2));
  await writeFile(
    path.join(workspace, '.claude', 'skills', 'release', 'SKILL.md'),
    '---\nname: release\ndescription: Cut a release of this project — bump the version, tag it and publish the notes.\n---\n# Release\n',
  );
}

// Writes and commands run without a question: the hooks are what acts on them here.
test.use({ homeSettings: { of: (model: string) => ({ model, permission_mode: 'auto' }) } });

for (const width of [1280, 420, 360]) {
  test(`workspace hooks wait for approval, then act on cards with their lines; skills are listed, at ${width} px`, async ({
    panel,
  }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 860 });
    await claudeRepo(panel.workspace);
    // The transcript says hooks wait, and leads to them.
    await page.reload();
    await expect(page.getByTestId('hooks-waiting')).toContainText('2 hooks of this workspace wait for your approval');
    await panel.shot(`hooks-waiting-${width}`);
    await page.getByTestId('hooks-review').click();
    await expect(page.getByTestId('settings')).toBeVisible();

    const hooks = page.getByTestId('hooks');
    const entries = hooks.getByTestId('hook-entry');
    await expect(entries).toHaveCount(2);
    await expect(entries.first().getByTestId('hook-status')).toHaveText('waiting for your approval');
    await expect(entries.first()).toContainText('.claude/settings.json:');
    await expect(page.getByTestId('skills').getByTestId('skill-entry')).toContainText('/release');
    await hooks.scrollIntoViewIfNeeded();
    await panel.shot(`hooks-approval-${width}`);

    // Approve both by keyboard: "Approve all", then each says it runs.
    await hooks.getByTestId('hooks-approve-all').focus();
    await page.keyboard.press('Enter');
    await expect(hooks.getByTestId('hook-status').filter({ hasText: 'runs' })).toHaveCount(2);
    await page.getByTestId('skills').scrollIntoViewIfNeeded();
    await panel.shot(`skills-list-${width}`);
    await expectNoSideScroll(page);
    await expectNoSeriousViolations(page, '[data-testid="hooks"]');
    await expectNoSeriousViolations(page, '[data-testid="skills"]');

    await page.getByTestId('settings-close').click();
    await expect(page.getByTestId('hooks-waiting')).toHaveCount(0);
    panel.script({
      steps: [
        { tool_calls: [{ id: 'call_w', name: 'write_file', args: { path: 'notes.md', content: 'hello\n' } }] },
        { tool_calls: [{ id: 'call_p', name: 'exec', args: { command: 'git push --force' } }] },
        { text: ['The push was refused.'] },
      ],
    });
    await panel.send('Write the notes and push');
    await expect(page.getByTestId('message-assistant').last()).toContainText('The push was refused.');
    expect(await panel.read('notes.md')).toBe('HELLO\n');

    const written = page.locator('[data-testid="tool-card"][data-call-id="call_w"]');
    const line = written.getByTestId('hook-line');
    await expect(line).toContainText('formatted by `f=$(node -e');
    const pushed = page.locator('[data-testid="tool-card"][data-call-id="call_p"]');
    await expect(pushed.getByTestId('hook-line')).toHaveText('↳denied by hook: force-push is not allowed here');
    // The formatter's output, one click away (by keyboard).
    await line.getByRole('button').focus();
    await page.keyboard.press('Enter');
    await expect(written.getByTestId('hook-output')).toContainText('formatted');
    await expect(written.getByTestId('hook-output')).toContainText('PostToolUse · exit code 0');
    await written.scrollIntoViewIfNeeded();
    await panel.shot(`hook-lines-${width}`);
    await expectNoSideScroll(page);
  });
}
