// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsPatch } from '../../protocol/api.ts';
import type { OpenFilesIn } from '../../protocol/files.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { OpenFilesField } from './OpenFilesField.tsx';

// "Open files in" is offered only by a host that can open an editor (the desktop app); it saves the
// choice and the command as typed.

afterEach(() => {
  cleanup();
  usePanel.setState({ opensEditor: false });
});

function showField(openIn: OpenFilesIn, command: string, opensEditor: boolean): SettingsPatch[] {
  const saved: SettingsPatch[] = [];
  const actions = new Proxy({} as PanelActions, {
    get: (_, name) =>
      name === 'updateSettings' ? async (patch: SettingsPatch) => void saved.push(patch) : async () => undefined,
  });
  act(() => usePanel.setState({ opensEditor }));
  render(
    <ActionsContext.Provider value={actions}>
      <OpenFilesField openIn={openIn} command={command} />
    </ActionsContext.Provider>,
  );
  return saved;
}

describe('the open files in setting', () => {
  it('is not offered by the web host, which always uses the viewer', () => {
    showField('viewer', '', false);
    expect(screen.queryByTestId('open-files-in')).toBeNull();
  });

  it('saves the choice of the editor', () => {
    const saved = showField('viewer', '', true);
    fireEvent.change(screen.getByLabelText('Open files in'), { target: { value: 'editor' } });
    expect(saved).toEqual([{ open_files_in: 'editor' }]);
  });

  it('saves the editor command, and asks for one rather than saving a blank', async () => {
    const saved = showField('editor', '', true);
    const input = screen.getByLabelText('Editor command');
    fireEvent.change(input, { target: { value: '  ' } });
    await act(async () => fireEvent.submit(input));
    expect(screen.getByTestId('editor-command-status').textContent).toMatch(/Name a command/);
    fireEvent.change(input, { target: { value: ' code -g {path}:{line} ' } });
    await act(async () => fireEvent.click(screen.getByTestId('editor-command-save')));
    expect(saved).toEqual([{ editor_command: 'code -g {path}:{line}' }]);
  });
});
