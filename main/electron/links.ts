import { shell, type BrowserWindow } from 'electron';
import type { Result } from '../../protocol/api.ts';
import { confirmInDialog } from './confirm-dialog.ts';

// Links leave the panel only one way: an https: URL, shown to the person, opened in their browser
// after they confirm. Nothing else (file:, javascript:, custom schemes) is ever handed to the OS.

function externalLinkRefusal(url: string): string | null {
  if (!URL.canParse(url)) return `Not a link: ${url.slice(0, 200)}`;
  if (new URL(url).protocol !== 'https:')
    return `Only https: links open outside the panel; ${url.slice(0, 200)} was not opened.`;
  return null;
}

export async function confirmAndOpenExternal(url: string, parent?: BrowserWindow): Promise<Result<void>> {
  const refusal = externalLinkRefusal(url);
  if (refusal) return { ok: false, error: refusal };
  const confirmed = await confirmInDialog(parent, {
    action: 'Open in browser',
    message: 'Open this link in your browser?',
    detail: url,
  });
  if (!confirmed) return { ok: false, error: 'The link was not opened.' };
  try {
    await shell.openExternal(url);
    return { ok: true, value: undefined };
  } catch (error) {
    return { ok: false, error: `Could not open ${url}: ${(error as Error).message}` };
  }
}
