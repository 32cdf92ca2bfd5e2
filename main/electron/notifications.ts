import { Notification, type BrowserWindow } from 'electron';
import type { Result, SystemNotice } from '../../protocol/api.ts';

// System notifications for the panel (the page itself is granted no permission, window.ts): a
// question that waits stays until it is clicked or answered, a turn's end is an ordinary one.
// Clicking one brings the window forward; the panel then shows the card.

/** Shown and not yet clicked or closed, by tag: kept so they are not collected, and one per tag. */
const shown = new Map<string, Notification>();

export function showSystemNotice(
  notice: SystemNotice,
  window: () => BrowserWindow | null,
  clicked: () => void,
): Result<void> {
  if (!Notification.isSupported())
    return { ok: false, error: 'This system shows no notifications; the panel shows its own signs only.' };
  shown.get(notice.tag)?.close();
  const note = new Notification({
    title: notice.title,
    body: notice.body,
    urgency: notice.urgent ? 'critical' : 'normal',
    timeoutType: notice.urgent ? 'never' : 'default',
  });
  note.on('click', () => {
    const target = window();
    if (target && !target.isDestroyed()) {
      if (target.isMinimized()) target.restore();
      target.show();
      target.focus();
    }
    clicked();
  });
  note.on('close', () => {
    if (shown.get(notice.tag) === note) shown.delete(notice.tag);
  });
  shown.set(notice.tag, note);
  note.show();
  return { ok: true, value: undefined };
}
