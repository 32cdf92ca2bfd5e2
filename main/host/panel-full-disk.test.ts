import { realpath, rm, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { fillAllButOnePage, mountSmallFilesystem, type SmallFilesystem } from '../../test/small-filesystem.ts';
import { startFixtureServer } from '../model/fixture-server.ts';
import { readSessionFile } from '../session/replay.ts';
import { SettingsStore } from './settings-store.ts';
import { testPanelService } from '../../test/panel-service-kit.ts';

// The panel keeps one session open across turns; its sessions folder here is a real 1 MiB tmpfs.

let small: SmallFilesystem | undefined;
let unavailable = '';

beforeAll(async () => {
  const mounted = await mountSmallFilesystem(1024 * 1024);
  if (mounted.ok) small = mounted.fs;
  else unavailable = mounted.reason;
});

afterAll(async () => {
  await small?.unmount();
});

it('tells the panel a message could not be saved on a full disk, and saves the next one whole', async (context) => {
  if (!small) return context.skip(unavailable);
  const server = await startFixtureServer({ script: { steps: [{ text: ['One.'] }, { text: ['Two.'] }] } });
  const workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-fulldisk-ws-')));
  const service = testPanelService({
    workspace,
    sessionsRoot: path.join(small.dir, 'sessions'),
    settings: new SettingsStore(path.join(workspace, '.config'), {
      overrides: { model: `compat:${server.baseURL}#m` },
    }),
  });
  const events: StatusEvent[] = [];
  service.events.subscribe((message) => {
    if (message.event === 'status') events.push(message.payload);
  });
  const ended = (count: number) =>
    expect
      .poll(() => events.filter((event) => event.type === 'turn_completed' || event.type === 'turn_failed').length, {
        timeout: 30_000,
      })
      .toBe(count);
  try {
    await service.handlers['turn:send']({ text: 'first' });
    await ended(1);
    const filler = await fillAllButOnePage(small.dir);

    await service.handlers['turn:send']({ text: `a long message ${'x'.repeat(20_000)}` });
    await ended(2);
    const failed = events.filter((event) => event.type === 'turn_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.type === 'turn_failed' && failed[0].error).toMatch(
      /could not be saved: .*ENOSPC.*the file was cut back to its last whole record/s,
    );

    await rm(filler);
    await service.handlers['turn:send']({ text: 'the next message' });
    await ended(3);
    const file = path.join(small.dir, 'sessions', `${(await service.info()).session?.id}.jsonl`);
    await service.close();
    const replay = await readSessionFile(file);
    expect(replay.corrupt).toEqual([]);
    expect(replay.torn).toBeNull();
    expect(replay.events.flatMap((event) => (event.type === 'user_message' ? [event.text] : []))).toEqual([
      'first',
      'the next message',
    ]);
    expect(replay.events.filter((event) => event.type === 'turn_completed')).toHaveLength(2);
  } finally {
    await service.close();
    await server.close();
    await rm(workspace, { recursive: true, force: true });
  }
});
