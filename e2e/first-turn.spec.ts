import { expect, test } from './panel-fixture.ts';

test('a sent message and the streamed answer appear in the transcript', async ({ panel }) => {
  panel.script({ steps: [{ text: ['Hello ', 'from the **fixture** model.'] }] });
  await panel.send('Say hello');
  await expect(panel.page.getByTestId('message-user')).toHaveText(/Say hello/);
  await expect(panel.page.getByTestId('message-assistant')).toContainText('Hello from the fixture model.');
  await expect(panel.page.getByTestId('message-assistant').locator('strong')).toHaveText('fixture');
  await expect(panel.page.getByTestId('message-assistant')).toBeVisible();
  await panel.shot('first-turn');
});
