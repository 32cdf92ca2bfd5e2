import type { Result } from '../../protocol/api.ts';
import type { Bridge } from '../transport/bridge.ts';
import type { PanelState, PanelStore } from '../store/store.ts';

// What every group of the panel's actions works with: the bridge, the store, and how a refusal
// reaches the banner.

export interface ActionKit {
  api: Bridge;
  store: PanelStore;
  state(): PanelState;
  /** A failure goes to the banner; true when the request succeeded. */
  report(result: Result<unknown>): boolean;
  /** The value of a request that succeeded; null after a failure, which goes to the banner. */
  reportedValue<T>(result: Result<T>): T | null;
  /** A failure of a request about the shown session: its banner goes once another session is shown. */
  reportAbout(result: Result<unknown>, about: string): boolean;
  /** The id of the session shown ('' when none). */
  shown(): string;
}

export function actionKit(api: Bridge, store: PanelStore): ActionKit {
  const state = () => store.getState();
  const report = (result: Result<unknown>): boolean => {
    if (!result.ok) state().showError(result.error);
    return result.ok;
  };
  return {
    api,
    store,
    state,
    report,
    reportedValue: (result) => (report(result) && result.ok ? result.value : null),
    reportAbout: (result, about) => {
      if (!result.ok) state().showError(result.error, about);
      return result.ok;
    },
    shown: () => state().session?.id ?? '',
  };
}
