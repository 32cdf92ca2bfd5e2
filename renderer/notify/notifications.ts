import type { StatusEvent } from '../../protocol/events.ts';
import type { Unsubscribe } from '../../protocol/api.ts';
import type { PanelApi } from '../../protocol/panel-client.ts';
import type { PanelStore } from '../store/store.ts';
import { noticeFor, type PanelNotice } from './notify-events.ts';
import { revealRow } from '../transcript/reveal-row.ts';

// System notifications while the panel is not in front (another window, another tab): a question
// that waits and the end of a turn. They use the Notification API, which a browser shows as its
// own and Electron as the system's; permission is asked the first time the person sends a message
// (a gesture of theirs, as browsers want). Clicking one brings the panel forward and shows the card.

/** What the panel needs of the Notification API; tests and other hosts may pass their own. */
export interface NotificationHost {
  permission(): NotificationPermission | 'unsupported';
  requestPermission(): Promise<unknown>;
  show(notice: PanelNotice, onClick: () => void): void;
  /** Whether the person is looking at the panel now. */
  inFront(): boolean;
  focusWindow(): void;
}

export function browserNotificationHost(page: Window = window): NotificationHost {
  const api = (page as Window & { Notification?: typeof Notification }).Notification;
  return {
    permission: () => (api ? api.permission : 'unsupported'),
    requestPermission: () => (api ? api.requestPermission() : Promise.resolve('denied')),
    show: (notice, onClick) => {
      if (!api || api.permission !== 'granted') return;
      const shown = new api(notice.title, {
        body: notice.body,
        tag: notice.tag,
        // The question waits until answered; a finished turn may go away by itself.
        requireInteraction: notice.kind === 'approval',
      });
      shown.onclick = () => {
        onClick();
        shown.close();
      };
    },
    inFront: () => page.document.visibilityState === 'visible' && page.document.hasFocus(),
    focusWindow: () => page.focus(),
  };
}

/** Asks for permission once, from a gesture of the person's (their first send). */
export function askOnFirstUse(host: NotificationHost): void {
  if (host.permission() === 'default') void host.requestPermission().catch(() => undefined);
}

/** The live feed applies events a frame after they arrive; a notice reads the store after that. */
const AFTER_FEED_MS = 50;

/**
 * Notifies of the live events that call for it while the panel is not in front, and asks for the
 * permission on the person's first send. Returns the bridge with that send, and what stops it.
 */
export function withNotifications<B extends NotifyingBridge>(
  api: B,
  store: PanelStore,
  host: NotificationHost = inApp() ? appNotificationHost(api) : browserNotificationHost(),
): B {
  api.onStatus((event) => {
    if (host.inFront() || host.permission() !== 'granted') return;
    setTimeout(() => {
      const notice = noticeFor(event, store.getState().transcript);
      if (!notice) return;
      host.show(notice, () => {
        host.focusWindow();
        revealRow(store, notice.target);
      });
    }, AFTER_FEED_MS);
  });
  const send: B['send'] = (...args) => {
    askOnFirstUse(host);
    return api.send(...args);
  };
  return { ...api, send };
}

interface NotifyingBridge extends Pick<PanelApi, 'notify' | 'onNotificationClick'> {
  onStatus(callback: (event: StatusEvent) => void): Unsubscribe;
  send(...args: never[]): Promise<unknown>;
}

/** Inside the app the preload's API is there (transport/bridge.ts chooses it the same way). */
function inApp(): boolean {
  return typeof window !== 'undefined' && window.pythia !== undefined;
}

/**
 * Inside the app: the system's notifications through the panel API (main/electron shows them; the
 * page itself is granted no permission). A click comes back as `notify:clicked` with the window in front.
 */
export function appNotificationHost(api: Pick<PanelApi, 'notify' | 'onNotificationClick'>): NotificationHost {
  const clicks = new Map<string, () => void>();
  api.onNotificationClick(({ tag }) => {
    const onClick = clicks.get(tag);
    clicks.delete(tag);
    onClick?.();
  });
  return {
    permission: () => 'granted',
    requestPermission: async () => 'granted',
    show: (notice, onClick) => {
      clicks.set(notice.tag, onClick);
      void api.notify({ title: notice.title, body: notice.body, tag: notice.tag, urgent: notice.kind === 'approval' });
    },
    inFront: () => document.visibilityState === 'visible' && document.hasFocus(),
    focusWindow: () => undefined,
  };
}
