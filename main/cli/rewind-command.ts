import { stat } from 'node:fs/promises';
import path from 'node:path';
import { readSessionFile } from '../session/replay.ts';
import { SessionLock } from '../session/session-lock.ts';
import { assertSessionId, sessionDirOf, sessionFileOf, sessionLockOf } from '../session/session-log.ts';
import { sessionsRoot } from '../session/paths.ts';
import { CheckpointStore, type Checkpoint } from '../tools/checkpoints/checkpoint-store.ts';
import type { RestorePlan } from '../tools/checkpoints/restore.ts';
import { parseCommandLine, UsageError, type Command } from './command.ts';
import { terminalSafe } from './terminal-text.ts';

// `aether rewind SESSION CALL_ID`: brings the session's workspace back to its state just before
// that call (or to a checkpoint named by its id, which is how a rewind is undone). It prints what
// will change, then does it; `--dry-run` stops after printing. The session must not be open
// elsewhere. Only code is rewound here: rewinding the conversation is not available yet.

export const rewindCommand: Command = {
  usage: 'rewind SESSION CALL_ID|CHECKPOINT_ID [--code] [--dry-run] [--sessions DIR]',
  async run(argv) {
    const { values, positionals } = parseCommandLine(argv, {
      sessions: { type: 'string' },
      code: { type: 'boolean' },
      conversation: { type: 'boolean' },
      both: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
    });
    if (values.conversation || values.both)
      throw new UsageError('Rewinding the conversation is not available yet: only --code (the default) is.');
    const [sessionId, target, ...extra] = positionals;
    if (!sessionId || !target || extra.length > 0) throw new UsageError('Give a session id and a call id.');
    assertSessionId(sessionId);
    const root = sessionsRoot({ flag: values.sessions });
    const { header } = await readSessionFile(sessionFileOf(root, sessionId));
    const folder = path.join(sessionDirOf(root, sessionId), 'checkpoints');
    if (!(await stat(folder).catch(() => null))) {
      process.stderr.write(`Session ${sessionId} has no checkpoints (${terminalSafe(folder)}).\n`);
      return 1;
    }
    // A session another process has open is not rewound under it.
    const lock = await SessionLock.acquire(sessionLockOf(root, sessionId), sessionId);
    try {
      const store = await CheckpointStore.open(folder, header.workspace);
      if (store.recoveryNotice) process.stderr.write(`${terminalSafe(store.recoveryNotice)}\n`);
      const checkpoint = store.get(target) ?? store.list().find((entry) => entry.call_id === target);
      if (!checkpoint) {
        process.stderr.write(
          `No checkpoint for ${terminalSafe(target)} in session ${sessionId}: the call took none (a read), ` +
            'or it was pruned by the storage limit. Give another call id.\n',
        );
        return 1;
      }
      const plan = await store.preview(checkpoint.id);
      process.stdout.write(describePlan(checkpoint, plan));
      if (values['dry-run']) return 0;
      const { undo, report } = await store.rewind(checkpoint.id);
      process.stdout.write(
        `Rewound ${report.written.length + report.removed.length} entries.` +
          (report.notRestorable.length > 0
            ? ` Not restorable (left as they are): ${report.notRestorable.join(', ')}.`
            : '') +
          `\nUndo with: aether rewind ${sessionId} ${undo.id}\n`,
      );
      return 0;
    } finally {
      await lock.release();
    }
  },
};

function describePlan(checkpoint: Checkpoint, plan: RestorePlan): string {
  const where = checkpoint.call_id ? `before call ${checkpoint.call_id}` : checkpoint.label;
  const lines = [`Checkpoint ${checkpoint.id} (${where}, ${checkpoint.created_at}):`];
  for (const { path: entry, entry: was } of plan.removals)
    lines.push(`  remove   ${entry}${was.kind === 'dir' ? '/' : ''}`);
  for (const { path: entry, entry: now } of plan.writes)
    lines.push(
      `  ${now.kind === 'large' ? 'cannot restore (over the size limit)' : 'restore '} ${entry}${now.kind === 'dir' ? '/' : ''}`,
    );
  if (lines.length === 1) lines.push('  nothing to change: the workspace is as it was.');
  return `${terminalSafe(lines.join('\n'))}\n`;
}
