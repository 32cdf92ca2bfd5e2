import type { SessionSummary } from '../../protocol/api.ts';

// The session list's groups: the sessions of this workspace first, then those of each other
// workspace (the one used most recently first), newest first inside each.

export interface SessionGroupEntry {
  workspace: string;
  sessions: SessionSummary[];
}

export function groupByWorkspace(sessions: readonly SessionSummary[], current: string): SessionGroupEntry[] {
  const sorted = [...sessions].sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  const groups = new Map<string, SessionSummary[]>();
  for (const session of sorted) {
    const group = groups.get(session.workspace);
    if (group) group.push(session);
    else groups.set(session.workspace, [session]);
  }
  const entries = [...groups].map(([workspace, members]) => ({ workspace, sessions: members }));
  // Map order is first appearance, newest first; this workspace goes to the top.
  return [
    ...entries.filter((entry) => entry.workspace === current),
    ...entries.filter((entry) => entry.workspace !== current),
  ];
}
