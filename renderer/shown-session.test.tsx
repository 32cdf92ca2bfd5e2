// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenedSession, Result, SessionNotice } from '../protocol/api.ts';
import { ActionsContext, createActions, type PanelActions } from './actions.ts';
import { ErrorBanner } from './banners.tsx';
import { LinkedText } from './files/FileLink.tsx';
import { RewindMenu } from './rewind/RewindMenu.tsx';
import { usePanel } from './store/store.ts';
import type { Bridge } from './transport/bridge.ts';

// What the panel shows about the session it shows, as the person moves between sessions: a refusal
// about one session goes once another is shown (a failure about the panel as a whole stays), a
// session only viewed here offers no rewind, and file links are the files of the shown session's
// own workspace.

const HERE = '/work/here';
const THERE = '/work/there';

function opened(id: string, workspace: string, notices: SessionNotice[] = []): OpenedSession {
  const summary = { id, title: id, workspace, created_at: '', updated_at: '' };
  return { summary, events: [], corrupt_lines: 0, usage: { input_tokens: 0, output_tokens: 0 }, notices };
}

const foreign = opened('s-there', THERE, [{ kind: 'other_workspace', text: 'Shown read-only.' }]);
const local = opened('s-here', HERE);

/** A bridge that refuses to send and to change settings, and answers anything else with nothing. */
function refusingBridge(): Bridge {
  const refuse = (error: string): Promise<Result<never>> => Promise.resolve({ ok: false, error });
  const known: Partial<Bridge> = {
    send: () => refuse('Not sent: the session shown belongs to another workspace.'),
    updateSettings: () => refuse('The settings could not be saved: the disk is full.'),
    getSettings: () => refuse('The settings could not be read.'),
  };
  return new Proxy(known, {
    get: (target, key: string) =>
      target[key as keyof Bridge] ?? (() => Promise.resolve({ ok: true, value: undefined })),
  }) as Bridge;
}

afterEach(() => {
  cleanup();
  usePanel.getState().clearTranscript();
  usePanel.getState().showError(null);
  usePanel.getState().setSession(null);
});

describe('the error banner', () => {
  it('goes when the session whose message was refused is no longer shown; a settings failure stays', async () => {
    const actions = createActions(refusingBridge(), usePanel);
    render(<ErrorBanner />);
    act(() => usePanel.getState().replaySession(foreign));
    await act(async () => void (await actions.send('Continue over there')));
    expect(screen.getByTestId('error-banner').textContent).toContain('another workspace');

    act(() => usePanel.getState().replaySession(local));
    expect(screen.queryByTestId('error-banner')).toBeNull();

    act(() => usePanel.getState().replaySession(foreign));
    await act(async () => void (await actions.send('Once more')));
    // "New session here": the transcript is cleared for a session not written yet.
    act(() => usePanel.getState().clearTranscript());
    expect(screen.queryByTestId('error-banner')).toBeNull();

    await act(async () => actions.updateSettings({ theme: 'dark' }));
    expect(screen.getByTestId('error-banner').textContent).toContain('disk is full');
    act(() => usePanel.getState().replaySession(foreign));
    expect(screen.getByTestId('error-banner').textContent).toContain('disk is full');
  });
});

describe('a session only viewed here', () => {
  it('offers no rewind, also once its notice is dismissed', () => {
    render(<RewindMenu target="call_1" what="write_file notes.md" />);
    expect(screen.getByTestId('rewind-button')).toBeTruthy();
    act(() => usePanel.getState().replaySession(foreign));
    act(() => usePanel.getState().dismissSessionNotices());
    expect(screen.queryByTestId('rewind-button')).toBeNull();
    act(() => usePanel.getState().replaySession(local));
    expect(screen.getByTestId('rewind-button')).toBeTruthy();
  });
});

describe('file links', () => {
  it("are the files of the shown session's own workspace", async () => {
    // The host answers for the workspace of the session it shows.
    let shownWorkspace = HERE;
    const files: Record<string, string[]> = { [HERE]: ['src/here.ts'], [THERE]: ['src/there.ts'] };
    const actions = new Proxy(
      {
        existingFiles: async (paths: string[]) => paths.filter((path) => files[shownWorkspace]?.includes(path)),
      } as Partial<PanelActions>,
      { get: (target, key: string) => target[key as keyof PanelActions] ?? (async () => undefined) },
    ) as PanelActions;
    const text = 'Changed src/here.ts:3 and src/there.ts:4.';
    const links = () => screen.queryAllByTestId('file-link').map((link) => link.dataset['path']);
    const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
    const view = render(
      <ActionsContext.Provider value={actions}>
        <LinkedText text={text} withLine />
      </ActionsContext.Provider>,
    );
    act(() => usePanel.getState().replaySession(local));
    await settle();
    expect(links()).toEqual(['src/here.ts']);

    shownWorkspace = THERE;
    act(() => usePanel.getState().replaySession(foreign));
    view.rerender(
      <ActionsContext.Provider value={actions}>
        <LinkedText text={text} withLine />
      </ActionsContext.Provider>,
    );
    await settle();
    expect(links()).toEqual(['src/there.ts']);
  });
});
