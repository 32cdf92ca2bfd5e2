import { useEffect, useRef } from 'react';
import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { SafeText } from '../text/SafeText.tsx';

// Above the transcript of an agent's session (opened from the session list): whose it is, that it is
// only shown, and the ways back — to the session whose `agent` call started it, and to that call's
// card there. Opening one puts the focus on the way back, so the keyboard starts where the
// person will go next.

export function AgentOrigin() {
  const actions = useActions();
  const origin = usePanel((state) => state.session?.agent_of);
  const shownId = usePanel((state) => state.session?.id);
  const back = useRef<HTMLButtonElement>(null);
  const shown = origin !== undefined;
  useEffect(() => {
    if (!shown) return undefined;
    // After the session list has closed and given the focus back to ☰.
    const frame = requestAnimationFrame(() => back.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [shown, shownId]);
  if (!origin) return null;
  const parentName = origin.parent_title || `session ${origin.session}`;
  return (
    <section className="agent-origin" data-testid="agent-origin" aria-label="Agent session">
      <p className="agent-origin-what">
        <span aria-hidden="true">⎇</span> Agent <span className="agent-origin-name">{origin.agent}</span>’s session ·{' '}
        <span className="agent-origin-readonly">read-only</span>
      </p>
      <p className="agent-origin-ways">
        <button
          ref={back}
          type="button"
          className="link-button agent-origin-parent"
          data-testid="agent-origin-parent"
          title={`Back to the session that started it: ${parentName}`}
          onClick={() => void actions.openSession(origin.session)}
        >
          ↰ Back to <SafeText text={parentName} />
        </button>
        {origin.call_id ? (
          <button
            type="button"
            className="link-button agent-origin-card"
            data-testid="agent-origin-card"
            onClick={() => void actions.showAgentCard(origin.session, origin.call_id)}
          >
            Show its agent card
          </button>
        ) : null}
      </p>
    </section>
  );
}
