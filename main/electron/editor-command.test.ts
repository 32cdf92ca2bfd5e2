import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempWorkspace } from '../../test/temp-workspace.ts';
import { commandWords, editorArgv, runEditorCommand } from './editor-command.ts';

// The editor command is split into words like a shell would (quotes group) but never run by one:
// `{path}` and `{line}` go in as they are, so a file name cannot add a command.

const dirs = useTempWorkspace('aether-editor-');

describe('editorArgv', () => {
  it('puts the path and line into their placeholders', () => {
    expect(editorArgv('code -g {path}:{line}', '/w/a b.ts', 12)).toEqual(['code', '-g', '/w/a b.ts:12']);
  });

  it('groups quoted words and keeps a backslash-escaped space', () => {
    expect(commandWords(`"/Applications/My Editor/bin/ed" --line={line} 'x y' a\\ b`)).toEqual([
      '/Applications/My Editor/bin/ed',
      '--line={line}',
      'x y',
      'a b',
    ]);
  });

  it('adds the path as the last argument when the command does not name it', () => {
    expect(editorArgv('subl', '/w/a.ts', 1)).toEqual(['subl', '/w/a.ts']);
  });

  it('leaves shell syntax in a file name as characters', () => {
    expect(editorArgv('ed {path}', '/w/$(rm -rf ~);x.ts', 1)).toEqual(['ed', '/w/$(rm -rf ~);x.ts']);
  });

  it('refuses an unclosed quote and an empty command', () => {
    expect(() => editorArgv('"code -g', '/w/a.ts', 1)).toThrow(/unclosed " quote/);
    expect(() => editorArgv('   ', '/w/a.ts', 1)).toThrow(/empty/);
  });
});

describe('runEditorCommand', () => {
  it('runs the program with the arguments, without a shell', async () => {
    const out = path.join(dirs.root, 'args.json');
    const script = `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.argv.slice(1)))`;
    const template = `"${process.execPath}" -e "${script.replace(/"/g, '\\"')}" {path} {line}`;
    const file = path.join(dirs.workspace, 'a;b $(x).ts');
    expect(await runEditorCommand(template, file, 7)).toEqual({ ok: true, value: undefined });
    await expect.poll(() => readFile(out, 'utf8').catch(() => '')).toBe(JSON.stringify([file, '7']));
  });

  it('says the program is not on the PATH', async () => {
    const opened = await runEditorCommand('no-such-editor-aether -g {path}', '/w/a.ts', 1);
    expect(opened).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no-such-editor-aether .*not on the PATH|no such program on the PATH/),
    });
  });

  it('says so when the command fails at once', async () => {
    const opened = await runEditorCommand(`"${process.execPath}" -e "process.exit(3)"`, '/w/a.ts', 1);
    expect(opened).toMatchObject({ ok: false, error: expect.stringMatching(/stopped at once \(exit 3\)/) });
  });
});
