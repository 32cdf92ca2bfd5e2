import { createHash } from 'node:crypto';
import { expect, test } from './panel-fixture.ts';
import { allowedNotesWrite, card } from './rewind-setup.ts';

// Rewind from the panel, at a desktop width and at a narrow panel's: the code back to before a
// card (a file the person changed meanwhile is a conflict they decide about), the card the rewind
// leaves undoing it, and the conversation forked before a card's turn with its message back in the
// composer while the original session stays listed. Rewinding both leaves the person in a fork
// that says so — its name, where it comes from at its top — and holds the code rewind's card.

for (const width of [1280, 420]) {
  test(`rewinds the code from a card, asks about the person's file, and undoes it (${width} px)`, async ({ panel }) => {
    await panel.page.setViewportSize({ width, height: 860 });
    await allowedNotesWrite(panel);
    expect(await panel.read('notes.md')).toBe('two\n');
    // The person makes a file of their own after the agent's write.
    await panel.write('mine.txt', 'mine\n');

    // Keyboard: the card's Rewind button opens the menu on its first item.
    await card(panel, 'write_file').getByTestId('rewind-button').focus();
    await panel.page.keyboard.press('Enter');
    await expect(panel.page.getByTestId('rewind-code')).toBeFocused();
    await panel.page.keyboard.press('Enter');
    const dialog = panel.page.getByTestId('rewind-dialog');
    await expect(dialog.getByTestId('rewind-restore')).toHaveText('notes.md');
    const conflict = dialog.locator('[data-testid="rewind-conflict"][data-path="mine.txt"]');
    await expect(conflict).toContainText('Remove it (it was not there)');
    await expect(dialog.getByTestId('rewind-confirm')).toBeDisabled();
    await conflict.getByTestId('conflict-keep').check();
    await panel.shot(`rewind-dialog-${width}`);
    await dialog.getByTestId('rewind-confirm').click();
    await expect(dialog).toHaveCount(0);
    expect(await panel.read('notes.md')).toBe('one\n');
    expect(await panel.read('mine.txt')).toBe('mine\n');

    const left = panel.page.getByTestId('rewind-card');
    await expect(left).toContainText(
      'Code rewound to before write_file notes.md: 1 restored, 0 removed, 1 kept as you left them.',
    );
    await panel.shot(`rewind-card-${width}`);
    await left.getByTestId('rewind-undo').click();
    await expect(dialog.getByTestId('rewind-restore')).toHaveText('notes.md');
    await expect(dialog.getByTestId('rewind-conflict')).toHaveCount(0);
    await dialog.getByTestId('rewind-confirm').click();
    await expect(dialog).toHaveCount(0);
    expect(await panel.read('notes.md')).toBe('two\n');
    await expect(left).toContainText('Undone: Code rewound');
    await expect(left.getByTestId('rewind-undo')).toHaveCount(0);
  });

  test(`rewinds the conversation from a card into a fork that holds the message (${width} px)`, async ({ panel }) => {
    await panel.page.setViewportSize({ width, height: 860 });
    panel.script({
      steps: [
        { text: ['The first answer.'] },
        { tool_calls: [{ id: 'call_make', name: 'write_file', args: { path: 'made.txt', content: 'made\n' } }] },
        { text: ['Made it.'] },
      ],
    });
    await panel.send('First question');
    await expect(panel.page.getByTestId('message-assistant').last()).toContainText('The first answer.');
    await panel.send('Make the file');
    await card(panel, 'write_file').getByTestId('approve-once').click();
    await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Made it.');
    const original = await panel.page.getByTestId('footer-session').getAttribute('title');

    await card(panel, 'write_file').getByTestId('rewind-button').click();
    await panel.page.getByTestId('rewind-conversation').click();
    const dialog = panel.page.getByTestId('rewind-dialog');
    await expect(dialog.getByTestId('rewind-message')).toHaveText('Make the file');
    await panel.shot(`rewind-conversation-${width}`);
    await dialog.getByTestId('rewind-confirm').click();
    await expect(dialog).toHaveCount(0);

    // The fork: the turns before that message, the message back in the box, the code untouched.
    await expect(panel.page.getByTestId('composer-input')).toHaveValue('Make the file');
    await expect(panel.page.getByTestId('message-user')).toHaveCount(1);
    await expect(panel.page.getByTestId('message-user')).toContainText('First question');
    await expect(card(panel, 'write_file')).toHaveCount(0);
    await expect(panel.page.getByTestId('footer-session')).not.toHaveAttribute('title', original ?? '');
    expect(await panel.read('made.txt')).toBe('made\n');
    if (!(await panel.page.getByTestId('session-list').isVisible()))
      await panel.page.getByTestId('sessions-button').click();
    await expect(panel.page.getByTestId('session-item')).toHaveCount(2);
  });
}

test('rewinding both goes on in a fork named as one, which says where it comes from and holds the undo', async ({
  panel,
}) => {
  const { page } = panel;
  await page.setViewportSize({ width: 1280, height: 860 });
  await panel.write('notes.md', 'one\n');
  panel.script({
    steps: [
      { text: ['A plan for the notes.'] },
      {
        tool_calls: [
          {
            id: 'call_write',
            name: 'write_file',
            args: {
              path: 'notes.md',
              content: 'two\n',
              expected_sha256: createHash('sha256').update('one\n').digest('hex'),
            },
          },
        ],
      },
      { text: ['Updated the notes.'] },
    ],
  });
  await panel.send('Plan the notes');
  await expect(page.getByTestId('message-assistant').last()).toContainText('A plan for the notes.');
  await panel.send('Update the notes');
  await card(panel, 'write_file').getByTestId('approve-once').click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('Updated the notes.');
  await expect(page.getByTestId('fork-origin')).toHaveCount(0);

  await card(panel, 'write_file').getByTestId('rewind-button').click();
  await page.getByTestId('rewind-both').click();
  const dialog = page.getByTestId('rewind-dialog');
  await expect(dialog.getByTestId('rewind-restore')).toHaveText('notes.md');
  await dialog.getByTestId('rewind-confirm').click();
  await expect(dialog).toHaveCount(0);
  expect(await panel.read('notes.md')).toBe('one\n');

  // The fork: named as one, where it comes from at its top, the rewind's card with its Undo.
  await expect(page.getByTestId('composer-input')).toHaveValue('Update the notes');
  await expect(page.getByTestId('fork-origin')).toHaveText('↳ Forked from Plan the notes before message 2');
  await expect(page.getByTestId('footer-session')).toHaveText('↳ Plan the notes');
  const left = page.getByTestId('rewind-card');
  await expect(left).toContainText('Code rewound to before write_file notes.md: 1 restored, 0 removed.');
  await expect(left.getByTestId('rewind-undo')).toBeVisible();
  const list = page.getByTestId('session-list');
  if (!(await list.isVisible())) await page.getByTestId('sessions-button').click();
  await expect(page.getByTestId('session-item')).toHaveText([/↳ Plan the notes/, /^(?!↳).*Plan the notes/]);
  for (const width of [1280, 420, 360]) {
    await page.setViewportSize({ width, height: 860 });
    if (!(await list.isVisible())) await page.getByTestId('sessions-button').click();
    await panel.shot(`rewind-both-list-${width}`);
    if (width < 720) await page.keyboard.press('Escape');
    await expect(page.getByTestId('fork-origin')).toBeInViewport();
    await expect(left.getByTestId('rewind-undo')).toBeInViewport();
    await panel.shot(`rewind-both-fork-${width}`);
  }

  await left.getByTestId('rewind-undo').click();
  await dialog.getByTestId('rewind-confirm').click();
  await expect(left).toContainText('Undone: Code rewound');
  expect(await panel.read('notes.md')).toBe('two\n');
  // The original is as it was: no fork line, no rewind card.
  await page.getByTestId('fork-origin-parent').click();
  await expect(page.getByTestId('footer-session')).toHaveText('Plan the notes');
  await expect(page.getByTestId('fork-origin')).toHaveCount(0);
  await expect(page.getByTestId('rewind-card')).toHaveCount(0);
  await expect(page.getByTestId('message-user')).toHaveCount(2);
});
