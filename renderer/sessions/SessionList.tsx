import { useEffect, useMemo, useRef, useState } from 'react';
import type { AgentChoice, SessionMatch, SessionSummary } from '../../protocol/api.ts';
import { useActions } from '../actions.ts';
import { basename } from '../cards/decode.ts';
import { useRefocusOnChange } from '../focus.ts';
import { useFocusTrap } from './focus-trap.ts';
import { usePanel } from '../store/store.ts';
import { groupByWorkspace } from './session-groups.ts';
import { SessionItem } from './SessionItem.tsx';

// Old sessions, newest first, grouped by workspace (this one first): open one (its cards are
// rebuilt from its log; one of another workspace opens read-only), start a new one, rename or
// delete one, or search their names and messages. The list is fetched again each time it opens,
// so sessions the CLI or another window wrote meanwhile are there. Opening it moves focus into
// it; ✕ (or Esc, see app.tsx) closes it and focus goes back to ☰.

const SEARCH_DELAY_MS = 150;

/** Where the list overlays the transcript (app.tsx and base.css agree): focus stays in it there. */
const overlaid = () => typeof matchMedia === 'function' && matchMedia('(max-width: 720px)').matches;

/** The sessions matching the search box, asked for once the person pauses; null while it is empty. */
function useSessionSearch(query: string): Map<string, string> | null {
  const actions = useActions();
  const [matches, setMatches] = useState<SessionMatch[] | null>(null);
  useEffect(() => {
    if (query.trim() === '') {
      setMatches(null);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      void actions.searchSessions(query).then((found) => {
        if (current) setMatches(found ?? []);
      });
    }, SEARCH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [actions, query]);
  return useMemo(() => (matches ? new Map(matches.map((match) => [match.id, match.snippet])) : null), [matches]);
}

function SessionGroup({
  label,
  sessions,
  currentId,
  snippets,
}: {
  label: string;
  sessions: SessionSummary[];
  currentId: string | undefined;
  snippets: Map<string, string> | null;
}) {
  const headingId = `sessions-group-${label.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  return (
    <section className="session-group" data-testid="session-group" aria-labelledby={headingId}>
      <h3 id={headingId} className="session-group-title">
        {label}
      </h3>
      <ul>
        {sessions.map((session) => (
          <SessionItem
            key={session.id}
            session={session}
            current={session.id === currentId}
            currentId={currentId}
            {...(snippets?.get(session.id) ? { snippet: snippets.get(session.id) } : {})}
          />
        ))}
      </ul>
    </section>
  );
}

export function SessionList() {
  const actions = useActions();
  const sessions = usePanel((state) => state.sessions);
  const workspace = usePanel((state) => state.workspace);
  const currentId = usePanel((state) => state.session?.id);
  const setOpen = usePanel((state) => state.setSessionsOpen);
  const [query, setQuery] = useState('');
  const snippets = useSessionSearch(query);
  const shown = snippets ? sessions.filter((session) => snippets.has(session.id)) : sessions;
  const groups = groupByWorkspace(shown, workspace);
  const newButton = useRef<HTMLButtonElement>(null);
  const nav = useRef<HTMLElement>(null);
  useFocusTrap(nav, overlaid);
  useEffect(() => newButton.current?.focus(), []);
  // A deleted session takes its focused Delete button with it.
  useRefocusOnChange(sessions.length, newButton);
  useEffect(() => {
    void actions.refreshSessions();
  }, [actions]);
  return (
    <nav ref={nav} className="sessions" aria-label="Sessions" data-testid="session-list">
      <div className="sessions-head">
        <h2>Sessions</h2>
        <button
          ref={newButton}
          type="button"
          className="button small primary"
          data-testid="session-new"
          onClick={() => void actions.newSession()}
        >
          New session
        </button>
        <button
          type="button"
          className="icon-button"
          data-testid="sessions-close"
          aria-label="Close sessions"
          title="Close"
          onClick={() => setOpen(false)}
        >
          ✕
        </button>
      </div>
      <NewSessionAs />
      <div className="sessions-search">
        <input
          type="search"
          className="sessions-search-input"
          data-testid="session-search"
          aria-label="Search sessions by name and messages"
          placeholder="Search sessions"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      {sessions.length === 0 ? <p className="card-note">No sessions yet.</p> : null}
      {snippets && shown.length === 0 ? (
        <p className="card-note" data-testid="session-search-empty" role="status">
          No session holds “{query.trim()}”.
        </p>
      ) : null}
      {groups.map((group) => (
        <SessionGroup
          key={group.workspace}
          label={group.workspace === workspace ? `This workspace (${basename(workspace)})` : basename(group.workspace)}
          sessions={group.sessions}
          currentId={currentId}
          snippets={snippets}
        />
      ))}
    </nav>
  );
}

/** Starts a new session as one of the agents (a native menu: the keyboard and screen readers know it). */
function NewSessionAs() {
  const actions = useActions();
  const [agents, setAgents] = useState<AgentChoice[] | null>(null);
  useEffect(() => {
    let current = true;
    void actions.listAgents().then((listed) => {
      if (current) setAgents(listed);
    });
    return () => {
      current = false;
    };
  }, [actions]);
  if (!agents || agents.length === 0) return null;
  return (
    <label className="sessions-new-as">
      <span>New session as</span>
      <select
        data-testid="session-new-as"
        value=""
        onChange={(event) => {
          if (event.target.value) void actions.newSession(event.target.value);
        }}
      >
        <option value="">an agent…</option>
        {agents.map((agent) => (
          <option
            key={agent.name}
            value={agent.name}
            disabled={!agent.approved}
            title={agent.approved ? agent.description : `Approve it first: aether agents approve ${agent.name}`}
          >
            {agent.name}
            {agent.approved ? '' : ' (waits for approval)'}
          </option>
        ))}
      </select>
    </label>
  );
}
