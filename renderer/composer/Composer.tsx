import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useActions } from '../actions.ts';
import { focusFell, MESSAGE_BOX_ID, useRefocusOnChange } from '../focus.ts';
import { usePanel } from '../store/store.ts';
import { useRewind } from '../rewind/rewind-store.ts';
import { completionKeyAction, composerHint, composerKeyAction, SEND_MODIFIER } from './composer-keys.ts';
import { COMPLETION_LIST_ID, CompletionMenu, optionId } from './CompletionMenu.tsx';
import { AttachedImages } from './AttachedImages.tsx';
import { ComposerNoticeView } from './ComposerNotice.tsx';
import { QueueList } from './QueueList.tsx';
import { TodoChecklist } from './TodoChecklist.tsx';
import { ProcessStrip } from './ProcessStrip.tsx';
import type { SendMode } from '../../protocol/queue.ts';
import { ModelPicker } from './ModelPicker.tsx';
import type { ComposerNotice } from './run-builtin.ts';
import { useAttachments } from './use-attachments.ts';
import { HistoryWalk, usePromptHistory } from './prompt-history.ts';
import { useComposerSubmit } from './use-composer-submit.ts';
import { useCompletion } from './use-completion.ts';
import { useModeSwitch } from './mode-switch.ts';
import '../styles/composer-menu.css';

// Where the person writes, and where focus starts. Enter sends (or Ctrl/Cmd+Enter, as the settings
// say) — while a turn runs it steers that turn, and Alt+Enter (or Queue) queues the message as the
// next turn — Shift+Tab in the empty box cycles the permission mode, Alt+T the reasoning effort, and Esc (anywhere in the panel,
// see app.tsx) stops the running turn. ↑ at the first line recalls this workspace's earlier prompts,
// ↓ goes back, Shift+Delete forgets the one shown. `/` at the start opens the commands, `@` the workspace's files
// and folders; while a menu is open, ↑/↓ move in it, Tab or Enter pick, and Esc closes it.

export function Composer() {
  const actions = useActions();
  const running = usePanel((state) => state.transcript.activeTurnId !== null);
  // Held messages: a new one can wait behind them instead of going first.
  const queueWaits = usePanel((state) => state.transcript.queue.items.length > 0);
  const effort = usePanel((state) => state.settings?.effort ?? 'medium');
  const permissionMode = usePanel((state) => state.settings?.permission_mode ?? 'ask');
  const sendKey = usePanel((state) => state.settings?.send_key ?? 'enter');
  const [text, setText] = useState('');
  // A conversation rewind hands back its message: the box holds it, to edit and send again.
  const draft = useRewind((state) => state.draft);
  const selectAll = useRef(false);
  useEffect(() => {
    if (draft === null) return;
    setText(draft);
    // Focus comes back to the box with the restored text selected: type over it or edit it.
    selectAll.current = true;
    useRewind.getState().setDraft(null);
  }, [draft]);
  const workspace = usePanel((state) => state.workspace);
  const walk = useRef<HistoryWalk | null>(null);
  const history = usePromptHistory(actions, workspace);
  const [caret, setCaret] = useState(0);
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const completion = useCompletion({ actions, text, caret });
  const menu = completion.completion;
  const [notice, setNotice] = useState<ComposerNotice | null>(null);
  const attachments = useAttachments(actions, (error) =>
    setNotice({ tone: 'error', title: 'The image was not attached', lines: [error] }),
  );
  const submitMessage = useComposerSubmit(actions, completion, attachments, setNotice);
  const modes = useModeSwitch(actions);
  const [stopPressed, setStopPressed] = useState(false);
  // The Stop the person pressed goes away with the turn: focus goes back to writing.
  useRefocusOnChange(running, input, !running && stopPressed);
  useEffect(() => {
    if (running) setStopPressed(false);
  }, [running]);
  useEffect(() => {
    if (focusFell()) input.current?.focus();
  }, []);

  // A completion puts the caret where it belongs as the new text is committed, in the same task: a
  // frame later, keys typed meanwhile would already be in the box and the caret would jump back
  // over them.
  const placedCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (selectAll.current && input.current) {
      selectAll.current = false;
      input.current.focus();
      input.current.select();
    }
    const at = placedCaret.current;
    if (at === null) return;
    placedCaret.current = null;
    input.current?.setSelectionRange(at, at);
  });

  const place = (next: string, at: number) => {
    placedCaret.current = at;
    setText(next);
    setCaret(at);
  };

  // Messages go out one after another, in the order they were sent: one sent while the last is
  // still on its way waits for it instead of being ignored.
  const lastSend = useRef<Promise<unknown>>(Promise.resolve());
  const submit = async (typed = text, mode?: SendMode) => {
    if (typed.trim() === '') return;
    setSending(true);
    // The box empties at once: what the turn asks next (an approval taking focus) must not find the
    // sent message still there and take the person for someone writing.
    setText('');
    const sent = lastSend.current.then(() => submitMessage(typed, mode));
    const settled = sent.catch(() => false);
    lastSend.current = settled;
    const done = await settled;
    // The last message on its way is through: the buttons are the person's again.
    if (lastSend.current === settled) setSending(false);
    walk.current = null;
    if (done && !typed.trimStart().startsWith('/')) history.remember(typed.trim());
    // A message or command that did not go through comes back, unless the person has started another meanwhile.
    if (!done) setText((current) => (current === '' ? typed : current));
  };

  const pick = (index: number, run: boolean) => {
    const picked = completion.pick(index);
    if (!picked) return;
    if (run && picked.runnable) void submit(picked.text);
    else place(picked.text, picked.caret);
  };

  /** ↑ at the first line walks back through this workspace's prompts, ↓ at the last forward, Shift+Delete forgets the one shown. */
  const recall = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    const box = event.currentTarget;
    const { key, shiftKey, ctrlKey, metaKey, altKey } = event;
    if (ctrlKey || metaKey || altKey || event.nativeEvent.isComposing) return false;
    const collapsed = box.selectionStart === box.selectionEnd;
    let next: string | null = null;
    if (key === 'ArrowUp' && !shiftKey && collapsed && !box.value.slice(0, box.selectionStart).includes('\n')) {
      if (walk.current === null && !history.loaded()) {
        // The host has not answered with the history yet: the walk starts once it has.
        event.preventDefault();
        const draft = box.value;
        void history.whenLoaded().then(() => {
          if (walk.current !== null || input.current?.value !== draft) return;
          walk.current = new HistoryWalk(history.prompts(), draft);
          const older = walk.current.older();
          if (older !== null) place(older, older.length);
        });
        return true;
      }
      walk.current ??= new HistoryWalk(history.prompts(), box.value);
      next = walk.current.older();
    } else if (
      key === 'ArrowDown' &&
      !shiftKey &&
      walk.current &&
      collapsed &&
      !box.value.slice(box.selectionEnd).includes('\n')
    ) {
      next = walk.current.newer();
      if (walk.current.shown === null) walk.current = null;
    } else if (key === 'Delete' && shiftKey && walk.current?.shown) {
      history.forget(walk.current.shown);
      next = walk.current.forgetShown();
    }
    if (next === null) return false;
    event.preventDefault();
    place(next, next.length);
    return true;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const { key, shiftKey, ctrlKey, metaKey, altKey } = event;
    const isComposing = event.nativeEvent.isComposing;
    if (menu) {
      const menuAction = completionKeyAction({ key, shiftKey, ctrlKey, metaKey, altKey, isComposing });
      if (menuAction !== null && (menu.items.length > 0 || menuAction === 'close')) {
        // Handled here: Esc closes the menu and does not stop the turn (app.tsx skips a prevented Esc).
        event.preventDefault();
        if (menuAction === 'next') completion.move(1);
        else if (menuAction === 'previous') completion.move(-1);
        else if (menuAction === 'close') completion.close();
        else pick(menu.active, menuAction === 'run');
        return;
      }
    }
    if (recall(event)) return;
    const empty = event.currentTarget.value === '';
    const { code } = event;
    const action = composerKeyAction({ key, code, shiftKey, ctrlKey, metaKey, altKey, isComposing }, sendKey, empty);
    if (action === null) return;
    event.preventDefault();
    if (action === 'send') void submit(text, running ? 'steer' : undefined);
    else if (action === 'queue') void submit(text, 'queue');
    else if (action === 'cycle-mode') void modes.cycleMode();
    else void modes.cycleEffort();
  };

  return (
    <form
      className="composer"
      aria-label="Message"
      onDragOver={attachments.onDragOver}
      onDrop={attachments.onDrop}
      onSubmit={(event) => {
        event.preventDefault();
        void submit(text, running ? 'steer' : undefined);
      }}
    >
      <TodoChecklist />
      <ProcessStrip />
      <QueueList />
      {notice ? <ComposerNoticeView notice={notice} onDismiss={() => setNotice(null)} /> : null}
      <AttachedImages images={attachments.images} onRemove={attachments.remove} />
      {menu ? (
        <CompletionMenu
          label={menu.label}
          items={menu.items}
          active={menu.active}
          empty={menu.empty}
          onPick={(index) => pick(index, true)}
          onHover={completion.setActive}
        />
      ) : null}
      <textarea
        ref={input}
        id={MESSAGE_BOX_ID}
        className="composer-input"
        data-testid="composer-input"
        role="combobox"
        aria-label="Message to the oracle"
        aria-describedby="composer-keys"
        aria-autocomplete="list"
        aria-expanded={menu !== null}
        aria-controls={menu ? COMPLETION_LIST_ID : undefined}
        aria-activedescendant={menu && menu.items.length > 0 ? optionId(menu.active) : undefined}
        placeholder="Ask the oracle… / for commands, @ for files"
        rows={3}
        value={text}
        onChange={(event) => {
          // An edit ends the walk: the recalled prompt is now the person's text.
          walk.current = null;
          setText(event.target.value);
          setCaret(event.target.selectionStart);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onPaste={attachments.onPaste}
        onKeyDown={onKeyDown}
      />
      <div className="composer-bar">
        <span id="composer-keys" className="composer-keys" data-testid="composer-keys">
          {composerHint(sendKey, SEND_MODIFIER, running)}
        </span>
        <span className="visually-hidden" role="status" data-testid="composer-said">
          {modes.said}
        </span>
        <span className="composer-controls">
          <ModelPicker />
          <button
            type="button"
            className={`button small${permissionMode === 'plan' ? ' mode-plan' : ''}`}
            data-testid="mode-button"
            title="Permission mode: ask → plan → auto (Shift+Tab in the empty box; the others in Settings)"
            aria-label={`Permission mode: ${permissionMode}. Change`}
            aria-keyshortcuts="Shift+Tab"
            onClick={() => void modes.cycleMode()}
          >
            <span className="wide-only">mode: </span>
            {permissionMode}
          </button>
          <button
            type="button"
            className="button small"
            data-testid="effort-button"
            title="Reasoning effort: off → low → medium → high (Alt+T)"
            aria-label={`Reasoning effort: ${effort}. Change`}
            aria-keyshortcuts="Alt+T"
            onClick={() => void modes.cycleEffort()}
          >
            <span className="wide-only">effort: </span>
            {effort}
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
          {running || queueWaits ? (
            <button
              type="button"
              className="button"
              data-testid="composer-queue"
              title="Send it when this turn ends (Alt+Enter)"
              disabled={sending || text.trim() === ''}
              onClick={() => void submit(text, 'queue')}
            >
              Queue
            </button>
          ) : null}
          <button
            type="submit"
            className="button primary"
            data-testid="composer-send"
            title={running ? 'Send it into the running turn, after its running calls' : undefined}
            disabled={sending || text.trim() === ''}
          >
            {running ? 'Steer' : 'Send'}
          </button>
        </span>
      </div>
    </form>
  );
}
