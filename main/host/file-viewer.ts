import type { PanelHandlers, Result } from '../../protocol/api.ts';
import { existingFiles, readWorkspaceFile } from '../agent/file-reads.ts';
import { confinePath } from '../agent/workspace-files.ts';
import { attempt, ok } from './panel-results.ts';
import type { SettingsStore } from './settings-store.ts';

// The panel's requests about workspace files: a page of one for the file viewer, which of some
// paths are files (a link is drawn only for those), and opening one in the person's editor. The
// reads themselves are read_file's, run directly (main/agent/file-reads.ts).

/** How the desktop app opens a file in the person's editor: `template` with the file's real path and line. */
export type OpenInEditor = (template: string, realPath: string, line: number) => Promise<Result<void>>;

export interface FileAccess {
  /**
   * The workspace whose files the links of the session shown name, real path: this one's, or the
   * other workspace of a session shown read-only. Asked at each request.
   */
  workspace: () => string;
  settings: SettingsStore;
  /** Only the desktop app has one; without it every file opens in the panel. */
  openInEditor?: OpenInEditor;
}

export function fileHandlers(access: FileAccess): Pick<PanelHandlers, 'file:read' | 'file:exists' | 'file:open'> {
  const { workspace, settings, openInEditor } = access;
  return {
    'file:read': (request) => attempt(() => readWorkspaceFile(workspace(), request)),
    'file:exists': ({ paths }) => attempt(() => existingFiles(workspace(), paths)),
    'file:open': async ({ path, line }) => {
      if (!openInEditor) return ok('viewer');
      const read = await attempt(() => settings.get());
      if (!read.ok) return read;
      const stored = read.value;
      if (stored.open_files_in !== 'editor') return ok('viewer');
      if (!stored.editor_command)
        return {
          ok: false,
          error:
            'Files are set to open in your editor, but no editor command is set. Set one in Settings → Open files in (for example code -g {path}:{line}), or choose the panel viewer.',
        };
      const real = await attempt(() => confinePath(workspace(), path));
      if (!real.ok) return real;
      const opened = await openInEditor(stored.editor_command, real.value, line ?? 1);
      return opened.ok ? ok('editor') : opened;
    },
  };
}
