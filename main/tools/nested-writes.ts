import type { CallHook } from './call-hooks.ts';

// Nested calls' records on their way to the session log, held by the call that made them. A nested
// call's records are made durable with its program's result (they are written without an fsync of
// their own), so the program hears back without waiting for them; the program's completion waits
// for them, and fails as its own write would if one of them failed.

export function nestedWritesHook(): CallHook {
  const held = new Map<string, Promise<unknown>[]>();
  return {
    name: 'nested writes',
    settle(call, written) {
      if (call.parent) {
        // Awaited by the parent's completion; until then a failure is not an unhandled rejection.
        written.catch(() => undefined);
        const list = held.get(call.parent);
        if (list) list.push(written);
        else held.set(call.parent, [written]);
        return Promise.resolve();
      }
      const nested = held.get(call.callId);
      if (!nested) return written;
      held.delete(call.callId);
      return Promise.all([written, ...nested]);
    },
  };
}
