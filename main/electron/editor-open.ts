import type { BrowserWindow } from 'electron';
import type { Result } from '../../protocol/api.ts';
import { confirmInDialog } from './confirm-dialog.ts';
import { runEditorCommand } from './editor-command.ts';

// The editor command is set from the panel page; before the app first runs a command it has not run
// in this process, the person confirms it in a native dialog the page cannot draw or answer. A page
// that was made to change the setting therefore cannot start a program on its own.

export function editorOpener(window: () => BrowserWindow | null) {
  const confirmed = new Set<string>();
  return async (template: string, file: string, line: number): Promise<Result<void>> => {
    if (!confirmed.has(template)) {
      const allowed = await confirmInDialog(window(), {
        action: 'Run this command',
        message: 'Open files with this command?',
        detail: `${template}\n\nIt runs without a shell, with {path} and {line} put in. It is asked once per command each time the app starts.`,
      });
      if (!allowed) return { ok: false, error: 'The editor command was not run; the file was not opened.' };
      confirmed.add(template);
    }
    return runEditorCommand(template, file, line);
  };
}
