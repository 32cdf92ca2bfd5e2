import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appResponse, handleAppProtocol, PANEL_URL, registerAppScheme } from './app-protocol.ts';
import { protocol, resetFakeElectron } from '../../test/fake-electron.ts';

vi.mock('electron', () => import('../../test/fake-electron.ts'));

let base: string;
let renderer: string;

beforeEach(async () => {
  resetFakeElectron();
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-app-'));
  renderer = path.join(base, 'renderer');
  await mkdir(path.join(renderer, 'assets'), { recursive: true });
  await writeFile(path.join(renderer, 'index.html'), '<!doctype html><title>panel</title>');
  await writeFile(path.join(renderer, 'assets', 'index.js'), 'export {};');
  await writeFile(path.join(base, 'secret.txt'), 'secret');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const get = (url: string) => appResponse({ url, method: 'GET' }, renderer);

describe('app:// protocol', () => {
  it('registers app: as a standard, secure scheme', () => {
    registerAppScheme();
    expect(protocol.privileged).toEqual([
      { scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) },
    ]);
  });

  it('handles app: with the renderer folder', async () => {
    handleAppProtocol(renderer);
    const handler = protocol.handlers.get('app') as (request: { url: string; method: string }) => Promise<Response>;
    expect((await handler({ url: PANEL_URL, method: 'GET' })).status).toBe(200);
  });

  it('serves the panel page with the strict CSP', async () => {
    const response = await get(PANEL_URL);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>panel</title>');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
  });

  it('serves assets with their content type', async () => {
    const response = await get('app://panel/assets/index.js');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('refuses paths that climb out of the renderer folder', async () => {
    for (const url of [
      'app://panel/..%2Fsecret.txt',
      'app://panel/%2e%2e/secret.txt',
      'app://panel/assets/..%2F..%2Fsecret.txt',
      'app://panel/..%5Csecret.txt',
    ]) {
      expect((await get(url)).status, url).toBe(404);
    }
  });

  it('refuses a symlink that leads out of the renderer folder', async () => {
    await symlink(path.join(base, 'secret.txt'), path.join(renderer, 'leak.txt'));
    expect((await get('app://panel/leak.txt')).status).toBe(404);
  });

  it('answers a folder of the renderer with 404', async () => {
    expect((await get('app://panel/assets')).status).toBe(404);
  });

  it('refuses other hosts and methods', async () => {
    expect((await get('app://other/index.html')).status).toBe(404);
    expect((await appResponse({ url: PANEL_URL, method: 'POST' }, renderer)).status).toBe(405);
  });
});
