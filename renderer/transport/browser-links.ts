import type { Result } from '../../protocol/api.ts';
import { outsideLinkRefusal } from '../../protocol/links.ts';

// Links from a panel opened in a browser. The web host cannot open anything on the person's
// screen, so the page opens the link itself, the way the desktop app does: only https: (and http:
// to this machine), shown to the person first, in a new tab that gets no handle back to the panel.

/** The two browser calls this needs; `window` in the page. */
export interface LinkPage {
  confirm(message: string): boolean;
  open(url: string, target: string, features: string): unknown;
}

export function openLinkInBrowser(url: string, page: LinkPage | null): Result<void> {
  const refusal = outsideLinkRefusal(url);
  if (refusal) return { ok: false, error: refusal };
  if (!page) return { ok: false, error: `This window cannot open links; open it yourself: ${url}` };
  if (!page.confirm(`Open this link in a new tab?\n\n${url}`)) return { ok: false, error: 'The link was not opened.' };
  page.open(url, '_blank', 'noopener,noreferrer');
  return { ok: true, value: undefined };
}
