import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useActions } from '../actions.ts';
import { focusFell, MESSAGE_BOX_ID, useRefocusOnChange } from '../focus.ts';
import { usePanel } from '../store/store.ts';
import { composerHint, composerKeyAction, SEND_MODIFIER } from './composer-keys.ts';
import { ModelPicker } from './ModelPicker.tsx';

// Where the person writes, and where focus starts. Enter sends (or Ctrl/Cmd+Enter, as the settings
// say), Shift+Tab in the empty box cycles the reasoning effort, and Esc (anywhere in the panel, see
// app.tsx) stops the running turn.

export function Composer() {
  const actions = useActions();
  const running = usePanel((state) => state.transcript.activeTurnId !== null);
  const effort = usePanel((state) => state.settings?.effort ?? 'medium');
  const sendKey = usePanel((state) => state.settings?.send_key ?? 'enter');
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const [stopPressed, setStopPressed] = useState(false);
  // The Stop the person pressed goes away with the turn: focus goes back to writing.
  useRefocusOnChange(running, input, !running && stopPressed);
  useEffect(() => {
    if (running) setStopPressed(false);
  }, [running]);
  useEffect(() => {
    if (focusFell()) input.current?.focus();
  }, []);

  const submit = async () => {
    const message = text.trim();
    if (message === '' || sending) return;
    setSending(true);
    // The box empties at once: what the turn asks next (an approval taking focus) must not find the
    // sent message still there and take the person for someone writing.
    setText('');
    const sent = await actions.send(message);
    setSending(false);
    // A message that did not go out comes back, unless the person has started another meanwhile.
    if (!sent) setText((current) => (current === '' ? text : current));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const { key, shiftKey, ctrlKey, metaKey, altKey } = event;
    const isComposing = event.nativeEvent.isComposing;
    const empty = event.currentTarget.value === '';
    const action = composerKeyAction({ key, shiftKey, ctrlKey, metaKey, altKey, isComposing }, sendKey, empty);
    if (action === null) return;
    event.preventDefault();
    if (action === 'send') void submit();
    else void actions.cycleEffort();
  };

  return (
    <form
      className="composer"
      aria-label="Message"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <textarea
        ref={input}
        id={MESSAGE_BOX_ID}
        className="composer-input"
        data-testid="composer-input"
        aria-label="Message to the oracle"
        aria-describedby="composer-keys"
        placeholder="Ask the oracle…"
        rows={3}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-bar">
        <span id="composer-keys" className="composer-keys" data-testid="composer-keys">
          {composerHint(sendKey, SEND_MODIFIER)}
        </span>
        <span className="composer-controls">
          <ModelPicker />
          <button
            type="button"
            className="button small"
            data-testid="effort-button"
            aria-label={`Reasoning effort: ${effort}. Change`}
            onClick={() => void actions.cycleEffort()}
          >
            effort: {effort}
          </button>
          {running ? (
            <button
              type="button"
              className="button danger"
              data-testid="composer-stop"
              onClick={() => {
                setStopPressed(true);
                void actions.stop();
              }}
            >
              Stop
            </button>
          ) : null}
          <button
            type="submit"
            className="button primary"
            data-testid="composer-send"
            disabled={sending || text.trim() === ''}
          >
            Send
          </button>
        </span>
      </div>
    </form>
  );
}
