import type { PanelHandlers } from '../../protocol/api.ts';
import type { AgentSession } from '../agent/agent-session.ts';
import { childOfCall, childSessionEvents } from '../agent/agents/child-sessions.ts';
import { revertChanges, turnChanges } from './changes-panel.ts';
import { attempt, noSession, ok, type Refusal } from './panel-results.ts';
import { applyRewind, previewRewind } from './rewind-panel.ts';
import type { ShownSession } from './shown-session.ts';

// The requests about the open session itself: its calls, its grants, compaction, rewinding and the
// changes of its turns. Each answers "no session" before one exists rather than starting one.

export interface OpenSessionAccess {
  /** The live session, null before one is started or opened. */
  session(): AgentSession | null;
  shown: ShownSession;
  sessionsRoot: string;
  /** Runs after the session switches, model changes and sends queued before it. */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
}

type OpenSessionChannel =
  | 'tool:cancel'
  | 'tool:approve'
  | 'tool:content'
  | 'tool:preview'
  | 'tool:keep-preview'
  | 'session:grants'
  | 'agent:transcript'
  | 'session:revoke'
  | 'session:compact'
  | 'rewind:preview'
  | 'rewind:apply'
  | 'changes:turn'
  | 'changes:revert';

/** What changes the session's files or history waits for its turn to end. */
export function busyRefusal(session: AgentSession | null, what: string): Refusal | null {
  return session?.busy ? { ok: false, error: `A turn is still running: stop it (Esc) before you ${what}.` } : null;
}

export function openSessionHandlers(open: OpenSessionAccess): Pick<PanelHandlers, OpenSessionChannel> {
  const { exclusive, sessionsRoot } = open;
  return {
    'tool:cancel': async ({ call_id }) => {
      // Stop on a card: only a call of the running turn can be cancelled.
      const session = open.session();
      const viewed = open.shown.viewRefusal('stop its calls');
      if (viewed) return viewed;
      if (!session) return noSession();
      if (!session.busy)
        return { ok: false, error: 'No turn is running, so this call has already finished; there is nothing to stop.' };
      return session.cancelCall(call_id);
    },
    'tool:approve': async ({ call_id, answer, review }) =>
      open.shown.viewRefusal('answer its questions') ?? open.session()?.approve(call_id, answer, review) ?? noSession(),
    'tool:preview': async ({ call_id }) =>
      open.shown.viewRefusal('preview its commands') ?? (await open.session()?.previewCall(call_id)) ?? noSession(),
    'tool:keep-preview': async ({ call_id }) =>
      open.shown.viewRefusal('answer its questions') ?? (await open.session()?.keepPreview(call_id)) ?? noSession(),
    'tool:content': async ({ call_id }) => {
      const record = open.shown.content(call_id);
      if (record)
        return ok({ call_id: record.call_id, name: record.name, content: record.content, is_error: record.is_error });
      return open.session()?.toolContent(call_id) ?? noSession();
    },
    'session:grants': async () => ok(open.session()?.gate.sessionGrants() ?? []),
    'agent:transcript': async (request) =>
      attempt(async () =>
        childSessionEvents(
          sessionsRoot,
          request.parent,
          'session' in request ? request.session : await childOfCall(sessionsRoot, request.parent, request.call_id),
        ),
      ),
    'session:revoke': async ({ rule }) => {
      const session = open.session();
      if (!session) return noSession();
      if (!session.gate.revokeGrant(rule))
        return { ok: false, error: `${rule} is not allowed for this session (any more); nothing to revoke.` };
      return ok(session.gate.sessionGrants());
    },
    'session:compact': async ({ focus }) =>
      open.shown.viewRefusal('compact it') ?? open.session()?.compact(focus) ?? noSession(),
    'rewind:preview': (request) =>
      exclusive(async () => {
        const session = open.session();
        const viewed = open.shown.viewRefusal('rewind it');
        if (viewed) return viewed;
        if (!session) return noSession();
        return busyRefusal(session, 'rewind') ?? attempt(() => previewRewind(session, request));
      }),
    'rewind:apply': (request) =>
      exclusive(async () => {
        const session = open.session();
        const viewed = open.shown.viewRefusal('rewind it');
        if (viewed) return viewed;
        if (!session) return noSession();
        return busyRefusal(session, 'rewind') ?? attempt(() => applyRewind(session, sessionsRoot, request));
      }),
    'changes:turn': ({ turn_id }) =>
      exclusive(async () => {
        const session = open.session();
        const viewed = open.shown.viewRefusal('see the changes of its turns');
        if (viewed) return viewed;
        if (!session) return noSession();
        return attempt(() => turnChanges(session, turn_id));
      }),
    'changes:revert': (request) =>
      exclusive(async () => {
        const session = open.session();
        const viewed = open.shown.viewRefusal('revert the changes of its turns');
        if (viewed) return viewed;
        if (!session) return noSession();
        return busyRefusal(session, 'revert') ?? attempt(() => revertChanges(session, request));
      }),
  };
}
