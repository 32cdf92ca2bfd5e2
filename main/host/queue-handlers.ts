import type { PanelHandlers, Result } from '../../protocol/api.ts';
import type { AgentSession } from '../agent/agent-session.ts';
import { attempt, noSession } from './panel-results.ts';
import type { ShownSession } from './shown-session.ts';

// The waiting messages of the open session (protocol/queue.ts), its todo list and Keep planning on
// its plans: each change is answered once it is on disk, so what the panel shows as changed
// survives a crash.

type QueueChannel =
  'queue:edit' | 'queue:remove' | 'queue:move' | 'queue:send' | 'queue:hold' | 'todos:set' | 'plan:keep';

export function queueHandlers(open: {
  session(): AgentSession | null;
  shown: ShownSession;
}): Pick<PanelHandlers, QueueChannel> {
  const change = async (what: string, act: (session: AgentSession) => Result<void>): Promise<Result<void>> => {
    const viewed = open.shown.viewRefusal(what);
    if (viewed) return viewed;
    const session = open.session();
    if (!session) return noSession();
    const done = act(session);
    if (!done.ok) return done;
    return savedQueue(session);
  };
  // A change the session answers once it is written (a failed write comes back as an error value).
  const written = async <T>(what: string, act: (session: AgentSession) => Promise<Result<T>>): Promise<Result<T>> => {
    const viewed = open.shown.viewRefusal(what);
    if (viewed) return viewed;
    const session = open.session();
    if (!session) return noSession();
    return attempt(async () => {
      const done = await act(session);
      if (!done.ok) throw new Error(done.error);
      return done.value;
    });
  };
  return {
    'queue:edit': ({ id, text }) => change('edit its waiting messages', (session) => session.editQueued(id, text)),
    'queue:remove': ({ id }) => change('remove its waiting messages', (session) => session.removeQueued(id)),
    'queue:move': ({ id, to }) => change('reorder its waiting messages', (session) => session.moveQueued(id, to)),
    'queue:send': () => change('send its waiting messages', (session) => session.sendQueued()),
    'queue:hold': () => change('hold its waiting messages', (session) => session.holdQueued()),
    'todos:set': ({ todos }) => written('change its todo list', (session) => session.setTodos(todos)),
    'plan:keep': ({ call_id }) => written('keep planning', (session) => session.keepPlanning(call_id)),
  };
}

/** Answers once the queue's last change is written; a failed write says so. */
export async function savedQueue(session: AgentSession): Promise<Result<void>> {
  try {
    await session.queueSaved();
    return { ok: true, value: undefined };
  } catch (error) {
    return {
      ok: false,
      error: `The waiting messages could not be saved: ${(error as Error).message}. They are kept until the app closes; free some disk space.`,
    };
  }
}
