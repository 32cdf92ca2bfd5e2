import { access, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempWorkspace } from './temp-workspace.ts';

describe('useTempWorkspace', () => {
  const temp = useTempWorkspace('aether-temp-helper-');
  let previous = '';

  it('gives a test a workspace, a session folder and a sessions root, all real and empty', async () => {
    for (const folder of [temp.workspace, temp.sessionDir, temp.sessionsRoot]) {
      expect(path.dirname(folder)).toBe(temp.root);
      expect(await readdir(folder)).toEqual([]);
    }
    await writeFile(path.join(temp.workspace, 'left-behind.txt'), 'x');
    previous = temp.root;
  });

  it('gives the next test fresh folders and removes those of the test before', async () => {
    expect(temp.root).not.toBe(previous);
    expect(await readdir(temp.workspace)).toEqual([]);
    await expect(access(previous)).rejects.toThrow(/ENOENT/);
  });
});
