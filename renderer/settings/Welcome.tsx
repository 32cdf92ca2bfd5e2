import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';

// First run without any key: offer the demo model (scripted, no network) or the keys screen. It
// shows on an empty panel with no earlier session, until dismissed or a key is stored.

export const DEMO_MODEL = 'demo';

export function Welcome() {
  const actions = useActions();
  const settings = usePanel((state) => state.settings);
  const dismissed = usePanel((state) => state.welcomeDismissed);
  const empty = usePanel((state) => state.transcript.order.length === 0);
  // First run: no session but (at most) the current, empty one.
  const firstRun = usePanel((state) => state.sessionsLoaded && state.sessions.every((session) => session.id === state.session?.id));
  const dismiss = usePanel((state) => state.dismissWelcome);
  const setView = usePanel((state) => state.setView);
  if (!settings || dismissed || !empty || !firstRun || Object.values(settings.keys).some(Boolean)) return null;
  return (
    <section className="welcome" data-testid="welcome" aria-labelledby="welcome-title">
      <h2 id="welcome-title">No API key yet</h2>
      <p>Try the panel with the demo model, which needs no key and no network, or add a key for a real model.</p>
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
        <button type="button" className="button" data-testid="open-key-settings" onClick={() => setView('settings')}>
          Add an API key
        </button>
      </div>
    </section>
  );
}
