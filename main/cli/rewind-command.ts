import { stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { StatusEvent } from '../../protocol/events.ts';
import {
  assertSessionId,
  CheckpointStore,
  codeCheckpoint,
  forkSession,
  hasTurn,
  readSessionFile,
  SessionLock,
  SessionReadError,
  sessionDirOf,
  sessionFileOf,
  sessionLockOf,
  sessionsRoot,
  turnOfCall,
} from '../agent/rewind.ts';
import type { ForkPoint } from '../session/fork.ts';
import type { RewindMode } from '../session/rewind-target.ts';
import type { Checkpoint, RewindPreview } from '../tools/checkpoints/checkpoint-store.ts';
import type { ConflictChoice, ConflictResolution, RewindConflict } from '../tools/checkpoints/conflicts.ts';
import { parseCommandLine, UsageError, type Command } from './command.ts';
import { describeRewindTurns, rewindTurns } from './rewind-list.ts';
import { sessionReadFailure } from './session-read-failure.ts';
import { terminalSafe } from './terminal-text.ts';

// `aether rewind SESSION TARGET`: the code (the default), the conversation, or both, back to a
// point of the session. TARGET is a call id (a card), a turn id (a message of the person), or a
// checkpoint id (how a code rewind is undone). It prints what will change, then does it;
// `--dry-run` stops after printing. Files someone other than the agent changed since the
// checkpoint are listed as conflicts: `--conflicts keep|take` decides for all of them, otherwise
// the person is asked for each (on a terminal), or told to choose (elsewhere). A conversation
// rewind forks a new session before the turn (the original stays) and prints its message.
// Without TARGET it lists the session's turns and the calls that could change the workspace.

export const rewindCommand: Command = {
  usage:
    'rewind SESSION [CALL_ID|TURN_ID|CHECKPOINT_ID] [--code|--conversation|--both] [--conflicts keep|take] [--dry-run] [--sessions DIR]  (without a target: the turns and calls to choose from)',
  async run(argv) {
    const { values, positionals } = parseCommandLine(argv, {
      sessions: { type: 'string' },
      code: { type: 'boolean' },
      conversation: { type: 'boolean' },
      both: { type: 'boolean' },
      conflicts: { type: 'string' },
      'dry-run': { type: 'boolean' },
    });
    if ([values.code, values.conversation, values.both].filter(Boolean).length > 1)
      throw new UsageError('Give one of --code, --conversation and --both.');
    const mode: RewindMode = values.both ? 'both' : values.conversation ? 'conversation' : 'code';
    const choice = values.conflicts;
    if (choice !== undefined && !isChoice(choice))
      throw new UsageError('--conflicts takes keep (your versions stay) or take (the checkpoint’s come back).');
    const [sessionId, target, ...extra] = positionals;
    if (!sessionId || extra.length > 0)
      throw new UsageError(
        'Give a session id (aether sessions lists them), then the call, turn or checkpoint id to rewind to.',
      );
    assertSessionId(sessionId);
    const root = sessionsRoot({ flag: values.sessions });
    let session;
    try {
      session = await readSessionFile(sessionFileOf(root, sessionId));
    } catch (error) {
      if (!(error instanceof SessionReadError)) throw error;
      process.stderr.write(sessionReadFailure(error.message, values.sessions));
      return 1;
    }
    const { header, events } = session;
    if (!target) {
      process.stdout.write(describeRewindTurns(sessionId, rewindTurns(events), values.sessions));
      return 0;
    }
    const dryRun = values['dry-run'] === true;
    const run: Run = { root, sessionId, target, events, dryRun, choice };

    // The code first: a conflict left open stops the rewind before the conversation is forked.
    if (mode !== 'conversation') {
      const code = await rewindCode({ ...run, workspace: header.workspace, mode });
      if (code !== 0) return code;
    }
    if (mode !== 'code') return rewindConversation(run);
    return 0;
  },
};

interface Run {
  root: string;
  sessionId: string;
  target: string;
  events: StatusEvent[];
  dryRun: boolean;
  choice: ConflictChoice | undefined;
}

async function rewindCode(run: Run & { workspace: string; mode: RewindMode }): Promise<number> {
  const { sessionId, target } = run;
  const folder = path.join(sessionDirOf(run.root, sessionId), 'checkpoints');
  if (!(await stat(folder).catch(() => null))) {
    if (run.mode === 'both') return nothingToRewind();
    process.stderr.write(`Session ${sessionId} has no checkpoints (${terminalSafe(folder)}).\n`);
    return 1;
  }
  // A session another process has open is not rewound under it.
  const lock = await SessionLock.acquire(sessionLockOf(run.root, sessionId), sessionId);
  try {
    const store = await CheckpointStore.open(folder, run.workspace);
    if (store.recoveryNotice) process.stderr.write(`${terminalSafe(store.recoveryNotice)}\n`);
    const checkpoint = codeCheckpoint(store, run.events, target, run.mode);
    if (!checkpoint) {
      if (run.mode === 'both' && (turnOfCall(run.events, target) ?? hasTurn(run.events, target)))
        return nothingToRewind();
      process.stderr.write(
        `No checkpoint for ${terminalSafe(target)} in session ${sessionId}: the call took none (a read), ` +
          'or it was pruned by the storage limit. Give another call id.\n',
      );
      return 1;
    }
    const preview = await store.preview(checkpoint.id);
    process.stdout.write(describePlan(checkpoint, preview));
    if (run.dryRun) {
      if (preview.conflicts.length > 0)
        process.stdout.write(
          'Choose with --conflicts keep (yours stay) or --conflicts take (the checkpoint’s come back).\n',
        );
      return 0;
    }
    const resolution = run.choice ?? (preview.conflicts.length > 0 ? await ask(preview.conflicts) : undefined);
    if (resolution === null) {
      process.stderr.write(
        `${preview.conflicts.length} file(s) were changed since the checkpoint by someone other than the agent; nothing was rewound. ` +
          'Run again with --conflicts keep to leave them as they are, or --conflicts take to bring back the checkpoint’s.\n',
      );
      return 1;
    }
    const { undo, report, kept } = await store.rewind(checkpoint.id, resolution);
    process.stdout.write(
      `Rewound ${report.written.length + report.removed.length} entries.` +
        (kept.length > 0 ? ` Kept as you left them: ${terminalSafe(kept.join(', '))}.` : '') +
        (report.notRestorable.length > 0
          ? ` Not restorable (left as they are): ${terminalSafe(report.notRestorable.join(', '))}.`
          : '') +
        `\nUndo with: aether rewind ${sessionId} ${undo.id}\n`,
    );
    return 0;
  } finally {
    await lock.release();
  }
}

function isChoice(value: string): value is ConflictChoice {
  return value === 'keep' || value === 'take';
}

function nothingToRewind(): number {
  process.stdout.write('Code: nothing to rewind (no call since that point changed the workspace).\n');
  return 0;
}

async function rewindConversation(run: Run): Promise<number> {
  const { sessionId, target, events } = run;
  const turnId = turnOfCall(events, target) ?? (hasTurn(events, target) ? target : null);
  if (turnId === null) {
    process.stderr.write(
      `Session ${sessionId} has no call or message ${terminalSafe(target)} to rewind the conversation to. ` +
        'Give a call id or a turn id from this session.\n',
    );
    return 1;
  }
  const message = events.find((event) => event.type === 'user_message' && event.turn_id === turnId);
  const text = message?.type === 'user_message' ? message.text : '';
  if (run.dryRun) {
    process.stdout.write(
      terminalSafe(`Conversation: would fork session ${sessionId} before the message:\n${indent(text)}\n`),
    );
    return 0;
  }
  const at: ForkPoint = turnOfCall(events, target) === null ? { turnId } : { callId: target };
  const fork = await forkSession(run.root, sessionId, at);
  process.stdout.write(
    terminalSafe(
      `Conversation: forked as session ${fork.id} (${sessionId} stays as it was), before the message:\n${indent(fork.message)}\n` +
        `Edit it and send it again with: aether run "…" --resume ${fork.id}\n`,
    ),
  );
  return 0;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

/** Asks the person about each conflict on a terminal; null when there is no one to ask. */
async function ask(conflicts: readonly RewindConflict[]): Promise<ConflictResolution | null> {
  if (!process.stdin.isTTY) return null;
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  const choices: Record<string, ConflictChoice> = {};
  try {
    for (const conflict of conflicts) {
      const verb = conflict.action === 'remove' ? 'remove it' : 'take the checkpoint’s';
      for (;;) {
        const answer = (
          await prompt.question(terminalSafe(`${conflict.path}: keep yours (k) or ${verb} (t)? `))
        ).trim();
        if (answer === 'k' || answer === 't') {
          choices[conflict.path] = answer === 'k' ? 'keep' : 'take';
          break;
        }
      }
    }
  } finally {
    prompt.close();
  }
  return choices;
}

function describePlan(checkpoint: Checkpoint, plan: RewindPreview): string {
  const where = checkpoint.call_id ? `before call ${checkpoint.call_id}` : checkpoint.label;
  const lines = [`Checkpoint ${checkpoint.id} (${where}, ${checkpoint.created_at}):`];
  for (const { path: entry, entry: was } of plan.removals)
    lines.push(`  remove   ${entry}${was.kind === 'dir' ? '/' : ''}`);
  for (const { path: entry, entry: now } of plan.writes)
    lines.push(
      `  ${now.kind === 'large' ? 'cannot restore (over the size limit)' : 'restore '} ${entry}${now.kind === 'dir' ? '/' : ''}`,
    );
  if (lines.length === 1) lines.push('  nothing to change: the workspace is as it was.');
  if (plan.conflicts.length > 0) {
    lines.push('Changed since by someone other than the agent (conflicts):');
    for (const conflict of plan.conflicts)
      lines.push(`  ${conflict.path} (the rewind would ${conflict.action === 'remove' ? 'remove it' : 'restore it'})`);
  }
  return `${terminalSafe(lines.join('\n'))}\n`;
}
