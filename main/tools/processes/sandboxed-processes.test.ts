import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_RULES } from '../../../protocol/sandbox.ts';
import { makeSandboxScene, removeSandboxScene, type SandboxScene } from '../../../test/sandbox-setup.ts';
import { launchSandbox } from '../sandbox/sandbox-launch.ts';
import { probeSandboxSupport } from '../sandbox/sandbox-support.ts';
import { ProcessTable } from './process-table.ts';

// A background process and a terminal start through exec's launch, so a sandbox that wraps exec's
// commands wraps them too: with the real bwrap, a write outside the workspace is refused to both.

let scene: SandboxScene;
const tables: ProcessTable[] = [];
beforeEach(async () => {
  scene = await makeSandboxScene();
});
afterEach(async () => {
  for (const table of tables.splice(0)) await table.close();
  await removeSandboxScene(scene);
});

async function startSandboxed(command: string, tty: boolean) {
  const support = probeSandboxSupport();
  if (!support.available) throw new Error(`bwrap is needed for this test: ${support.reason} ${support.fix}`);
  const launch = await launchSandbox({
    rules: DEFAULT_SANDBOX_RULES,
    place: { workspace: scene.workspace, cwd: scene.workspace, home: scene.home },
    support,
  });
  const table = new ProcessTable({ killGraceMs: 300 });
  tables.push(table);
  const process = await table.start({
    callId: 'c1',
    sessionDir: path.join(scene.workspace, '..', 'session'),
    tty,
    request: {
      shell: '/bin/sh',
      command,
      cwd: scene.workspace,
      env: { PATH: globalThis.process.env['PATH'] ?? '/usr/bin:/bin', HOME: scene.home, LANG: 'C' },
      wrapper: launch,
    },
  });
  process.onEnded(() => void launch.close());
  return process;
}

describe('background processes in the sandbox', () => {
  for (const tty of [false, true]) {
    it(`refuses a write outside the workspace to a ${tty ? 'terminal' : 'background process'}, and writes inside it`, async () => {
      const process = await startSandboxed(
        'echo pwned > ../outside/written.txt; echo made > inside.txt; echo finished; sleep 30',
        tty,
      );
      const end = await process.waitFor(/^finished$/, 0, 30_000, new AbortController().signal);
      expect(end.kind).toBe('matched');
      expect(existsSync(path.join(scene.outside, 'written.txt'))).toBe(false);
      expect(existsSync(path.join(scene.workspace, 'inside.txt'))).toBe(true);
      expect(process.output.read(0, 10_000).text).toMatch(/Read-only file system|Permission denied/);
    });
  }
});
