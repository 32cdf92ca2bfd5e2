import { focusFell } from '../focus.ts';
import type { PanelStore } from '../store/store.ts';

// Shows one row of the transcript (a card, a message): scrolled to and marked like a find hit, then
// focused — its question when it asks one, else its first control. A notification's click and an
// agent's session's "Show its agent card" use it.

export interface RowTarget {
  kind: 'call' | 'message';
  id: string;
}

/** False when the row is not among the events loaded (an older page holds it, or it is gone). */
export function revealRow(store: PanelStore, target: RowTarget | null): boolean {
  const state = store.getState();
  state.setView('transcript');
  if (!target) {
    state.requestJumpToLatest();
    return true;
  }
  const key = `${target.kind}:${target.id}`;
  const index = state.transcript.order.findIndex((item) => `${item.kind}:${item.id}` === key);
  if (index === -1) return false;
  state.showFindRow({ index, key });
  // The rows of a session just opened may be drawn again once scrolled to, taking a focused control
  // with them: the focus is put back while it falls, for a few frames, unless the person moved it.
  let frames = 60;
  let held = 0;
  let placed = false;
  const focus = () => {
    const row = document.querySelector<HTMLElement>(`[data-row-key="${CSS.escape(key)}"]`);
    if (placed && row?.contains(document.activeElement)) held += 1;
    else if (!placed || focusFell()) {
      const approval = row?.querySelector<HTMLElement>('[data-testid="approval"]');
      const goal = approval ?? row?.querySelector<HTMLElement>('button, [tabindex]:not([tabindex="-1"])') ?? null;
      goal?.focus();
      placed = goal !== null;
      held = 0;
    } else return;
    if (held < 5 && frames-- > 0) requestAnimationFrame(focus);
  };
  requestAnimationFrame(focus);
  return true;
}

/** Reveals a call's card, loading the session's older pages until one holds it; false when none does. */
export async function revealCall(store: PanelStore, loadOlder: () => Promise<void>, callId: string): Promise<boolean> {
  for (;;) {
    if (revealRow(store, { kind: 'call', id: callId })) return true;
    const older = store.getState().olderEvents;
    if (!older) return false;
    await loadOlder();
    // A page that failed to load (the banner says why) leaves the same place: stop rather than ask again.
    if (store.getState().olderEvents?.before === older.before) return false;
  }
}
