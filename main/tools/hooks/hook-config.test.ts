import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { hooksOfSettingsText, loadHooks, matcherPattern } from './hook-config.ts';

// The hooks a settings file configures: Claude Code's shape, and every entry that means nothing
// named with its file and line while the others still apply.

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

it("reads Claude Code's shape: event, matcher, command, timeout", () => {
  const text = JSON.stringify({
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh', timeout: 5 }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'npm test', onTimeout: 'deny' }] }],
    },
  });
  const read = hooksOfSettingsText('/ws/.claude/settings.json', text, 'workspace');
  expect(read.problems).toEqual([]);
  expect(read.commands).toMatchObject([
    {
      event: 'PreToolUse',
      matcher: 'Bash',
      command: 'guard.sh',
      timeoutS: 5,
      onTimeout: 'continue',
      origin: 'workspace',
    },
    { event: 'Stop', matcher: '', command: 'npm test', timeoutS: 60, onTimeout: 'deny' },
  ]);
});

it('names each entry that means nothing with its file and line, and keeps the others', () => {
  const text = [
    '{',
    '  "hooks": {',
    '    "PreToolUse": [',
    '      {"matcher": "exec", "hooks": [{"type": "command", "command": "ok.sh"}]},',
    '      {"matcher": "(", "hooks": [{"type": "command", "command": "bad-matcher.sh"}]},',
    '      {"matcher": "exec", "hooks": [{"type": "prompt", "prompt": "x"}]},',
    '      {"matcher": "exec", "hooks": [{"type": "command", "command": "slow.sh", "timeout": -1}]}',
    '    ],',
    '    "OnSave": []',
    '  }',
    '}',
  ].join('\n');
  const read = hooksOfSettingsText('/home/settings.json', text, 'user');
  expect(read.commands.map((hook) => hook.command)).toEqual(['ok.sh']);
  expect(read.problems).toEqual([
    expect.stringMatching(
      /^\/home\/settings\.json:5: hooks\.PreToolUse\[1\]\.matcher "\(" is not a regular expression/,
    ),
    expect.stringMatching(
      /^\/home\/settings\.json:6: hooks\.PreToolUse\[2\]\.hooks\[0\]: the type "prompt" is not one/,
    ),
    expect.stringMatching(/^\/home\/settings\.json:7: .*"timeout" must be the seconds it may take/),
    expect.stringMatching(/^\/home\/settings\.json:9: "OnSave" is not an event hooks run at/),
  ]);
});

it('names a settings file that is not JSON with its line and column, and reads the other files', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'aether-hook-config-'));
  folders.push(home);
  const workspace = path.join(home, 'ws');
  await mkdir(path.join(workspace, '.claude'), { recursive: true });
  await writeFile(path.join(home, 'settings.json'), '{\n  "hooks": {,\n}');
  const good = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npm test' }] }] } };
  await writeFile(path.join(workspace, '.claude', 'settings.json'), JSON.stringify(good));
  const read = await loadHooks({ home, workspace });
  expect(read.commands.map((hook) => hook.command)).toEqual(['npm test']);
  expect(read.problems).toEqual([expect.stringContaining(`${path.join(home, 'settings.json')}:2:13:`)]);
});

it('matches the whole tool name; an empty matcher or * matches every tool', () => {
  expect(matcherPattern('Write|Edit')?.test('Edit')).toBe(true);
  expect(matcherPattern('Write')?.test('WriteMore')).toBe(false);
  expect(matcherPattern('mcp__github__.*')?.test('mcp__github__create_issue')).toBe(true);
  expect(matcherPattern('')?.test('anything')).toBe(true);
  expect(matcherPattern('*')?.test('anything')).toBe(true);
});
