import { useEffect, useState } from 'react';
import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';

// The line above the transcript while hooks of this workspace wait for approval: they do not run
// until then, and the person may not know the repository has any. Looked at again each time the
// transcript comes back (after Settings, where they are approved).

export function HooksWaitingBanner() {
  const actions = useActions();
  const view = usePanel((state) => state.view);
  const setView = usePanel((state) => state.setView);
  const [waiting, setWaiting] = useState(0);

  useEffect(() => {
    if (view !== 'transcript') return;
    let live = true;
    actions
      .hooks()
      .then((result) => {
        if (live && result.ok) setWaiting(result.value.hooks.filter((hook) => !hook.approved).length);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [actions, view]);

  if (waiting === 0 || view !== 'transcript') return null;
  return (
    <div className="banner banner-warning" role="status" data-testid="hooks-waiting">
      <span className="banner-text">
        {waiting === 1 ? 'A hook of this workspace waits' : `${waiting} hooks of this workspace wait`} for your
        approval: {waiting === 1 ? 'it does' : 'they do'} not run until you approve {waiting === 1 ? 'it' : 'them'}.
      </span>
      <button type="button" className="button small" data-testid="hooks-review" onClick={() => setView('settings')}>
        Review hooks
      </button>
    </div>
  );
}
