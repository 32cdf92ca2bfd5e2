import type { ProviderId } from '../../protocol/api.ts';
import { KEYED_PROVIDERS, providerLabel } from '../../protocol/providers.ts';
import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';

// First run with a model that cannot answer yet: the selected model needs a provider's key that is
// neither stored nor in the environment (the panel service says which, as `missing_key`). Offer the
// demo model (scripted, no network) or the keys screen — in the browser panel, whose host reads keys
// from its environment alone, the variable to set instead. A model that needs no key (demo, compat:
// endpoints) or has one never sees this. It shows on an empty panel with no earlier session, until
// dismissed.

export const DEMO_MODEL = 'demo';

/** Where the browser panel's key comes from: a variable of `aether serve`'s environment. */
function EnvironmentHint({ provider }: { provider: ProviderId }) {
  const variable = KEYED_PROVIDERS.find((entry) => entry.id === provider)?.keyVariable;
  return (
    <>
      set <code>{variable}</code> in the environment of <code>aether serve</code> and start it again.
    </>
  );
}

export function Welcome() {
  const actions = useActions();
  const missing = usePanel((state) => state.settings?.missing_key ?? null);
  const model = usePanel((state) => state.settings?.model ?? '');
  const dismissed = usePanel((state) => state.welcomeDismissed);
  const empty = usePanel((state) => state.transcript.order.length === 0);
  // First run: no session but (at most) the current, empty one.
  const firstRun = usePanel(
    (state) => state.sessionsLoaded && state.sessions.every((session) => session.id === state.session?.id),
  );
  const dismiss = usePanel((state) => state.dismissWelcome);
  const fromEnvironment = usePanel((state) => state.keysFromEnvironment);
  const setView = usePanel((state) => state.setView);
  if (missing === null || dismissed || !empty || !firstRun) return null;
  return (
    <section className="welcome" data-testid="welcome" aria-labelledby="welcome-title">
      <h2 id="welcome-title">No API key yet</h2>
      <p>
        {model} needs an {providerLabel(missing)} API key. Try the panel with the demo model, which needs no key and no
        network, or {fromEnvironment ? <EnvironmentHint provider={missing} /> : 'add a key.'}
      </p>
      <div className="welcome-buttons">
        <button
          type="button"
          className="button primary"
          data-testid="use-demo-model"
          onClick={() => {
            void actions.updateSettings({ model: DEMO_MODEL });
            dismiss();
          }}
        >
          Use the demo model
        </button>
        {/* The browser panel cannot keep a key: its Settings have no field to add one. */}
        {fromEnvironment ? null : (
          <button type="button" className="button" data-testid="open-key-settings" onClick={() => setView('settings')}>
            Add an API key
          </button>
        )}
      </div>
    </section>
  );
}
