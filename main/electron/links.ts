import { shell, type BrowserWindow } from 'electron';
import type { Result } from '../../protocol/api.ts';
import { outsideLinkRefusal } from '../../protocol/links.ts';
import { confirmInDialog } from './confirm-dialog.ts';

// Links leave the panel only one way: an https: URL (or http: to this machine, a dev server),
// shown to the person, opened in their browser after they confirm (protocol/links.ts).

export async function confirmAndOpenExternal(url: string, parent?: BrowserWindow): Promise<Result<void>> {
  const refusal = outsideLinkRefusal(url);
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

/**
 * A remote MCP server's authorization page, opened in the person's browser when they pressed Sign
 * in on the MCP servers screen (that press is their confirmation); only https: and loopback http:.
 */
export async function openSignInPage(url: URL): Promise<void> {
  const refusal = outsideLinkRefusal(url.href);
  if (refusal) throw new Error(`The authorization page was not opened: ${refusal}`);
  await shell.openExternal(url.href);
}
