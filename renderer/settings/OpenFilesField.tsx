import { useEffect, useState } from 'react';
import type { OpenFilesIn } from '../../protocol/files.ts';
import { enumChoices, settingLabel } from '../../protocol/settings.ts';
import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';

// Where a file link opens (desktop app only): the panel's read card, or the person's editor through
// a command such as `code -g {path}:{line}`. The app runs it without a shell and asks the person to
// confirm a command the first time; a command that fails says so in the error banner.

const EXAMPLE = 'code -g {path}:{line}';

export function OpenFilesField({ openIn, command }: { openIn: OpenFilesIn; command: string }) {
  const actions = useActions();
  const opensEditor = usePanel((state) => state.opensEditor);
  const [text, setText] = useState(command);
  const [status, setStatus] = useState<string | null>(null);
  useEffect(() => setText(command), [command]);
  if (!opensEditor) return null;
  const save = async (): Promise<void> => {
    const trimmed = text.trim();
    if (trimmed === '') {
      setStatus(`Name a command, such as ${EXAMPLE}.`);
      return;
    }
    await actions.updateSettings({ editor_command: trimmed });
    setStatus('Saved.');
  };
  return (
    <>
      <label htmlFor="settings-open-files-in">{settingLabel('open_files_in')}</label>
      <select
        id="settings-open-files-in"
        data-testid="open-files-in"
        value={openIn}
        onChange={(event) => void actions.updateSettings({ open_files_in: event.target.value as OpenFilesIn })}
      >
        {enumChoices('open_files_in').map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      {openIn === 'editor' ? (
        <>
          <label htmlFor="settings-editor-command">{settingLabel('editor_command')}</label>
          <form
            className="key-form"
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
          >
            <input
              id="settings-editor-command"
              data-testid="editor-command"
              spellCheck={false}
              autoComplete="off"
              value={text}
              placeholder={EXAMPLE}
              title="{path} is the file's path, {line} its line; run without a shell"
              aria-describedby="settings-editor-command-hint"
              onChange={(event) => {
                setText(event.target.value);
                setStatus(null);
              }}
            />
            <button
              type="submit"
              className="button small primary"
              data-testid="editor-command-save"
              disabled={text.trim() === command}
            >
              Save
            </button>
          </form>
          <p id="settings-editor-command-hint" className="card-note settings-wide" data-testid="editor-command-status">
            {status ??
              `{path} and {line} are put in; the command runs without a shell, and the app asks you to confirm it the first time. Example: ${EXAMPLE}`}
          </p>
        </>
      ) : null}
    </>
  );
}
