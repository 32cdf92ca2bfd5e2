// Copying text for the person: the clipboard API where the page may use it, else a selection
// copied inside the click that asked for it.

/** Puts text on the clipboard: the clipboard API, else a selection copied inside the same click. */
export async function copyText(text: string, clipboard?: Pick<Clipboard, 'writeText'>): Promise<boolean> {
  const target = clipboard ?? globalThis.navigator?.clipboard;
  try {
    if (!target) throw new Error('no clipboard');
    await target.writeText(text);
    return true;
  } catch {
    return copyWithSelection(text);
  }
}

/**
 * The clipboard API can be refused (a shell that denies every permission, an insecure origin);
 * copying a selection inside the click that asked for it still works there.
 */
function copyWithSelection(text: string): boolean {
  if (typeof document === 'undefined') return false;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'offscreen';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
