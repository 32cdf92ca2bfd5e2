import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { deleteSession } from '../session/catalog.ts';
import { readSessionFile } from '../session/replay.ts';
import { sessionLines, startRig, type Rig } from '../../test/agent-kit.ts';

// A session's checkpoints, end to end over the fixture model: taken before the model's write,
// named in the session log with the call, kept in the session's folder and deleted with it.

let rig: Rig | undefined;

afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

it("records the checkpoint before a model's write in the session log with the call, and deletes it with the session", async () => {
  rig = await startRig('openai', {
    script: {
      steps: [
        {
          text: ['Writing.'],
          tool_calls: [{ id: 'call_w', name: 'append_line', args: { path: 'notes.txt', line: 'two' } }],
        },
        { text: ['Done.'] },
      ],
    },
  });
  await writeFile(path.join(rig.workspace, 'notes.txt'), 'one\n');
  rig.session.send('Add a line');
  expect((await rig.session.idle())?.status).toBe('completed');

  const lines = await sessionLines(rig.session.log.file);
  const logged = lines
    .map((line) => line['event'] as Record<string, unknown> | undefined)
    .find((event) => event?.['type'] === 'tool_completed');
  const id = (logged?.['checkpoint'] as { id?: string } | undefined)?.id ?? '';
  expect(id).toMatch(/^cp-[0-9a-f]{12}$/);
  const replayed = (await readSessionFile(rig.session.log.file)).events.find((e) => e.type === 'tool_completed');
  expect(replayed).toMatchObject({ call_id: 'call_w', checkpoint: { id } });

  const store = await rig.session.checkpoints.store();
  expect(store.folder).toBe(path.join(rig.session.log.dir, 'checkpoints'));
  await store.rewind(id);
  expect(await readFile(path.join(rig.workspace, 'notes.txt'), 'utf8')).toBe('one\n');

  const sessionId = rig.session.log.id;
  await rig.session.close();
  await deleteSession(rig.root, sessionId);
  await expect(access(store.folder)).rejects.toThrow(/ENOENT/);
});
