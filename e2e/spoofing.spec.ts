import { expect, test, type Panel } from './panel-fixture.ts';

// Spoofing in the panel: a command's output and the model's text hold a bidi override ("txt.exe"
// that reads "exe.txt"), escape sequences, a bell, a NUL and zero-width characters. The screen shows
// each as a visible mark; colours (SGR) show as colours; nothing reorders or hides text.

const execCard = (panel: Panel) => panel.page.locator('[data-testid="tool-card"][data-tool="exec"]');

// dash's printf: \342\200\256 is U+202E (RLO), \342\200\213 is U+200B (ZWSP), \033 ESC, \007 BEL, \000 NUL.
const COMMAND = String.raw`printf 'txt\342\200\256exe.txt \033[31mred\033[0m \033[2J \033]52;c;aGk=\007 nul\000 zw\342\200\213x\n'`;

test('control, bidi and zero-width characters in command output and model text show as marks', async ({ panel }) => {
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_exec', name: 'exec', args: { command: COMMAND } }] },
      { text: ['Saved as invoice\u202Efdp.exe and pass\u200Bword.'] },
    ],
  });
  await panel.send('Print the tricky file name');
  const card = execCard(panel);
  await card.getByTestId('approve-once').click();
  await expect(card).toHaveAttribute('data-state', 'done');

  const output = card.getByTestId('exec-output');
  await expect(output).toHaveText('txt⟨RLO⟩exe.txt red ⟨ESC⟩[2J ⟨ESC⟩]52;c;aGk=⟨BEL⟩ nul⟨NUL⟩ zw⟨ZWSP⟩x\n');
  await expect(output.locator('.ansi-fg-1')).toHaveText('red');
  await expect(output.getByTestId('char-mark').first()).toHaveAttribute(
    'title',
    'U+202E right-to-left override (bidi)',
  );
  const raw = await output.evaluate((element) => element.textContent ?? '');
  expect(raw).not.toMatch(/[\u0000\u0007\u001b\u200b\u202e]/);

  const answer = panel.page.getByTestId('message-assistant').last();
  await expect(answer).toHaveText('Saved as invoice⟨RLO⟩fdp.exe and pass⟨ZWSP⟩word.');
  await panel.shot('spoofing-marks');
});
