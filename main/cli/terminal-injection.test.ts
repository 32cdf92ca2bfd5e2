import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { aether as runAether, type Ran } from '../../test/aether-cli.ts';
import { startFixtureServer, type FixtureServer } from '../model/fixture-server.ts';
import { terminalJson, terminalSafe, TerminalStream } from './terminal-text.ts';
import { JsonLinesPrinter, TranscriptPrinter } from './transcript-printer.ts';

// Model and tool text that tries to drive the terminal: set the clipboard (OSC 52), plant a link
// (OSC 8), retitle the window, clear the screen, ring the bell, recolour, use the 8-bit CSI, and
// reverse what is shown (RLO). None of it may reach a terminal as a control character.

const OSC52 = '\u001b]52;c;cm0gLXJmIH4=\u0007';
const OSC8 = '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\';
const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const HOSTILE = `${OSC52}${OSC8}${TITLE}${CLEAR}bell\u0007 \u001b[31mred\u001b[0m \u009b2J txt\u202Eexe.sh`;

/** Any character a terminal acts on, other than newline and tab. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('terminal-safe text', () => {
  it('shows every escape, bell, C1 and bidi override as a visible stand-in', () => {
    const safe = terminalSafe(HOSTILE);
    expect(safe).not.toMatch(RAW_CONTROL);
    expect(safe).toBe(
      '␛]52;c;cm0gLXJmIH4=␇␛]8;;https://evil.example␛\\click␛]8;;␛\\␛]0;pwned␇␛[2J␛[Hbell␇ ␛[31mred␛[0m ‹U+009B›2J txt‹U+202E›exe.sh',
    );
  });

  it('keeps newlines and tabs, turns CRLF into a newline and shows a lone carriage return', () => {
    expect(terminalSafe('a\tb\r\nc\rd\n')).toBe('a\tb\nc␍d\n');
  });

  it('joins a CRLF split across streamed pieces and shows a carriage return that ends the stream', () => {
    const stream = new TerminalStream();
    expect([stream.push('one\r'), stream.push('\ntwo\r'), stream.push('x'), stream.push('\r'), stream.end()]).toEqual([
      'one',
      '\ntwo',
      '␍x',
      '',
      '␍',
    ]);
  });

  it('escapes in JSON what JSON.stringify leaves raw, and the JSON still reads back the same', () => {
    const json = terminalJson({ text: HOSTILE });
    expect(json).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(json)).toEqual({ text: HOSTILE });
  });
});

describe('the transcript printer', () => {
  function printed(events: StatusEvent[], color = false): string {
    let out = '';
    const printer = new TranscriptPrinter((text) => (out += text), { color });
    for (const event of events) printer.emit(event);
    printer.finish();
    return out;
  }

  const hostileTurn: StatusEvent[] = [
    { type: 'assistant_delta', turn_id: 't', text: HOSTILE.slice(0, 9) },
    { type: 'assistant_delta', turn_id: 't', text: HOSTILE.slice(9) },
    { type: 'assistant_message', turn_id: 't', text: HOSTILE, tool_calls: [] },
    { type: 'tool_started', call_id: 'c', name: 'read_file', args: { path: `a${TITLE}.txt` } },
    {
      type: 'tool_approval_requested',
      call_id: 'c',
      name: 'read_file',
      request: { title: CLEAR, detail: '', scope: 'read' },
    },
    { type: 'turn_failed', turn_id: 't', error: `API said ${OSC52}`, aborted: false },
  ] as StatusEvent[];

  it('prints streamed model text, tool lines and errors with no control character left', () => {
    const out = printed(hostileTurn);
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out).toContain('␛]52;c;cm0gLXJmIH4=␇');
    expect(out).toContain('— failed: API said ␛]52;c;cm0gLXJmIH4=␇');
  });

  it('keeps the CLI’s own colours and only those when colour is on', () => {
    const out = printed(hostileTurn, true);
    expect(out).toContain('\u001b[31m— failed: API said ␛]52;c;cm0gLXJmIH4=␇\u001b[0m');
    // Take away the CLI's own colour sequences: nothing a terminal acts on is left.
    expect(out.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(RAW_CONTROL);
  });

  it('prints --json events with every control character escaped', () => {
    let out = '';
    new JsonLinesPrinter((text) => (out += text)).emit({ type: 'assistant_delta', turn_id: 't', text: HOSTILE });
    expect(out.slice(0, -1)).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(out)).toMatchObject({ text: HOSTILE });
  });
});

// Each test starts Node children; on a loaded two-core machine one can take several seconds to start.
describe('aether run and aether tool in a real child process', { timeout: 60_000 }, () => {
  let workspace: string;
  let sessions: string;
  let server: FixtureServer | undefined;

  beforeEach(async () => {
    workspace = await mkdtemp(path.join(os.tmpdir(), 'aether-tty-ws-'));
    sessions = await mkdtemp(path.join(os.tmpdir(), 'aether-tty-sessions-'));
    await writeFile(path.join(workspace, 'notes.txt'), `first line\n${HOSTILE}\n`);
  });

  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(workspace, { recursive: true, force: true });
    await rm(sessions, { recursive: true, force: true });
  });

  function aether(args: string[]): Promise<Ran> {
    return runAether(args, { AETHERCODEX_SESSIONS: sessions });
  }

  async function hostileModel(): Promise<string> {
    server = await startFixtureServer({
      script: {
        steps: [
          {
            text: [HOSTILE.slice(0, 20), HOSTILE.slice(20)],
            tool_calls: [{ id: 'r1', name: 'read_file', args: { path: 'notes.txt' } }],
          },
          { text: [`Done ${OSC8}`] },
        ],
      },
    });
    return `compat:${server.baseURL}#fixture`;
  }

  it('aether run prints hostile model text and file content visibly, driving nothing', async () => {
    const model = await hostileModel();
    const ran = await aether(['run', '--workspace', workspace, '--sessions', sessions, '--model', model, 'Read notes']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).not.toMatch(RAW_CONTROL);
    expect(ran.stdout).toContain('␛]52;c;cm0gLXJmIH4=␇');
    expect(ran.stdout).toContain('Done ␛]8;;https://evil.example␛\\click');
    expect(ran.stdout.split('\n').find((line) => line.startsWith('✓ Read notes.txt'))).toContain('␛]0;pwned␇');
  });

  it('aether run --json keeps the hostile text exact but escaped', async () => {
    const model = await hostileModel();
    const ran = await aether(['run', '--json', '--workspace', workspace, '--model', model, 'Read notes']);
    expect(ran.code).toBe(0);
    expect(ran.stdout.replace(/\n/g, '')).not.toMatch(RAW_CONTROL);
    const events = ran.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as StatusEvent);
    const message = events.find((event) => event.type === 'assistant_message');
    expect(message).toMatchObject({ text: HOSTILE });
  });

  it('aether shows a hostile command name or usage error visibly on stderr', async () => {
    const unknown = await aether([OSC52]);
    const usage = await aether(['run', '--workspace', workspace, '--resume', TITLE, '--model', 'demo', 'Hi']);
    expect([unknown.code, usage.code]).toEqual([2, 2]);
    expect(unknown.stderr).toContain('Unknown command: ␛]52;c;cm0gLXJmIH4=␇');
    expect(usage.stderr).toContain('␛]0;pwned␇');
    expect(unknown.stderr + usage.stderr).not.toMatch(RAW_CONTROL);
  });

  it('aether sessions shows a hostile session id, and a failure naming a hostile folder, visibly', async () => {
    const notAFolder = path.join(sessions, `x${TITLE}`);
    await writeFile(notAFolder, 'a file, not a folder');
    const failed = await aether(['sessions', '--sessions', notAFolder]);
    const refused = await aether(['sessions', '--sessions', sessions, '--delete', `y${OSC52}`]);
    expect([failed.code, refused.code]).toEqual([1, 1]);
    expect(failed.stderr).toContain('aether sessions failed: Error: Could not list the sessions folder');
    expect(failed.stderr).toContain('x␛]0;pwned␇');
    expect(refused.stderr).toContain('y␛]52;c;cm0gLXJmIH4=␇');
    expect(failed.stderr + refused.stderr).not.toMatch(RAW_CONTROL);
  });

  it('aether tool prints a file full of escapes as escaped JSON', async () => {
    const ran = await aether(['tool', 'read_file', '{"path":"notes.txt"}', '--workspace', workspace]);
    expect(ran.code).toBe(0);
    expect(ran.stdout.slice(0, -1)).not.toMatch(RAW_CONTROL);
    expect((JSON.parse(ran.stdout) as { model: string }).model).toContain(HOSTILE);
  });
});
