import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempWorkspace } from '../../test/temp-workspace.ts';
import { existingFiles, readWorkspaceFile } from '../agent/file-reads.ts';
import { fileHandlers, type OpenInEditor } from './file-viewer.ts';
import { SettingsStore } from './settings-store.ts';

// The panel's own reads of workspace files (file links, a diff's folded lines): a page as it is
// now, confined like read_file, never out through ../ or a link, and a file link that opens in the
// editor only when a host can and the person chose it.

const dirs = useTempWorkspace('aether-file-viewer-');

async function workspaceWithSecret(): Promise<string> {
  const lines = Array.from({ length: 50 }, (_unused, index) => `line ${index + 1}`).join('\n');
  await mkdir(path.join(dirs.workspace, 'src'));
  await writeFile(path.join(dirs.workspace, 'src', 'app.ts'), `${lines}\n`);
  await writeFile(path.join(dirs.root, 'secret.txt'), 'TOP-SECRET\n');
  await symlink(path.join(dirs.root, 'secret.txt'), path.join(dirs.workspace, 'out-link.txt'));
  await symlink(dirs.root, path.join(dirs.workspace, 'out-dir'));
  return dirs.workspace;
}

describe('readWorkspaceFile', () => {
  it('reads a page of a workspace file from a line', async () => {
    const workspace = await workspaceWithSecret();
    const page = await readWorkspaceFile(workspace, { path: 'src/app.ts', offset: 10, limit: 3 });
    expect(page).toMatchObject({
      path: 'src/app.ts',
      range: { start: 10, end: 12 },
      total_lines: 50,
      content: 'line 10\nline 11\nline 12\n',
      truncated: true,
    });
    expect(page.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    '../secret.txt',
    'src/../../secret.txt',
    'out-link.txt',
    'out-dir/secret.txt',
    path.join('/', 'etc', 'hostname'),
  ])('refuses %s, which leads out of the workspace', async (requested) => {
    const workspace = await workspaceWithSecret();
    await expect(readWorkspaceFile(workspace, { path: requested })).rejects.toThrow(/outside the workspace/);
  });

  it('says so when the file does not exist or is a folder', async () => {
    const workspace = await workspaceWithSecret();
    await expect(readWorkspaceFile(workspace, { path: 'src/missing.ts' })).rejects.toThrow(/does not exist/);
    await expect(readWorkspaceFile(workspace, { path: 'src' })).rejects.toThrow(/is a folder/);
  });

  it('writes nothing into the workspace or next to it', async () => {
    const workspace = await workspaceWithSecret();
    const before = [await readdir(workspace), await readdir(dirs.sessionDir)];
    await readWorkspaceFile(workspace, { path: 'src/app.ts' });
    expect([await readdir(workspace), await readdir(dirs.sessionDir)]).toEqual(before);
  });
});

describe('existingFiles', () => {
  it('keeps only the paths that are files inside the workspace', async () => {
    const workspace = await workspaceWithSecret();
    const asked = [
      'src/app.ts',
      './src/app.ts',
      'src',
      'src/missing.ts',
      'out-link.txt',
      '../secret.txt',
      'out-dir/secret.txt',
    ];
    expect(await existingFiles(workspace, asked)).toEqual(['src/app.ts', './src/app.ts']);
  });
});

describe('file:open', () => {
  async function handlersWith(settings: Record<string, unknown>, openInEditor?: OpenInEditor) {
    const workspace = await workspaceWithSecret();
    const store = new SettingsStore(dirs.root);
    await store.update(settings);
    return fileHandlers({ workspace: () => workspace, settings: store, ...(openInEditor ? { openInEditor } : {}) });
  }

  it('opens in the panel on a host without an editor, whatever the settings say', async () => {
    const handlers = await handlersWith({ open_files_in: 'editor', editor_command: 'code -g {path}:{line}' });
    expect(await handlers['file:open']({ path: 'src/app.ts', line: 3 })).toEqual({ ok: true, value: 'viewer' });
  });

  it('runs the editor command with the real path and line when the person chose the editor', async () => {
    const calls: unknown[] = [];
    const handlers = await handlersWith(
      { open_files_in: 'editor', editor_command: 'code -g {path}:{line}' },
      async (...args) => {
        calls.push(args);
        return { ok: true, value: undefined };
      },
    );
    expect(await handlers['file:open']({ path: 'src/app.ts', line: 3 })).toEqual({ ok: true, value: 'editor' });
    expect(calls).toEqual([['code -g {path}:{line}', path.join(dirs.workspace, 'src', 'app.ts'), 3]]);
  });

  it('refuses a path out of the workspace before any command runs', async () => {
    const calls: unknown[] = [];
    const handlers = await handlersWith({ open_files_in: 'editor', editor_command: 'code' }, async (...args) => {
      calls.push(args);
      return { ok: true, value: undefined };
    });
    const opened = await handlers['file:open']({ path: 'out-link.txt' });
    expect(opened.ok).toBe(false);
    expect(calls).toEqual([]);
  });

  it('says what to do when the editor is chosen but no command is set', async () => {
    const handlers = await handlersWith({ open_files_in: 'editor' }, async () => ({ ok: true, value: undefined }));
    const opened = await handlers['file:open']({ path: 'src/app.ts' });
    expect(opened).toMatchObject({ ok: false, error: expect.stringMatching(/no editor command is set/) });
  });
});
