import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { servePanel } from '../host/web/serve.ts';
import { main } from './aether.ts';

// The command line of `aether serve`: mistakes are usage errors (exit 2) that say what to pass.
// Serving itself is driven end to end by the Playwright specs.

let stderr: string;
let base: string;

beforeEach(async () => {
  stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-serve-'));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(base, { recursive: true, force: true });
});

describe('aether serve', () => {
  it('needs a workspace', async () => {
    expect(await main(['serve'])).toBe(2);
    expect(stderr).toContain('--workspace DIR');
  });

  it('refuses a port that is not a port', async () => {
    expect(await main(['serve', '--workspace', base, '--port', '70000'])).toBe(2);
    expect(stderr).toContain('--port takes a number from 0 to 65535');
  });

  it('refuses an allowed origin that is not an origin', async () => {
    expect(await main(['serve', '--workspace', base, '--allow-origin', 'http://localhost:5173/path'])).toBe(2);
    expect(stderr).toContain('--allow-origin takes an origin');
  });

  it('refuses a workspace that does not exist', async () => {
    expect(await main(['serve', '--workspace', path.join(base, 'missing')])).toBe(2);
  });

  it('says how to build the panel when it is not built', async () => {
    await expect(
      servePanel({ workspace: base, rendererDir: path.join(base, 'no-renderer'), env: { AETHERCODEX_HOME: base } }),
    ).rejects.toThrow('Run `npm run build` first.');
  });
});
