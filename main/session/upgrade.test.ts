import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolEchoSchema } from '../../protocol/echo.ts';
import type { StatusEvent, ToolCompletedEvent, ToolStartedEvent } from '../../protocol/events.ts';
import { openedOf } from './catalog.ts';
import { SessionPages } from './event-pages.ts';
import { readSessionFile } from './replay.ts';
import { SessionLog } from './session-log.ts';
import { isFormat1Event, upgradeEcho } from './upgrade.ts';

// A session file written before echoes carried a kind (test/fixtures/sessions) is upgraded once, as
// it is read: every echo gets its kind, every call its description, every nested call its echo.

const FIXTURE = path.resolve(import.meta.dirname, '../../test/fixtures/sessions/format-1-before-echo-kinds.jsonl');

async function replayed() {
  const replay = await readSessionFile(FIXTURE);
  const of = <T extends StatusEvent['type']>(type: T, callId: string) =>
    replay.events.find((event) => event.type === type && 'call_id' in event && event.call_id === callId) as
      Extract<StatusEvent, { type: T }> | undefined;
  return {
    replay,
    started: (id: string) => of('tool_started', id),
    completed: (id: string) => of('tool_completed', id),
  };
}

describe('replaying a session of format 1', () => {
  it('gives every echo a kind that decodes with the schemas of today', async () => {
    const { replay } = await replayed();
    const echoes = replay.events.flatMap((event) =>
      event.type === 'tool_completed' ? [event.result] : event.type === 'tool_code_dispatch' ? [event.echo] : [],
    );
    expect(echoes).toHaveLength(22);
    for (const echo of echoes) expect(toolEchoSchema.safeParse(echo).error?.issues ?? []).toEqual([]);
  });

  it("turns read_file's page, patch_file's result and a command's echo into their kinds", async () => {
    const { completed } = await replayed();
    expect(completed('toolu_read')?.result).toEqual({
      kind: 'read-file',
      path: 'src/greet.ts',
      range: { start: 1, end: 3 },
      total_lines: 3,
      content: "export function greet(name: string) {\n  return 'Hello, ' + name;\n}\n",
      truncated: false,
    });
    expect(completed('toolu_patch')?.result).toMatchObject({ kind: 'patch', added: 1, removed: 1, hunks: 1 });
    expect(completed('toolu_exec_fail')?.result).toMatchObject({ kind: 'exec', status: 'exited', exit_code: 2 });
    expect(completed('toolu_exec_timeout')?.result).toMatchObject({ kind: 'exec', status: 'timed_out' });
  });

  it('turns failures and plain tools into text, and a quiet program into an empty run', async () => {
    const { completed } = await replayed();
    expect(completed('toolu_read_missing')?.result).toEqual({
      kind: 'text',
      text: 'missing.txt does not exist. Check the path with list_dir or search_files.',
    });
    expect(completed('toolu_write_denied')?.result).toEqual({
      kind: 'text',
      text: 'Denied by the user: Create denied.txt.',
    });
    expect(completed('toolu_list')?.result).toEqual({ kind: 'text', text: 'notes.txt\nsrc/' });
    expect(completed('toolu_code_quiet')?.result).toEqual({ kind: 'code', output: '(no output)', empty: true });
    expect(completed('toolu_code')?.result).toMatchObject({ kind: 'code', empty: false });
  });

  it('describes each call as the tool describes it today, paths relative to the workspace', async () => {
    const { started } = await replayed();
    const description = (id: string) => (started(id) as ToolStartedEvent | undefined)?.description;
    expect(description('toolu_read')).toEqual({
      title: 'Read src/greet.ts',
      subtitle: 'greet.ts',
      detail: 'src/greet.ts',
      path: 'src/greet.ts',
    });
    expect(description('toolu_exec_ok')).toMatchObject({ title: 'Run a command', subtitle: 'printf "one\\ntwo\\n"' });
    expect(description('toolu_ssh')?.subtitle).toBe('no-such-host.invalid: uptime');
    expect(description('toolu_search')?.subtitle).toBe('/greet/');
    expect(description('toolu_read_bad')).toBeUndefined();
    expect(started('toolu_read')?.echo_kind).toBe('read-file');
    expect(started('toolu_write_new')?.echo_kind).toBe('write');
    expect(started('toolu_list')?.echo_kind).toBe('text');
  });

  it("gives each nested call an echo: a page's numbered lines without read_file's wrapper", async () => {
    const { replay } = await replayed();
    const nested = replay.events.filter((event) => event.type === 'tool_code_dispatch');
    expect(nested.map((event) => event.echo)).toEqual([
      { kind: 'text', text: '1: first\n2: SECOND\n3: third\n\n(End of file - total 3 lines)' },
      { kind: 'text', text: expect.stringMatching(/^Exit code 0 · \d+ ms\nnested\n$/) as unknown as string },
      { kind: 'text', text: 'nope.txt does not exist. Check the path with list_dir or search_files.' },
    ]);
  });

  it('leaves what the model is given unchanged', async () => {
    const { replay } = await replayed();
    const tools = replay.context.filter((message) => message.role === 'tool');
    expect(tools).toHaveLength(19);
    for (const message of tools) {
      if (message.role !== 'tool') continue;
      expect(message.content).toBe(replay.contents.get(message.call_id)?.content);
    }
    expect(replay.corrupt).toEqual([]);
  });
});

describe('resuming a session of format 1', () => {
  it('sends the panel its page upgraded, as a full replay reads it, and upgrades nothing else', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'aether-upgrade-'));
    try {
      const id = '20261201-120000-203303';
      await copyFile(FIXTURE, path.join(root, `${id}.jsonl`));
      const now = () => new Date(Date.UTC(2026, 11, 2));
      const whole = await readSessionFile(path.join(root, `${id}.jsonl`), { now });
      const { log, replay } = await SessionLog.resume(root, id, { now });
      await log.close();
      expect(replay.events.some(isFormat1Event)).toBe(true);
      const page = new SessionPages(replay).first(openedOf(replay, { resumed: true }));
      expect(page.older).toBeUndefined();
      expect(page.events).toEqual(whole.events);
      expect(page.events.some(isFormat1Event)).toBe(false);
      expect(replay.context).toEqual(whole.context);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('upgradeEcho', () => {
  it('keeps a failure echoed as { error, content } as its error text', () => {
    expect(upgradeEcho('exec', { error: 'Denied.', content: 'Denied.' }, true)).toEqual({
      kind: 'text',
      text: 'Denied.',
    });
  });

  it('collapses an object of an unknown shape to text, as uiPreview would', () => {
    const echo = upgradeEcho('list_tree', { content: 'a\nb' }, false) as ToolCompletedEvent['result'];
    expect(echo).toEqual({ kind: 'text', text: 'a\nb' });
  });
});
