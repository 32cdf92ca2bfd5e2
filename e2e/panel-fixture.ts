import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  _electron,
  test as base,
  expect,
  type Browser,
  type BrowserContext,
  type ElectronApplication,
  type Page,
} from '@playwright/test';
import type { FixtureScriptInput } from '../main/model/fixture-script.ts';
import { startFixtureServer, type FixtureServer } from '../main/model/fixture-server.ts';
import { aetherEnv, aetherNodeArgs } from '../test/aether-cli.ts';

// One fixture starts the panel for a spec: a temp workspace, the fixture model server playing the
// spec's script over the real OpenAI-compatible wire, and either
//   - the web host (`aether serve`, a child process) opened in Debian's Chromium (default), or
//   - the Electron app (out/main/index.js) through Playwright's _electron (AETHER_E2E_TARGET=electron).
// Settings, keys and sessions go to temp folders, so no spec sees another's or the person's.

export const ROOT = path.resolve(import.meta.dirname, '..');
export const SCREENS = path.join(ROOT, 'e2e', 'output', 'screens');
const TARGET = process.env['AETHER_E2E_TARGET'] === 'electron' ? 'electron' : 'web';

export interface Panel {
  page: Page;
  /** The workspace root, real path. */
  workspace: string;
  model: FixtureServer;
  /** Sets what the model answers from the next request on. */
  script(input: FixtureScriptInput): void;
  write(relative: string, text: string): Promise<void>;
  read(relative: string): Promise<string>;
  /** Types a message in the composer and sends it with Ctrl+Enter. */
  send(text: string): Promise<void>;
  /** Saves a screenshot of the window as e2e/output/screens/<target>-<name>.png. */
  shot(name: string): Promise<void>;
  /** Ends the web host while the page stays open, as when `aether serve` is stopped (web target only). */
  stopHost(): Promise<void>;
}

interface Started {
  page: Page;
  stop(): Promise<void>;
  stopHost(): Promise<void>;
}

type Starter = (workspace: string, modelId: string, env: NodeJS.ProcessEnv) => Promise<Started>;

/** What a spec's app home holds before the panel starts: its settings.json, made from the model id. */
export type HomeSettings = { of(modelId: string): Record<string, unknown> } | null;

async function withPanel(
  start: Starter,
  use: (panel: Panel) => Promise<void>,
  homeSettings: HomeSettings = null,
): Promise<void> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'aether-e2e-'));
  const workspace = await realpath(await mkdtemp(path.join(base, 'workspace-')));
  const model = await startFixtureServer();
  const env = {
    ...process.env,
    AETHERCODEX_HOME: path.join(base, 'home'),
    AETHERCODEX_SESSIONS: path.join(base, 'sessions'),
    // No models.dev: the bundled catalog, the same on every run.
    AETHERCODEX_CATALOG_URL: 'off',
  };
  if (homeSettings) {
    await mkdir(env.AETHERCODEX_HOME, { recursive: true });
    const settings = homeSettings.of(`compat:${model.baseURL}#scripted`);
    await writeFile(path.join(env.AETHERCODEX_HOME, 'settings.json'), JSON.stringify(settings));
  }
  let started: Started | null = null;
  try {
    started = await start(workspace, `compat:${model.baseURL}#scripted`, env);
    const { page } = started;
    await expect(page.getByTestId('composer-input')).toBeVisible();
    await use({
      page,
      workspace,
      model,
      script: (input) => model.load(input),
      write: async (relative, text) => {
        await mkdir(path.dirname(path.join(workspace, relative)), { recursive: true });
        await writeFile(path.join(workspace, relative), text);
      },
      read: (relative) => readFile(path.join(workspace, relative), 'utf8'),
      send: async (text) => {
        const input = page.getByTestId('composer-input');
        await input.fill(text);
        await input.press('Control+Enter');
      },
      shot: async (name) => {
        await mkdir(SCREENS, { recursive: true });
        await page.screenshot({ path: path.join(SCREENS, `${TARGET}-${name}.png`) });
      },
      stopHost: () => started?.stopHost() ?? Promise.resolve(),
    });
  } finally {
    await started?.stop();
    await model.close();
    await rm(base, { recursive: true, force: true });
  }
}

// Playwright reads a fixture's dependencies from its parameter list: the web host needs the
// managed browser (so screenshots and traces are recorded), the Electron app needs none.
// `homeSettings` (test.use) writes the app home's settings.json before the panel starts.
export const test =
  TARGET === 'electron'
    ? base.extend<{ panel: Panel; homeSettings: HomeSettings }>({
        homeSettings: [null, { option: true }],
        panel: async ({ homeSettings }, use) => withPanel(startElectron, use, homeSettings),
      })
    : base.extend<{ panel: Panel; homeSettings: HomeSettings }>({
        homeSettings: [null, { option: true }],
        panel: async ({ browser, homeSettings }, use) =>
          withPanel((workspace, modelId, env) => startWebHost(workspace, modelId, env, browser), use, homeSettings),
      });

export { expect };

async function startWebHost(
  workspace: string,
  modelId: string,
  env: NodeJS.ProcessEnv,
  browser: Browser,
): Promise<Started> {
  const child = spawn(
    process.execPath,
    [...aetherNodeArgs('serve'), 'serve', '--workspace', workspace, '--model', modelId],
    { cwd: ROOT, env: { ...aetherEnv('serve'), ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let context: BrowserContext | null = null;
  const stop = async () => {
    await context?.close();
    await stopChild(child);
  };
  // Until the page is up, nobody else holds `stop`: a failed start must end the server itself.
  try {
    const url = await printedUrl(child);
    context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    return { page, stop, stopHost: () => stopChild(child) };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startElectron(workspace: string, modelId: string, env: NodeJS.ProcessEnv): Promise<Started> {
  const binary = path.join(ROOT, 'node_modules', 'electron', 'path.txt');
  if (
    !(await readFile(binary, 'utf8').then(
      () => true,
      () => false,
    ))
  ) {
    throw new Error(
      'No Electron binary is installed here (node_modules/electron/path.txt is missing), so `npm run e2e:electron` cannot run; `npm run e2e` runs the same specs against the web host.',
    );
  }
  const app: ElectronApplication = await _electron.launch({
    args: [path.join(ROOT, 'out', 'main', 'index.js'), '--workspace', workspace, '--model', modelId],
    env: env as Record<string, string>,
    cwd: ROOT,
  });
  try {
    const stopHost = () => Promise.reject(new Error('The desktop app has no host apart from its window to stop.'));
    return { page: await app.firstWindow(), stop: () => app.close(), stopHost };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** Waits for `aether serve` to print its URL; fails with what it printed instead. */
function printedUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`aether serve printed no URL within 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`aether serve exited with ${code}:\n${output}`));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(killer);
}
