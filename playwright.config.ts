import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { findChromium } from './test/system-programs.ts';

const chromium = findChromium(process.env);

// Chromium prepares each new window's address-bar popup (a page of its own UI, drawn by a renderer
// of its own) as the window opens: most of the CPU a spec's new browser context cost. Headless
// windows never show it. Chromium reads only the last --disable-features, so chromium-launch.sh
// merges this list into Playwright's own.
// (Windows has no sh to run it: Chromium starts as it is there.)
const UNUSED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];
const browser: { executablePath?: string; args: string[] } = !('path' in chromium)
  ? { args: [] } // None found: Playwright's own error says how to install its browser.
  : process.platform === 'win32'
    ? { executablePath: chromium.path, args: [] }
    : {
        executablePath: path.join(import.meta.dirname, 'e2e', 'chromium-launch.sh'),
        args: [`--aether-chromium=${chromium.path}`, `--disable-features=${UNUSED_FEATURES.join(',')}`],
      };

// End-to-end specs: the real renderer in Debian's Chromium against the web host (`npm run e2e`),
// or the same specs in the Electron app where its binary exists (`npm run e2e:electron`).
// Chromium is the one test/system-programs.ts finds: AETHER_CHROMIUM, a Chromium or Chrome on the
// PATH (Debian's /usr/bin/chromium), or the build `npx playwright install chromium` downloads.

export default defineConfig({
  testDir: './e2e',
  outputDir: './e2e/output/results',
  // One panel per core: each spec's host and page mostly wait on each other, so two run side by
  // side in about half the time (a third made the suite slower, not faster); specs that watch
  // something live give it seconds, not a frame.
  workers: 2,
  // Tests, not files, are handed out: a file of several slow tests no longer runs alone at the end
  // while the other worker waits. Each test starts its own panel, so none depends on another.
  fullyParallel: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: true,
  reporter: [['list'], ['html', { outputFolder: './e2e/output/report', open: 'never' }]],
  use: {
    browserName: 'chromium',
    launchOptions: {
      ...(browser.executablePath ? { executablePath: browser.executablePath } : {}),
      args: [
        ...browser.args,
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
    // A failed spec keeps a screenshot of its end and its trace (each action's DOM, the network, the
    // console); a passing spec's are dropped. The trace films no screencast: encoding its frames cost
    // about a sixth of the suite's CPU, and the specs' own screenshots show the screens.
    screenshot: 'only-on-failure',
    trace: { mode: 'retain-on-failure', screenshots: false },
    video: 'off',
  },
});
