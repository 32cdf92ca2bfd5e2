import { expect, test } from './panel-fixture.ts';

// The page's token opens the panel API, so it must never reach the console: Chromium prints the URL
// of every web socket that fails to connect, once per reconnect attempt while the host is away.

// Web host only: the desktop app talks over IPC, not a socket.
const widths = process.env['AETHER_E2E_TARGET'] === 'electron' ? [] : [1280, 420];

for (const width of widths) {
  test(`the console never shows the page’s token when the socket fails (${width} px)`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    const token = new URL(page.url()).searchParams.get('token') ?? '';
    expect(token).toMatch(/^[\w-]{20,}$/);
    const logged: string[] = [];
    page.on('console', (message) => logged.push(message.text()));
    await panel.stopHost();
    await expect(page.getByTestId('connection-banner')).toBeVisible();
    // Reconnect attempts against the stopped host fail, and Chromium logs each one with its URL.
    await expect
      .poll(() => logged.filter((text) => text.includes('WebSocket connection to')).length)
      .toBeGreaterThan(1);
    const failures = logged.filter((text) => text.includes('WebSocket connection to'));
    expect(failures[0]).toContain(`${new URL(page.url()).host}/api`);
    expect(logged.join('\n')).not.toContain(token);
    await panel.shot(`socket-down-${width}`);
  });
}
