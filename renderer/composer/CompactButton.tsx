import { useState } from 'react';
import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';

// Compact the model context now: between turns, in an open session. The card in the transcript
// shows the outcome (or why it failed); while it runs the button says so and cannot be pressed again.

export function CompactButton() {
  const actions = useActions();
  const [running, setRunning] = useState(false);
  const disabled = usePanel((state) => state.session === null || state.transcript.activeTurnId !== null);
  const onClick = () => {
    setRunning(true);
    void actions.compact().finally(() => setRunning(false));
  };
  return (
    <button
      type="button"
      className="icon-button footer-compact"
      data-testid="compact-button"
      title="Summarise the conversation so far, so the model's context has room again (the transcript keeps everything)"
      disabled={disabled || running}
      aria-busy={running}
      onClick={onClick}
    >
      {running ? 'Compacting…' : 'Compact'}
    </button>
  );
}
