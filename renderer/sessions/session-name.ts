import type { SessionSummary } from '../../protocol/api.ts';

// A session's name wherever the panel shows one: its title (its first message, or the name the
// person gave it), and "New session" until it has one — never its raw id.

export function sessionName(session: Pick<SessionSummary, 'title'>): string {
  return session.title.trim() || 'New session';
}
