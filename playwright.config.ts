import { defineConfig } from '@playwright/test';

// End-to-end specs: the real renderer in Debian's Chromium against the web host (`npm run e2e`),
// or the same specs in the Electron app where its binary exists (`npm run e2e:electron`).
// Browsers are never downloaded: Chromium comes from apt (/usr/bin/chromium).

export default defineConfig({
  testDir: './e2e',
  outputDir: './e2e/output/results',
  // Two cores are shared by the whole machine: one panel at a time.
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: true,
  reporter: [['list'], ['html', { outputFolder: './e2e/output/report', open: 'never' }]],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env['AETHER_CHROMIUM'] ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    viewport: { width: 1200, height: 860 },
    screenshot: 'on',
    trace: 'on',
    video: 'off',
  },
});
