import type { OutputCapture } from '../exec/exec-output.ts';
import type { GroupHandOff } from '../exec/run-in-group.ts';
import type { ToolContext } from '../tool.ts';
import { pipedIo } from './process-io.ts';
import type { ProcessTable } from './process-table.ts';

// A foreground command that keeps running moves into the session's process table instead of
// being stopped: at its timeout, or when the person presses Keep running in the background on its
// card. It keeps its pipes, its process group and its mark; what it printed so far opens its
// output there, and its call ends saying where it went.

export interface MovingCommand extends Pick<ToolContext, 'callId' | 'sessionDir'> {
  command: string;
  capture: OutputCapture;
}

/**
 * exec's hand-off to `table`. `moved` is told once the command has moved and returns what to do
 * when the process ends (let go of its sandbox).
 */
export function moveToTable(
  table: ProcessTable,
  command: MovingCommand,
  moved: () => () => Promise<void>,
): GroupHandOff {
  return {
    listen: (move) => table.offerMove(command.callId, async () => table.get((await move()).id)),
    async take(running) {
      const limits = await table.room();
      if (!running.detach()) throw new Error('The command ended before it could move.');
      const process = table.add(
        {
          callId: command.callId,
          sessionDir: command.sessionDir,
          request: { shell: '', command: command.command, cwd: '', env: {} },
          tty: false,
          adopt: {
            io: pipedIo(running.child),
            processes: running.processes,
            earlier: Buffer.from(command.capture.accumulator.progress().text),
            startedAt: running.startedAt,
          },
        },
        limits,
      );
      const release = moved();
      process.onEnded(() => void release().catch(() => undefined));
      return { id: process.id, pid: process.pid ?? null };
    },
  };
}
