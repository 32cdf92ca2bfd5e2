import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { applyPatch, reversePatch, structuredPatch } from 'diff';
import { writeFileAtomic } from '../files/atomic-write.ts';
import type { Checkpoint, CheckpointStore } from './checkpoint-store.ts';
import { entryAt, MAX_EDIT_LENGTH, type TurnSpan } from './turn-changes.ts';

// Reverting one hunk of a turn's change to a file: the hunk (as the Changes card shows it, same
// context and limits as turn-changes.ts) is applied in reverse to the file as it is now, with its
// context lines matching exactly. The person's own edits elsewhere in the file stay; an edit inside
// the hunk makes it refuse, so nothing of theirs is overwritten. Like a rewind, it records the
// workspace first (rewinding to that record undoes it) and after (so the change is not the person's).

export async function revertHunk(
  store: CheckpointStore,
  span: TurnSpan,
  file: string,
  index: number,
): Promise<Checkpoint> {
  const before = await entryAt(store.objects, span.before.tree, file);
  const after = await entryAt(store.objects, span.after.tree, file);
  if (before?.kind !== 'file' || after?.kind !== 'file')
    throw new Error(`Only a hunk of a text file the turn changed can be reverted: revert ${file} whole instead.`);
  const oldText = (await store.objects.read(before.hash)).toString('utf8');
  const newText = (await store.objects.read(after.hash)).toString('utf8');
  const patch = structuredPatch(file, file, oldText, newText, '', '', { context: 3, maxEditLength: MAX_EDIT_LENGTH });
  const hunk = patch?.hunks[index];
  if (!patch || !hunk)
    throw new Error(`The diff of ${file} has no hunk ${index + 1}: nothing was reverted. Reload the Changes card.`);
  const absolute = path.join(store.workspace, file);
  const info = await lstat(absolute).catch(() => null);
  if (!info?.isFile())
    throw new Error(
      `${file} is no longer a file in the workspace: nothing was reverted. Revert the whole file instead.`,
    );
  const current = await readFile(absolute, 'utf8');
  const result = applyPatch(current, reversePatch({ ...patch, hunks: [hunk] }), { fuzzFactor: 0 });
  if (result === false)
    throw new Error(
      `${file} was changed around this hunk since the turn: nothing was reverted. ` +
        'Revert the whole file (you will be asked about your changes) or edit it yourself.',
    );
  const { checkpoint: undo } = await store.record(`before reverting a hunk of ${file}`);
  await writeFileAtomic(absolute, Buffer.from(result, 'utf8'), {
    mode: info.mode & 0o7777,
    createFoldersWithin: store.workspace,
    shown: file,
  });
  await store.recordAfter(undo.id, `after reverting a hunk of ${file}`);
  return undo;
}
