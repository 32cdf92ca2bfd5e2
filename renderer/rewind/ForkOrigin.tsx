import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { SafeText } from '../text/SafeText.tsx';

// Above the transcript of a session forked by a conversation rewind: which session it was forked
// from and before which of the person's messages, so a fork never passes for its original. The
// original's name opens it.

export function ForkOrigin() {
  const actions = useActions();
  const parent = usePanel((state) => state.session?.parent);
  const title = usePanel((state) =>
    parent ? state.sessions.find((summary) => summary.id === parent.session)?.title : undefined,
  );
  if (!parent) return null;
  return (
    <p className="fork-origin" data-testid="fork-origin">
      <span aria-hidden="true">↳</span> <span>Forked from</span>{' '}
      {title === undefined ? (
        <span>a session no longer listed</span>
      ) : (
        <button
          type="button"
          className="link-button fork-origin-parent"
          data-testid="fork-origin-parent"
          title="Open the original session"
          onClick={() => void actions.openSession(parent.session)}
        >
          <SafeText text={title || parent.session} />
        </button>
      )}{' '}
      {parent.message === undefined ? null : <span>before message {parent.message}</span>}
    </p>
  );
}
