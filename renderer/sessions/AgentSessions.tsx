import type { AgentSessionSummary } from '../../protocol/api.ts';
import { useActions } from '../actions.ts';

// The sessions a session's agents ran in, listed under it (and their own agents under them): each
// opens its transcript, read-only, with the way back to its parent above it (AgentOrigin.tsx).

export function AgentSessions({
  agents,
  parentTitle,
  currentId,
}: {
  agents: readonly AgentSessionSummary[];
  parentTitle: string;
  currentId: string | undefined;
}) {
  const actions = useActions();
  return (
    <ul className="session-agents" data-testid="session-agents" aria-label={`Agents of ${parentTitle}`}>
      {agents.map((child) => (
        <li
          key={child.id}
          className={`session-agent${child.id === currentId ? ' current' : ''}`}
          data-testid="session-agent"
          data-session-id={child.id}
        >
          <button
            type="button"
            className="session-agent-open"
            data-testid="session-agent-open"
            title={child.title}
            aria-label={`Open agent ${child.agent}'s session (read-only): ${child.title || 'no task yet'}`}
            aria-current={child.id === currentId ? 'true' : undefined}
            onClick={() => void actions.openAgentSession(child.id)}
          >
            <span className="session-agent-name">{child.agent}</span> {child.title}
          </button>
          {child.agents && child.agents.length > 0 ? (
            <AgentSessions agents={child.agents} parentTitle={`agent ${child.agent}`} currentId={currentId} />
          ) : null}
        </li>
      ))}
    </ul>
  );
}
