import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { aether, LAUNCHER } from '../../test/aether-cli.ts';

// The `aether` launcher at the project's root starts the bin on the project's Node 24, from any
// folder, also through a link to it (as a person puts it on their PATH), with every argument as typed.

const made: string[] = [];
afterEach(async () => {
  for (const folder of made.splice(0)) await rm(folder, { recursive: true, force: true });
});

it('runs aether with the arguments as given, directly and through a chain of links', async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'aether-launcher-'));
  made.push(folder);
  const sessions = path.join(folder, 'no sessions here');
  const direct = await aether(['sessions', '--sessions', sessions], {}, LAUNCHER);
  expect(direct).toMatchObject({ code: 0, stderr: '' });
  expect(direct.stdout).toBe(`No sessions in ${sessions}.\n`);

  // A relative link to an absolute one, as `ln -s` into ~/.local/bin and then a second name make.
  await symlink(LAUNCHER, path.join(folder, 'first'));
  await symlink('first', path.join(folder, 'aether'));
  const linked = await aether(['sessions', '--sessions', sessions], {}, path.join(folder, 'aether'));
  expect(linked).toMatchObject({ code: 0, stderr: '', stdout: direct.stdout });
});
