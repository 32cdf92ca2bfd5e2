import type { PanelHandlers } from '../../protocol/api.ts';
import type { ProcessTable } from '../tools/processes/process-table.ts';
import { attempt, noSession, ok } from './panel-results.ts';
import type { ShownSession } from './shown-session.ts';

// The Processes strip's requests: the open session's background processes with their ports and
// last lines now, one process's newest output (its screen in a terminal), and Stop; and an exec
// card's Keep running in the background, which moves its command into the table.

/** The most of a process's newest output the live view shows. */
const VIEW_BYTES = 64 * 1024;

export interface ProcessAccess {
  /** The open session's process table; null before a session is open. */
  processes(): ProcessTable | null;
  shown: ShownSession;
}

type ProcessChannel = 'process:list' | 'process:output' | 'process:stop' | 'process:keep';

export function processHandlers(access: ProcessAccess): Pick<PanelHandlers, ProcessChannel> {
  return {
    'process:list': async () => {
      // A session viewed read-only has no processes of its own running here.
      const table = access.shown.viewRefusal('see its processes') ? null : access.processes();
      if (!table) return ok([]);
      return ok(await Promise.all(table.list().map((process) => table.info(process))));
    },
    'process:output': async ({ id }) => {
      const table = access.processes();
      if (!table) return noSession();
      return attempt(async () => {
        const process = table.get(id);
        await process.screen?.settled();
        const slice = process.output.read(Math.max(0, process.output.bytes - VIEW_BYTES), VIEW_BYTES);
        return {
          process: await table.info(process),
          text: slice.text,
          before: slice.from,
          ...(process.screen ? { screen: process.screen.text() } : {}),
        };
      });
    },
    'process:stop': async ({ id }) => {
      const viewed = access.shown.viewRefusal('stop its processes');
      if (viewed) return viewed;
      const table = access.processes();
      if (!table) return noSession();
      return attempt(async () => table.info(await table.stop(id, 'person')));
    },
    'process:keep': async ({ call_id }) => {
      const viewed = access.shown.viewRefusal('move its commands');
      if (viewed) return viewed;
      const table = access.processes();
      if (!table) return noSession();
      return attempt(async () => table.info(await table.moveToBackground(call_id)));
    },
  };
}
