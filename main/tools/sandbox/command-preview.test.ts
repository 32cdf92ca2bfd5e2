import { execFileSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_RULES, type PreviewProgress } from '../../../protocol/sandbox.ts';
import { makeSandboxScene, removeSandboxScene, type SandboxScene } from '../../../test/sandbox-setup.ts';
import { previewCommand } from './command-preview.ts';

// A command's preview with the real bwrap: exactly the files it would change, the workspace
// untouched until Keep, and then the same bytes a real run leaves.

let scene: SandboxScene;
beforeEach(async () => {
  scene = await makeSandboxScene();
  await writeFile(path.join(scene.workspace, 'kept.txt'), 'stays\n');
  await writeFile(path.join(scene.workspace, 'log.txt'), 'first line\n');
  await writeFile(path.join(scene.workspace, 'old.txt'), 'to be removed\n');
});
afterEach(async () => {
  await removeSandboxScene(scene);
});

const COMMAND =
  "mkdir -p out && printf 'made\\n' > out/new.txt && echo 'second line' >> log.txt && rm old.txt && echo done";

/** Every file under `root` with its bytes, by path. */
async function tree(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    files[path.relative(root, absolute)] = (await readFile(absolute)).toString('base64');
  }
  return files;
}

const preview = () =>
  previewCommand({
    command: COMMAND,
    workspace: scene.workspace,
    cwd: scene.workspace,
    rules: DEFAULT_SANDBOX_RULES,
    shell: '/bin/sh',
  });

describe('a command preview', () => {
  it('shows exactly the two files written and the one deleted, and changes nothing until Keep', async () => {
    const untouched = await tree(scene.workspace);
    const shown = await preview();
    try {
      expect(shown.end.exitCode).toBe(0);
      expect(shown.output).toBe('done\n');
      expect(shown.files.map((file) => [file.path, file.status, file.added, file.removed])).toEqual([
        ['log.txt', 'modified', 1, 0],
        ['old.txt', 'deleted', 0, 1],
        ['out/new.txt', 'added', 1, 0],
      ]);
      expect(shown.files[0]?.diff).toContain('+second line');
      expect(shown.caveat).toBeNull();
      expect(await tree(scene.workspace)).toEqual(untouched);

      // A real run, in a copy of the workspace as it was, is what Keep must leave.
      const real = path.join(scene.root, 'real');
      await cp(scene.workspace, real, { recursive: true });
      execFileSync('/bin/sh', ['-c', COMMAND], { cwd: real });
      expect(await shown.keep()).toEqual(['log.txt', 'old.txt', 'out/new.txt']);
      expect(await tree(scene.workspace)).toEqual(await tree(real));
    } finally {
      await shown.discard();
    }
  });

  it('refuses to keep a preview once one of its files changed meanwhile, and applies nothing', async () => {
    const shown = await preview();
    try {
      await writeFile(path.join(scene.workspace, 'log.txt'), 'edited by the person meanwhile\n');
      await expect(shown.keep()).rejects.toThrow(
        'The workspace changed since the preview (log.txt): nothing was applied.',
      );
      expect(await readFile(path.join(scene.workspace, 'old.txt'), 'utf8')).toBe('to be removed\n');
      expect(await readFile(path.join(scene.workspace, 'log.txt'), 'utf8')).toBe('edited by the person meanwhile\n');
    } finally {
      await shown.discard();
    }
  });

  it('says when the preview is not meaningful: the command needed the network', async () => {
    const shown = await previewCommand({
      command:
        "node -e \"require('http').get('http://registry.example/x').on('error', (e) => { console.error(e.code); process.exit(1) })\"",
      workspace: scene.workspace,
      cwd: scene.workspace,
      rules: { ...DEFAULT_SANDBOX_RULES, network: ['registry.example'] },
    });
    try {
      expect(shown.caveat).toContain('it needed the network, and the sandbox has none');
      expect(shown.caveat).toContain('A real run may do more than this preview shows.');
    } finally {
      await shown.discard();
    }
  });

  it('says how far it is as it lists, copies, runs and compares, and keeps times, links and pipes as they are', async () => {
    await mkdir(path.join(scene.workspace, 'src', 'deep'), { recursive: true });
    for (let index = 0; index < 40; index += 1)
      await writeFile(path.join(scene.workspace, 'src', 'deep', `f${index}.txt`), `${index}\n`);
    await symlink('kept.txt', path.join(scene.workspace, 'link-to-kept'));
    // A named pipe: a copy that opened it would wait for a writer for ever.
    execFileSync('mkfifo', [path.join(scene.workspace, 'pipe')]);
    const seen: PreviewProgress[] = [];
    const shown = await previewCommand({
      command: 'stat -c %Y kept.txt; readlink link-to-kept; echo made > made.txt',
      workspace: scene.workspace,
      cwd: scene.workspace,
      rules: DEFAULT_SANDBOX_RULES,
      shell: '/bin/sh',
      progress: (update) => seen.push(update),
    });
    try {
      const phases = seen.map((update) => update.phase).filter((phase, index, all) => phase !== all[index - 1]);
      expect(phases).toEqual(['listing', 'copying', 'running', 'comparing']);
      const copying = seen.filter((update) => update.phase === 'copying');
      // 3 files, the link, the pipe, src, src/deep and its 40 files.
      expect(copying.every((update) => update.total === 47 && update.done <= update.total)).toBe(true);
      const mtime = Math.floor((await stat(path.join(scene.workspace, 'kept.txt'))).mtimeMs / 1000);
      expect(shown.output).toBe(`${mtime}\nkept.txt\n`);
      expect(shown.files.map((file) => [file.path, file.status])).toEqual([['made.txt', 'added']]);
    } finally {
      await shown.discard();
    }
  });
});
