import { mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  HISTORY_CHARS,
  HISTORY_LIMIT,
  HISTORY_PROMPT_CHARS,
  withOlder,
  withoutPrompt,
  withPrompt,
} from '../../protocol/prompt-history.ts';
import { EnvKeyStore } from './key-store.ts';
import { modelCatalog } from './models.ts';
import { dispatchPanelRequest } from './panel-schemas.ts';
import { PanelService } from './panel-service.ts';
import { PromptHistoryFile } from './prompt-history.ts';
import { SettingsStore } from './settings-store.ts';

// The message box's prompt history, kept by the host in its data folder: bounded, per workspace,
// through a restart of the host, and a prompt forgotten is gone from the disk.

let base: string;
let workspace: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'aether-history-'));
  workspace = await realpath(await mkdtemp(path.join(base, 'ws-')));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('prompt history bounds', () => {
  it('puts a prompt last, moves a repeat to the end, and keeps at most HISTORY_LIMIT', () => {
    let prompts = withPrompt(withPrompt(withPrompt([], 'one'), 'two'), 'one');
    expect(prompts).toEqual(['two', 'one']);
    for (let index = 0; index < HISTORY_LIMIT + 5; index += 1) prompts = withPrompt(prompts, `p${index}`);
    expect(prompts).toHaveLength(HISTORY_LIMIT);
    expect(prompts.at(-1)).toBe(`p${HISTORY_LIMIT + 4}`);
    expect(prompts[0]).toBe('p5');
  });

  it('drops the oldest past HISTORY_CHARS in all, and never keeps an empty or oversized prompt', () => {
    const big = 'x'.repeat(HISTORY_PROMPT_CHARS);
    let prompts: string[] = ['first'];
    for (let index = 0; index < 12; index += 1)
      prompts = withPrompt(prompts, `${index}${big}`.slice(0, HISTORY_PROMPT_CHARS));
    expect(prompts.reduce((sum, entry) => sum + entry.length, 0)).toBeLessThanOrEqual(HISTORY_CHARS);
    expect(prompts).not.toContain('first');
    expect(prompts.at(-1)?.startsWith('11')).toBe(true);
    expect(withPrompt(['a'], '   ')).toEqual(['a']);
    expect(withPrompt(['a'], `${big}y`)).toEqual(['a']);
  });

  it("puts an older version's prompts before the kept ones, leaving out slash commands and what is there already", () => {
    expect(withOlder(['kept', 'newest'], ['old one', '/help', 'kept', 'old two'])).toEqual([
      'old one',
      'old two',
      'kept',
      'newest',
    ]);
    const many = Array.from({ length: HISTORY_LIMIT }, (_, index) => `old ${index}`);
    const merged = withOlder(['newest'], many);
    expect(merged).toHaveLength(HISTORY_LIMIT);
    expect(merged.at(-1)).toBe('newest');
    expect(merged[0]).toBe('old 1');
  });

  it('forgets every copy of a prompt and leaves the rest in order', () => {
    expect(withoutPrompt(['a', 'secret', 'b'], 'secret')).toEqual(['a', 'b']);
    expect(withoutPrompt(['a'], 'absent')).toEqual(['a']);
  });
});

describe('the history file', () => {
  it('keeps each workspace its own prompts, 0600, in the data folder, and a new instance reads them back', async () => {
    const data = path.join(base, 'data');
    const history = new PromptHistoryFile(data, workspace);
    expect(await history.list()).toEqual([]);
    await history.add('Fix the build');
    await history.add('Run the tests');
    await new PromptHistoryFile(data, path.join(base, 'elsewhere')).add('Another workspace');
    expect(await new PromptHistoryFile(data, workspace).list()).toEqual(['Fix the build', 'Run the tests']);
    expect(history.file.startsWith(path.join(data, 'prompt-history') + path.sep)).toBe(true);
    expect((await stat(history.file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(history.file, 'utf8'))).toEqual({
      workspace,
      prompts: ['Fix the build', 'Run the tests'],
    });
  });

  it('forgets a prompt on disk, and keeps every one of many changes made at once', async () => {
    const history = new PromptHistoryFile(base, workspace);
    await Promise.all(Array.from({ length: 20 }, (_, index) => history.add(`prompt ${index}`)));
    expect(await history.list()).toHaveLength(20);
    expect(await history.forget('prompt 3')).not.toContain('prompt 3');
    expect(await readFile(history.file, 'utf8')).not.toContain('"prompt 3"');
    expect(await new PromptHistoryFile(base, workspace).list()).toHaveLength(19);
  });

  it('moves a damaged file aside instead of writing over it, and starts again', async () => {
    const history = new PromptHistoryFile(base, workspace);
    await history.add('before');
    await writeFile(history.file, '{"workspace": "', 'utf8');
    expect(await history.list()).toEqual([]);
    await history.add('after');
    expect(await history.list()).toEqual(['after']);
    const folder = path.dirname(history.file);
    const aside = (await readdir(folder)).filter((name) => name.endsWith('.damaged.json'));
    expect(aside).toHaveLength(1);
    expect(await readFile(path.join(folder, aside[0]!), 'utf8')).toBe('{"workspace": "');
  });
});

describe('the history through the panel service', () => {
  function service(): PanelService {
    return new PanelService({
      workspace,
      sessionsRoot: path.join(base, 'sessions'),
      settings: new SettingsStore(path.join(base, 'config')),
      keys: new EnvKeyStore({}),
      models: modelCatalog({ adapter: { env: {} } }),
      version: '1.2.3',
      openLink: async (url) => ({ ok: false, error: `not here: ${url}` }),
    });
  }

  it('survives a restart of the host, and Shift+Delete forgets a prompt for the next host too', async () => {
    const first = service();
    await dispatchPanelRequest(first.handlers, 'history:add', { text: 'Remember me' });
    await dispatchPanelRequest(first.handlers, 'history:add', { text: 'Forget me' });
    expect(await dispatchPanelRequest(first.handlers, 'history:forget', { text: 'Forget me' })).toEqual({
      ok: true,
      value: ['Remember me'],
    });
    await first.close();

    const second = service();
    try {
      expect(await dispatchPanelRequest(second.handlers, 'history:list', undefined)).toEqual({
        ok: true,
        value: ['Remember me'],
      });
      // Kept beside settings.json, in the app's data folder.
      expect(await readdir(path.join(base, 'config', 'prompt-history'))).toHaveLength(1);
      const refused = await dispatchPanelRequest(second.handlers, 'history:add', { text: '' });
      expect(refused).toMatchObject({ ok: false });
    } finally {
      await second.close();
    }
  });

  it("takes an older version's prompts from the page once, before its own, through a restart; refuses more than it keeps", async () => {
    const first = service();
    await dispatchPanelRequest(first.handlers, 'history:add', { text: 'Sent with this version' });
    expect(
      await dispatchPanelRequest(first.handlers, 'history:import', {
        prompts: ['Typed long ago', 'Sent with this version', '/compact'],
      }),
    ).toEqual({ ok: true, value: ['Typed long ago', 'Sent with this version'] });
    // A second window hands over the same prompts: each is kept once.
    await dispatchPanelRequest(first.handlers, 'history:import', { prompts: ['Typed long ago'] });
    await first.close();
    const second = service();
    try {
      expect(await dispatchPanelRequest(second.handlers, 'history:list', undefined)).toEqual({
        ok: true,
        value: ['Typed long ago', 'Sent with this version'],
      });
      const tooMany = Array.from({ length: HISTORY_LIMIT + 1 }, (_, index) => `p${index}`);
      expect(await dispatchPanelRequest(second.handlers, 'history:import', { prompts: tooMany })).toMatchObject({
        ok: false,
      });
    } finally {
      await second.close();
    }
  });

  it('says which file and why when the history cannot be used, and the prompt is not taken as kept', async () => {
    // A file where the history's folder should be: the folder cannot be made.
    await writeFile(path.join(base, 'config-blocked'), 'not a folder');
    const history = new PromptHistoryFile(path.join(base, 'config-blocked'), workspace);
    await expect(history.add('lost?')).rejects.toThrow(
      /Cannot read the prompt history .*config-blocked.*prompt-history.*not a directory/,
    );
  });
});
