import type { FixtureScriptInput } from '../main/model/fixture-script.ts';
import { expect, test } from './panel-fixture.ts';

// A turn that failed offers Retry, which sends the person's message again as a new turn.

const FAILURES: { name: string; width: number; step: FixtureScriptInput['steps'][number]; says: RegExp }[] = [
  { name: 'a refused key (HTTP 401)', width: 1280, step: { fault: { type: 'http_error', status: 401 } }, says: /401/ },
  {
    name: 'an overloaded model cutting the stream',
    width: 420,
    step: { text: ['Start of '], fault: { type: 'error_event', after_events: 2, message: 'Overloaded right now' } },
    says: /Overloaded/,
  },
];

for (const failure of FAILURES) {
  test(`Retry after ${failure.name} sends the message again at ${failure.width} px`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width: failure.width, height: 800 });
    panel.script({ steps: [failure.step, { text: ['Worked the second time.'] }] });
    await panel.send('Please answer this');
    const notice = page.getByTestId('message-notice');
    await expect(notice).toContainText(failure.says);
    const retry = notice.getByTestId('turn-retry');
    await expect(retry).toBeVisible();
    await panel.shot(`retry-offered-${failure.width}`);
    await retry.click();
    await expect(page.getByTestId('message-assistant').last()).toContainText('Worked the second time.');
    await expect(page.getByTestId('message-user')).toHaveCount(2);
    await expect(page.getByTestId('message-user').last()).toContainText('Please answer this');
    // The failed turn is not the newest any more: its Retry is gone.
    await expect(page.getByTestId('turn-retry')).toHaveCount(0);
  });
}
