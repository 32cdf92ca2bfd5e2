import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from './bundle.ts';
import { gatherBundles, review, scan } from './electronegativity.ts';
import type { Finding } from './electronegativity.ts';
import { acceptedFindings } from './electronegativity-accepted.ts';

const repoRoot = resolve(import.meta.dirname, '..');
const ELECTRON = '45.5.0';

const INSECURE_MAIN = `import { BrowserWindow } from 'electron';
const window = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });
window.loadURL('https://example.test/');
`;

let work = '';
let insecure: Finding[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'aether-electronegativity-test-'));
  await mkdir(join(work, 'insecure', 'main'), { recursive: true });
  await writeFile(join(work, 'insecure', 'main', 'index.js'), INSECURE_MAIN);
  insecure = (await scan(join(work, 'insecure'), ELECTRON)).findings;
}, 60_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('electronegativity review', () => {
  it('blocks an insecure window as an unexplained HIGH finding', () => {
    const blocking = review(insecure, []).blocking;
    expect(blocking).toContainEqual(
      expect.objectContaining({
        check: 'CONTEXT_ISOLATION_JS_CHECK',
        severity: 'HIGH',
        file: 'main/index.js',
        line: 2,
      }),
    );
  });

  it('lets an acceptance clear exactly the finding whose check, file and source line it names', () => {
    const acceptance = {
      check: 'CONTEXT_ISOLATION_JS_CHECK',
      file: 'main/index.js',
      sample: 'contextIsolation: false',
      reason: 'test',
    };
    const outcome = review(insecure, [acceptance]);
    expect(outcome.accepted.map(({ finding }) => finding.check)).toEqual(['CONTEXT_ISOLATION_JS_CHECK']);
    expect(outcome.blocking.map((finding) => finding.check)).toContain('SANDBOX_JS_CHECK');
    expect(outcome.stale).toEqual([]);
  });

  it('reports an acceptance that matches no finding as stale', () => {
    const acceptance = {
      check: 'CONTEXT_ISOLATION_JS_CHECK',
      file: 'main/index.js',
      sample: 'a line that is not there',
      reason: 'test',
    };
    expect(review(insecure, [acceptance]).stale).toEqual([acceptance]);
  });

  it('asks for a build when a bundle folder is empty', async () => {
    await expect(gatherBundles(join(work, 'insecure'), join(work, 'gathered'))).rejects.toThrow(
      /No bundle in .*preload: run `npm run build` first/,
    );
  });
});

describe('the built main process and preload', () => {
  it('have no unexplained HIGH or MEDIUM finding and no stale acceptance', async () => {
    const out = join(work, 'out');
    await bundle({ root: repoRoot, outDir: out });
    const gathered = join(work, 'built');
    await gatherBundles(out, gathered);
    const { findings, errors } = await scan(gathered, ELECTRON);
    const outcome = review(findings, acceptedFindings);
    expect(errors).toEqual([]);
    expect(outcome.blocking).toEqual([]);
    expect(outcome.stale).toEqual([]);
  }, 60_000);

  it('have every accepted finding explained in the security document', async () => {
    const security = await readFile(join(repoRoot, 'docs', 'security.md'), 'utf8');
    const at = security.indexOf('\n## electronegativity');
    expect(at, 'docs/security.md has an "## electronegativity" section').toBeGreaterThan(-1);
    for (const acceptance of acceptedFindings) expect(security.slice(at), acceptance.check).toContain(acceptance.check);
  });
});
