import { sweepWorkspace } from '../tools/files/temp-files.ts';
import { endLeftProcesses } from './started-processes.ts';

// What a process cleans up as it starts to work: the temp files killed writers left in a
// workspace, and the commands and MCP servers an app process that is gone left running. Each is
// housekeeping, done once per process (per workspace for the temp files) and never a failure:
// openAgentSession waits for its workspace's sweep, and a host may start both earlier.

const swept = new Map<string, Promise<void>>();
let ended: Promise<void> | null = null;

/** The workspace's stale temp files removed: a bounded walk (each write also sweeps its own folder). */
export function sweepWorkspaceOnce(workspace: string): Promise<void> {
  let sweep = swept.get(workspace);
  if (!sweep) {
    sweep = sweepWorkspace(workspace).then(
      () => undefined,
      () => undefined,
    );
    swept.set(workspace, sweep);
  }
  return sweep;
}

/** The processes marked with an app process that no longer runs, ended (SIGTERM, then SIGKILL after a grace). */
export function endLeftProcessesOnce(): Promise<void> {
  ended ??= endLeftProcesses().then(
    () => undefined,
    () => undefined,
  );
  return ended;
}

/** Both, side by side: what `aether run` waits for before its session opens. */
export async function startSweep(workspace: string): Promise<void> {
  await Promise.all([sweepWorkspaceOnce(workspace), endLeftProcessesOnce()]);
}
