import path from 'node:path';
import { writeBigSession } from '../test/big-session.ts';
import { expect, test, type Panel } from './panel-fixture.ts';

// A session of 10 000 tool calls opens with its newest page only: no message of the web socket
// comes near a megabyte, and scrolling up to the first row loads the pages before it.

const MEGABYTE = 1024 * 1024;

function sessionsOf(panel: Panel): string {
  // The fixture's AETHERCODEX_SESSIONS, beside the workspace.
  return path.join(path.dirname(panel.workspace), 'sessions');
}

/** The lowest call number among the rows in the DOM (the list is virtualised). */
async function earliestCall(panel: Panel): Promise<number> {
  const text = await panel.page.getByTestId('transcript').innerText();
  const numbers = [...text.matchAll(/call-(\d{5})/g)].map((match) => Number(match[1]));
  return numbers.length > 0 ? Math.min(...numbers) : Number.POSITIVE_INFINITY;
}

// Web host only: the desktop app talks over IPC, not a socket whose frames can be weighed.
const widths = process.env['AETHER_E2E_TARGET'] === 'electron' ? [] : [1280, 420];

for (const width of widths) {
  test(`a long session opens with its newest page under a megabyte and loads older pages on scrolling up (${width} px)`, async ({
    panel,
  }) => {
    test.setTimeout(120_000);
    await panel.page.setViewportSize({ width, height: 800 });
    await writeBigSession({ root: sessionsOf(panel), id: 'long-e2e', workspace: panel.workspace, calls: 10_000 });
    const frames: number[] = [];
    panel.page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) =>
        frames.push(typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length),
      );
    });
    await panel.page.reload();
    await expect(panel.page.getByTestId('composer-input')).toBeVisible();

    await panel.page.getByTestId('sessions-button').click();
    await panel.page.getByTestId('session-item').filter({ hasText: 'Turn t0' }).getByTestId('session-open').click();
    await expect(panel.page.getByTestId('transcript')).toContainText('Done with t99.');
    const opened = Math.max(...frames);
    expect(opened).toBeLessThan(MEGABYTE);
    const newest = await earliestCall(panel);
    expect(newest).toBeGreaterThan(9_000);

    const older = panel.page.getByTestId('older-events');
    // The count of events not shown yet (-1 while a page loads).
    const remaining = async () => Number(await panel.page.getByTestId('transcript').getAttribute('data-older'));
    // The count once no page is loading: a wheel that lands as a page arrives may start the next one.
    const settled = async () => {
      let count = -1;
      await expect.poll(async () => (count = await remaining())).toBeGreaterThanOrEqual(0);
      return count;
    };
    const pageLoaded = async (before: number, again?: () => Promise<void>) => {
      await expect
        .poll(
          async () => {
            const now = await remaining();
            // Still at the count before: the wheel landed while rows were being put in front and
            // the list was not at its top, so the person scrolls up once more.
            if (now === before && again) await again();
            return now >= 0 && now < before;
          },
          { timeout: 30_000 },
        )
        .toBe(true);
    };
    // Scrolling as a person does (the wheel), so the transcript stops following its end.
    const scrollUp = async () => {
      await panel.page.getByTestId('transcript').hover();
      await panel.page.mouse.wheel(0, -1_000_000);
    };
    let shown = await settled();
    expect(shown).toBeGreaterThan(20_000);
    for (let page = 0; page < 3; page += 1) {
      await scrollUp();
      await pageLoaded(shown, scrollUp);
      shown = await settled();
    }
    await expect.poll(() => earliestCall(panel)).toBeLessThan(newest);
    expect(Math.max(...frames)).toBeLessThan(MEGABYTE);
    await panel.shot(`long-session-older-pages-${width}`);

    // The keyboard way: the button above the first row loads the next page too.
    shown = await settled();
    await older.focus();
    await panel.page.keyboard.press('Enter');
    await pageLoaded(shown);
  });
}
