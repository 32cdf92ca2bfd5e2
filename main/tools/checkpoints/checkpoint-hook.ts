import type { ToolCheckpoint } from '../../../protocol/events.ts';
import type { CallHook, HookedCall } from '../call-hooks.ts';
import type { CallCheckpoints } from './call-checkpoints.ts';

// Checkpoints as a call hook: before a top-level call that may change the workspace runs, the
// workspace is recorded (a failure refuses the call), and the checkpoint goes with its completion
// (the card's rewind); once it ran, however it ended, the workspace is recorded again. A nested
// call is covered by its program's checkpoint. A call judged as a read that may still change the
// workspace (`gate.mayChange`: an agent whose child may write) is recorded around as a write is.

export function checkpointHook(checkpoints: CallCheckpoints): CallHook {
  const taken = new WeakMap<HookedCall, ToolCheckpoint>();
  return {
    name: 'checkpoints',
    async beforeExecute(hooked) {
      const { call, tool } = hooked;
      if (call.parent) return undefined;
      const kind = tool.gate.mayChange?.(hooked.args) ? 'write' : tool.gate.kind;
      const touches = touchedPaths(hooked);
      const checkpoint = await checkpoints.before({
        callId: call.callId,
        name: tool.name,
        kind,
        ...(touches ? { touches } : {}),
      });
      if (!checkpoint) return undefined;
      taken.set(hooked, checkpoint);
      return { completion: { checkpoint } };
    },
    async afterExecute(hooked) {
      const checkpoint = taken.get(hooked);
      if (checkpoint) await checkpoints.after?.({ callId: hooked.call.callId, name: hooked.tool.name, checkpoint });
      return undefined;
    },
  };
}

/** The real paths a write changes, as its gate resolved them; undefined when they are not all known. */
function touchedPaths(hooked: HookedCall): string[] | undefined {
  const { tool, args, context } = hooked;
  if (tool.gate.kind !== 'write' || tool.gate.mayChange?.(args) || !tool.gate.paths) return undefined;
  try {
    return tool.gate.paths(args).map((access) => context.resolvedPath(access.path));
  } catch {
    return undefined;
  }
}
