import { writeDevServer } from './dev-server.ts';
import { expect, test } from './panel-fixture.ts';

// The Processes strip: a server the model started in the background shows above the message box
// with its command, its last line and the port it listens on (a link to http://127.0.0.1:port,
// asked about before it opens); its row opens its live output; a new session asks before it would
// stop it; Stop ends it. At 1280, 420 and 360 px.

test('a background server in the Processes strip: port link, live output, Stop', async ({ panel }) => {
  const port = await writeDevServer(panel);
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_start', name: 'exec', args: { command: 'node server.mjs', background: true } }] },
      { text: ['The server runs in the background.'] },
    ],
  });
  await panel.page.setViewportSize({ width: 1280, height: 800 });
  await panel.send('Start the dev server');
  await panel.page.getByTestId('approve-once').click();
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('The server runs in the background.');

  const strip = panel.page.getByTestId('process-strip');
  const row = strip.getByTestId('process-row');
  await expect(row.getByTestId('process-command')).toHaveText('node server.mjs');
  await expect(row.getByTestId('process-port')).toHaveText(`:${port}`);
  await expect(row.getByTestId('process-last-line')).toHaveText(`ready on http://127.0.0.1:${port}`);
  await panel.shot('processes-strip');

  // The port is a link to the server, asked about before anything opens.
  const asked: string[] = [];
  panel.page.once('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await row.getByTestId('process-port').click();
  await expect.poll(() => asked).toEqual([`Open this link in a new tab?\n\nhttp://127.0.0.1:${port}/`]);

  // The row opens its live output, which follows what the server prints.
  await row.getByTestId('process-open').click();
  const output = strip.getByTestId('process-output');
  await expect(output).toContainText(`ready on http://127.0.0.1:${port}`);
  expect(await (await fetch(`http://127.0.0.1:${port}/page`)).text()).toBe('hello');
  await expect(output).toContainText('GET /page');
  await panel.shot('processes-output');

  await panel.page.setViewportSize({ width: 420, height: 800 });
  await expect(row.getByTestId('process-stop')).toBeInViewport();
  await panel.shot('processes-output-420');
  await panel.page.setViewportSize({ width: 360, height: 800 });
  await expect(row.getByTestId('process-stop')).toBeInViewport();
  await expect(row.getByTestId('process-port')).toBeInViewport();
  expect(await panel.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await panel.shot('processes-output-360');

  // Starting a new session would stop it: the panel asks first, and a no keeps it running.
  const question: string[] = [];
  panel.page.once('dialog', (dialog) => {
    question.push(dialog.message());
    void dialog.dismiss();
  });
  if (!(await panel.page.getByTestId('session-list').isVisible()))
    await panel.page.getByTestId('sessions-button').click();
  await panel.page.getByTestId('session-new').click();
  await expect
    .poll(() => question)
    .toEqual(['A background process runs in this session:\np1: node server.mjs\n\nA new session stops it. Go on?']);
  await panel.page.getByTestId('sessions-button').click();
  await expect(row).toBeVisible();

  await row.getByTestId('process-stop').click();
  await expect(strip).toHaveCount(0);
  await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  await panel.shot('processes-stopped-420');
});
