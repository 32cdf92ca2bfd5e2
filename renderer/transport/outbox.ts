import type { Result } from '../../protocol/api.ts';
import type { Bridge } from './bridge.ts';
import type { PanelStore } from '../store/store.ts';

// A message sent while the panel host is out of reach is kept, not lost: it waits in the outbox
// (the panel says "not sent — reconnecting") and goes out once the connection is back, unless the
// person cancels it first (it then returns to the message box). One message waits at a time.

/** The arguments of the `send` that is waiting. */
export interface OutboxMessage {
  args: Parameters<Bridge['send']>;
}

export interface OutboxSlice {
  outbox: OutboxMessage | null;
  setOutbox(message: OutboxMessage | null): void;
}

type OutboxSet = (partial: Partial<OutboxSlice>) => void;

export const outboxSlice = (set: OutboxSet): OutboxSlice => ({
  outbox: null,
  setOutbox: (outbox) => set({ outbox }),
});

type SendResult = Awaited<ReturnType<Bridge['send']>>;

/** The text of the waiting message. */
export function outboxText(message: OutboxMessage): string {
  return message.args[0];
}

/**
 * The bridge, with `send` kept in the outbox while the connection is down and delivered when it is
 * back. A send that waits answers `queued: true` at once, so the message box empties as for a sent
 * message; a second one while the first waits is refused and stays in the box.
 */
export function withOutbox(api: Bridge, store: PanelStore): Bridge {
  const state = () => store.getState();
  const deliver = async (): Promise<void> => {
    const waiting = state().outbox;
    if (!waiting) return;
    state().setOutbox(null);
    const sent: SendResult = await api.send(...waiting.args);
    if (sent.ok) state().requestJumpToLatest();
    else {
      state().showError(`The message that waited for the connection was not sent: ${sent.error}`);
      returnToMessageBox(outboxText(waiting));
    }
  };
  store.subscribe((now, before) => {
    if (now.connection === 'connected' && before.connection !== 'connected' && now.outbox) void deliver();
  });
  const send: Bridge['send'] = async (...args) => {
    if (state().connection === 'connected') return api.send(...args);
    if (state().outbox)
      return refuse(
        'Not sent: another message is already waiting for the connection. Cancel it or wait until it has gone.',
      );
    state().setOutbox({ args });
    return { ok: true, value: { turn_id: '', queued: true } };
  };
  return { ...api, send };
}

function refuse(error: string): Result<never> {
  return { ok: false, error };
}

/** Cancels the waiting message: its text goes back to the message box (unless the person has started another). */
export function cancelOutbox(store: PanelStore): void {
  const waiting = store.getState().outbox;
  if (!waiting) return;
  store.getState().setOutbox(null);
  returnToMessageBox(outboxText(waiting));
}

/** Puts text in the (React-controlled) message box as typing would, and focuses it; an edited box is left alone. */
function returnToMessageBox(text: string): void {
  if (typeof document === 'undefined') return;
  const box = document.getElementById('composer-input');
  if (!(box instanceof HTMLTextAreaElement)) return;
  if (box.value === '') {
    const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
    setValue?.call(box, text);
    box.dispatchEvent(new Event('input', { bubbles: true }));
  }
  box.focus();
}
