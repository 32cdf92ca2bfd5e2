// What the hosts' rewind and Changes requests are made of (`aether rewind`, the panel's ↶ menu and
// the Changes card): a session's events read back, the turn or call a rewind goes to, the
// checkpoint store that takes the code back (its conflicts with the person's own later edits), a
// turn's changes and the revert of one hunk, and the fork that takes the conversation back.

export { CheckpointStore } from '../tools/checkpoints/checkpoint-store.ts';
export { RewindConflictError } from '../tools/checkpoints/conflicts.ts';
export { revertHunk } from '../tools/checkpoints/revert-hunk.ts';
export { spanChanges, turnSpan } from '../tools/checkpoints/turn-changes.ts';
export { forkSession } from '../session/fork.ts';
export { readSessionFile, SessionReadError } from '../session/replay.ts';
export { codeCheckpoint, hasTurn, turnOfCall } from '../session/rewind-target.ts';
export { SessionLock } from '../session/session-lock.ts';
export { assertSessionId, sessionDirOf, sessionFileOf, sessionLockOf } from '../session/session-log.ts';
export { sessionsRoot } from '../session/paths.ts';
