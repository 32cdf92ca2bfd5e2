import { describe, expect, it } from 'vitest';
import { argsPreview, basename, errorText, formatDuration, isEmptyResult, pathSubtitle } from './decode.ts';
import { commandSubtitle, parseExecText } from './exec-text.ts';

describe('basename subtitles', () => {
  it('is the last path segment', () => {
    expect(pathSubtitle({ args: { path: 'src/deep/file.ts' } })).toBe('file.ts');
  });

  it('is the name itself for a bare file name', () => {
    expect(pathSubtitle({ args: { path: 'README.md' } })).toBe('README.md');
  });

  it('is empty when the path argument is missing', () => {
    expect(pathSubtitle({ args: {} })).toBe('');
  });

  it('is empty when the arguments are not an object', () => {
    expect(pathSubtitle({ args: undefined })).toBe('');
    expect(pathSubtitle({ args: 'src/a.ts' })).toBe('');
    expect(pathSubtitle({ args: null })).toBe('');
  });

  it('is empty when the path is not a string', () => {
    expect(pathSubtitle({ args: { path: 42 } })).toBe('');
    expect(pathSubtitle({ args: { path: ['a', 'b'] } })).toBe('');
  });

  it('ignores trailing separators and understands backslashes', () => {
    expect(basename('src/lib/')).toBe('lib');
    expect(basename('C:\\work\\main.swift')).toBe('main.swift');
    expect(basename('/')).toBe('');
  });
});

describe('the done-card emptiness rule', () => {
  it('counts missing, blank and empty results as nothing to show', () => {
    for (const result of [undefined, null, '', '  \n', {}, []]) expect(isEmptyResult(result)).toBe(true);
  });

  it('counts any text or field as something to show', () => {
    for (const result of ['ok', '0', { ok: true }, [1], 0]) expect(isEmptyResult(result)).toBe(false);
  });
});

describe('error text', () => {
  it('reads the error of an `{ error, content }` echo', () => {
    expect(errorText({ error: 'ENOENT: notes.md', content: 'ENOENT: notes.md' })).toBe('ENOENT: notes.md');
  });

  it('is the echo itself when the echo is text', () => {
    expect(errorText('Invalid arguments for exec')).toBe('Invalid arguments for exec');
  });

  it('still says something when the echo is empty', () => {
    expect(errorText(undefined)).toBe('The call failed without a message.');
  });
});

describe('formatting', () => {
  it('formats durations from milliseconds to minutes', () => {
    expect(formatDuration(42)).toBe('42 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(59_600)).toBe('1m 00s');
    expect(formatDuration(125_000)).toBe('2m 05s');
  });

  it('previews arguments on one short line', () => {
    expect(argsPreview({ command: 'ls\n-la' })).toBe('{"command":"ls\\n-la"}');
    expect(argsPreview({ text: 'x'.repeat(200) }, 20)).toHaveLength(20);
  });
});

describe('exec text', () => {
  it('reads the exit code and the output', () => {
    expect(parseExecText('Exit code 2 · 15 ms\nmake: *** no rule\n')).toEqual({
      recognised: true,
      status: 'Exit code 2 · 15 ms',
      label: 'exit 2',
      reason: 'Exit code 2',
      explains: false,
      exitCode: 2,
      note: null,
      output: 'make: *** no rule\n',
      noOutput: false,
    });
  });

  it('gives every way a command ends a short label, and keeps the sentence without its duration', () => {
    const read = (status: string) => {
      const { label, reason, explains } = parseExecText(`${status}\n(no output)`);
      return { label, reason, explains };
    };
    expect(read('Killed by SIGSEGV · 40 ms')).toEqual({
      label: 'killed SIGSEGV',
      reason: 'Killed by SIGSEGV',
      explains: false,
    });
    expect(read('Timed out and stopped (SIGTERM); output so far below · 120.0 s')).toEqual({
      label: 'timed out',
      reason: 'Timed out and stopped (SIGTERM); output so far below',
      explains: true,
    });
    expect(read('Cancelled and stopped (SIGTERM); output so far below · 1.4 s')).toEqual({
      label: 'cancelled',
      reason: 'Cancelled and stopped (SIGTERM); output so far below',
      explains: true,
    });
    expect(read('Connection to build-box lost (socket hang up); exit status unknown · 3.0 s')).toEqual({
      label: 'connection lost',
      reason: 'Connection to build-box lost (socket hang up); exit status unknown',
      explains: true,
    });
    expect(read('Failed to start: spawn /bin/sh ENOENT')).toEqual({
      label: 'failed to start',
      reason: 'Failed to start: spawn /bin/sh ENOENT',
      explains: true,
    });
  });

  it('knows a run without output', () => {
    expect(parseExecText('Exit code 0 · 3 ms\n(no output)')).toMatchObject({ exitCode: 0, noOutput: true, output: '' });
  });

  it('separates the note about a cut output from the output', () => {
    const parsed = parseExecText(
      'Exit code 0 · 2.0 s\n[Showing the last 2 lines (10 B) of 900 lines (9 KiB).]\n899\n900\n',
    );
    expect(parsed.note).toBe('[Showing the last 2 lines (10 B) of 900 lines (9 KiB).]');
    expect(parsed.output).toBe('899\n900\n');
  });

  it('has no exit code for a killed command', () => {
    expect(parseExecText('Killed by SIGKILL · 2.0 s\npartial').exitCode).toBeNull();
  });

  it('does not take a refusal for a command result', () => {
    expect(parseExecText('Denied: the person refused to run make.').recognised).toBe(false);
  });

  it('puts the host before the command for ssh', () => {
    expect(commandSubtitle('uptime', 'build-box')).toBe('build-box: uptime');
    expect(commandSubtitle(undefined)).toBe('');
  });
});
