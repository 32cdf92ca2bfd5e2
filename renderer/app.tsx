import { useEffect, useRef, useState } from 'react';
import { useActions } from './actions.ts';
import { ConnectionBanner, ErrorBanner, SessionNoticeBanner, SettingsFileBanner } from './banners.tsx';
import { HooksWaitingBanner } from './settings/HooksWaiting.tsx';
import { basename } from './cards/decode.ts';
import { Composer } from './composer/Composer.tsx';
import { McpForms } from './mcp/McpForms.tsx';
import { FindBar, useFindShortcut } from './find/FindBar.tsx';
import { focusMessageBox, useRefocusOnChange } from './focus.ts';
import { Footer } from './composer/Footer.tsx';
import { ContextNote } from './composer/ContextNote.tsx';
import { LimitNote } from './composer/LimitNote.tsx';
import { SessionList } from './sessions/SessionList.tsx';
import { OutboxNote } from './transport/OutboxNote.tsx';
import { SettingsScreen } from './settings/SettingsScreen.tsx';
import { Welcome } from './settings/Welcome.tsx';
import { usePanel } from './store/store.ts';
import { useDocumentTheme } from './theme.ts';
import { Transcript } from './transcript/Transcript.tsx';
import { ForkOrigin } from './rewind/ForkOrigin.tsx';
import { AgentOrigin } from './sessions/AgentOrigin.tsx';
import { RewindLayer } from './rewind/RewindLayer.tsx';
import { FileViewer } from './files/FileViewer.tsx';

// The panel's layout. The data-testids and roles the e2e specs rely on are listed in
// renderer/TESTIDS.md; keep that list in step when one changes.

/** Where the session list overlays the transcript instead of standing beside it (panel.css agrees). */
const OVERLAY_QUERY = '(max-width: 720px)';

function sessionsOverlay(): boolean {
  return typeof matchMedia === 'function' && matchMedia(OVERLAY_QUERY).matches;
}

function CopyTranscriptButton() {
  const actions = useActions();
  const [copied, setCopied] = useState<boolean | null>(null);
  useEffect(() => {
    if (copied === null) return;
    const timer = setTimeout(() => setCopied(null), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      className="button small"
      data-testid="copy-transcript"
      aria-label={copied === null ? 'Copy transcript' : undefined}
      onClick={() => void actions.copyTranscript().then(setCopied)}
    >
      {copied === null ? (
        <>
          Copy<span className="wide-only"> transcript</span>
        </>
      ) : copied ? (
        'Copied'
      ) : (
        'Could not copy'
      )}
    </button>
  );
}

function TopBar() {
  const workspace = usePanel((state) => state.workspace);
  const sessionsOpen = usePanel((state) => state.sessionsOpen);
  const setSessionsOpen = usePanel((state) => state.setSessionsOpen);
  const view = usePanel((state) => state.view);
  const setView = usePanel((state) => state.setView);
  const sessionsButton = useRef<HTMLButtonElement>(null);
  const settingsButton = useRef<HTMLButtonElement>(null);
  // Closing the session list (a session opened) or the settings (Done, Esc) returns focus to the button that opened it.
  useRefocusOnChange(sessionsOpen, sessionsButton, !sessionsOpen);
  useRefocusOnChange(view, settingsButton, view === 'transcript');
  return (
    <header className="topbar">
      <button
        ref={sessionsButton}
        type="button"
        className="icon-button"
        data-testid="sessions-button"
        aria-label="Sessions"
        aria-expanded={sessionsOpen}
        aria-controls="sessions-panel"
        onClick={() => setSessionsOpen(!sessionsOpen)}
      >
        ☰
      </button>
      <h1 className="app-title">ÆtherCodex</h1>
      <span className="workspace-name" data-testid="workspace" title={workspace}>
        {basename(workspace)}
      </span>
      <span className="card-spacer" />
      <CopyTranscriptButton />
      <button
        ref={settingsButton}
        type="button"
        className="icon-button"
        data-testid="settings-button"
        aria-label="Settings"
        aria-pressed={view === 'settings'}
        onClick={() => setView(view === 'settings' ? 'transcript' : 'settings')}
      >
        ⚙
      </button>
    </header>
  );
}

/**
 * Esc closes what is on top first: the settings screen, or the session list when focus is in it or
 * it covers the transcript. Otherwise it stops the running turn, and focus goes back to the
 * message box.
 */
function useEscape() {
  const actions = useActions();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const state = usePanel.getState();
      const inSessions = document.getElementById('sessions-panel')?.contains(document.activeElement) ?? false;
      if (state.view === 'settings') {
        state.setView('transcript');
      } else if (state.sessionsOpen && (inSessions || sessionsOverlay())) {
        event.preventDefault();
        state.setSessionsOpen(false);
      } else {
        if (state.transcript.activeTurnId !== null) {
          event.preventDefault();
          void actions.stop();
        }
        focusMessageBox();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [actions]);
}

export function App() {
  const theme = usePanel((state) => state.settings?.theme ?? 'system');
  const view = usePanel((state) => state.view);
  const sessionsOpen = usePanel((state) => state.sessionsOpen);
  const setSessionsOpen = usePanel((state) => state.setSessionsOpen);
  useDocumentTheme(theme);
  useEscape();
  useFindShortcut();
  return (
    <div className="app">
      <TopBar />
      <ConnectionBanner />
      <ErrorBanner />
      <SettingsFileBanner />
      <SessionNoticeBanner />
      <HooksWaitingBanner />
      <div className="panel-body">
        {sessionsOpen ? (
          <>
            <div className="sessions-backdrop" aria-hidden="true" onClick={() => setSessionsOpen(false)} />
            <div id="sessions-panel" className="sessions-panel">
              <SessionList />
            </div>
          </>
        ) : null}
        <main className="panel-main">
          {view === 'settings' ? (
            <SettingsScreen />
          ) : (
            <>
              <Welcome />
              <FindBar />
              <ForkOrigin />
              <AgentOrigin />
              <Transcript />
              <RewindLayer />
              <FileViewer />
            </>
          )}
        </main>
      </div>
      <OutboxNote />
      <McpForms />
      <Composer />
      <ContextNote />
      <LimitNote />
      <Footer />
    </div>
  );
}
