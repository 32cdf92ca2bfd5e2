import type { WebSocketRoute } from '@playwright/test';
import { expect, test, type Panel } from './panel-fixture.ts';

// A message sent while the panel host is out of reach is kept: the panel says "not sent —
// reconnecting", sends it once the connection is back, or gives it back to the message box when
// the person cancels. Approval buttons wait for the connection too.
// The socket is dropped and refused from the page's side (Playwright routes it), so the host and
// its session live on as they would through a network blip.

// Web host only: the desktop app talks over IPC, not a socket.
const widths = process.env['AETHER_E2E_TARGET'] === 'electron' ? [] : [1280, 420];

/** Routes the page's socket through a switch: `drop()` closes it and refuses reconnects until `restore()`. */
async function socketSwitch(panel: Panel) {
  let online = true;
  const open = new Set<WebSocketRoute>();
  await panel.page.routeWebSocket(/\/api/, (ws) => {
    if (!online) {
      void ws.close({ code: 1011, reason: 'offline for the test' });
      return;
    }
    ws.connectToServer();
    open.add(ws);
  });
  await panel.page.reload();
  await expect(panel.page.getByTestId('composer-input')).toBeVisible();
  return {
    drop: async () => {
      online = false;
      for (const ws of open) await ws.close({ code: 1011, reason: 'offline for the test' });
      open.clear();
      await expect(panel.page.getByTestId('connection-banner')).toBeVisible();
    },
    restore: () => {
      online = true;
    },
  };
}

for (const width of widths) {
  test(`a message sent while disconnected waits, then goes when the connection is back (${width} px)`, async ({
    panel,
  }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    const socket = await socketSwitch(panel);
    panel.script({ steps: [{ text: ['Got it after the reconnect.'] }] });
    await socket.drop();

    const input = page.getByTestId('composer-input');
    await input.fill('Sent while offline');
    await input.press('Control+Enter');
    await expect(page.getByTestId('outbox')).toContainText('Not sent — reconnecting');
    await expect(page.getByTestId('outbox')).toContainText('Sent while offline');
    await expect(input).toHaveValue('');
    await panel.shot(`outbox-waiting-${width}`);

    // Cancel gives it back; sending again queues it again.
    await page.getByTestId('outbox-cancel').click();
    await expect(page.getByTestId('outbox')).toHaveCount(0);
    await expect(input).toHaveValue('Sent while offline');
    await input.press('Control+Enter');
    await expect(page.getByTestId('outbox')).toBeVisible();

    socket.restore();
    await expect(page.getByTestId('connection-banner')).toHaveCount(0, { timeout: 20_000 });
    await expect(page.getByTestId('outbox')).toHaveCount(0);
    await expect(page.getByTestId('message-user')).toHaveCount(1);
    await expect(page.getByTestId('message-user')).toContainText('Sent while offline');
    await expect(page.getByTestId('message-assistant').last()).toContainText('Got it after the reconnect.');
  });

  test(`approval buttons wait while disconnected (${width} px)`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    const socket = await socketSwitch(panel);
    panel.script({
      steps: [
        { tool_calls: [{ id: 'call_touch', name: 'exec', args: { command: 'touch made.txt' } }] },
        { text: ['Made it.'] },
      ],
    });
    await panel.send('Make a file');
    const approval = page.getByTestId('approval');
    await expect(approval).toBeVisible();
    await socket.drop();
    await expect(approval.getByTestId('approve-once')).toBeDisabled();
    await expect(approval.getByTestId('approve-deny')).toBeDisabled();
    await expect(approval.getByTestId('approval-offline')).toBeVisible();
    await approval.focus();
    await page.keyboard.press('1');
    await expect(approval.getByTestId('approve-once')).toBeDisabled();

    socket.restore();
    await expect(page.getByTestId('connection-banner')).toHaveCount(0, { timeout: 20_000 });
    await page.getByTestId('approval').getByTestId('approve-once').click();
    await expect(page.getByTestId('message-assistant').last()).toContainText('Made it.');
    expect(await panel.read('made.txt')).toBe('');
  });
}
