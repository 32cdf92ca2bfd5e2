import { describe, expect, it } from 'vitest';
import { ECHO_OUTPUT_CHARS, execEcho, type ExecRun } from './exec-output.ts';

// The card's echo of a command: how it ended and the end of its output, a few KiB whatever it printed.

function run(output: string, extra: Partial<ExecRun> = {}): ExecRun {
  return {
    command: 'make',
    status: 'exited',
    exit_code: 0,
    signal: null,
    duration_ms: 1200,
    output,
    output_bytes: Buffer.byteLength(output),
    output_lines: output === '' ? 0 : output.split('\n').length - (output.endsWith('\n') ? 1 : 0),
    ...extra,
  };
}

const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}\n`).join('');
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('execEcho', () => {
  it('carries the whole of a short output, not cut, with how the command ended', () => {
    expect(execEcho(run('a.ts\nb.ts\n'))).toEqual({
      kind: 'exec',
      command: 'make',
      status: 'exited',
      exit_code: 0,
      signal: null,
      duration_ms: 1200,
      output_bytes: 10,
      output_lines: 2,
      output: 'a.ts\nb.ts\n',
      output_cut: false,
    });
  });

  it('keeps the last lines of a long output, starting on a line of its own, and says it is cut', () => {
    const echo = execEcho(run(numbered(3000)));
    expect(echo.output.endsWith('line 2999\nline 3000\n')).toBe(true);
    expect(echo.output).toMatch(/^line \d+\n/);
    expect(echo.output.length).toBeLessThanOrEqual(ECHO_OUTPUT_CHARS);
    expect(echo.output.length).toBeGreaterThan(3500);
    expect(echo).toMatchObject({ output_cut: true, output_lines: 3000 });
  });

  it('says cut when the model itself only got the tail, and keeps where the rest is', () => {
    const tail = numbered(10);
    const echo = execEcho(
      run(tail, { output_bytes: 900_000, output_lines: 200_000, output_path: '/s/tool-output/c1.txt' }),
    );
    expect(echo).toMatchObject({
      output: tail,
      output_cut: true,
      output_path: '/s/tool-output/c1.txt',
      output_bytes: 900_000,
    });
  });

  it('stays within about 5 KiB of JSON for long ASCII, CJK, emoji and control-character output', () => {
    const outputs = [numbered(3000), '漢字'.repeat(50_000), '😀'.repeat(50_000), '\u0001\u001b"\\'.repeat(50_000)];
    for (const output of outputs) {
      const echo = execEcho(run(output, { command: 'x'.repeat(100_000), error: 'e'.repeat(100_000) }));
      expect(jsonBytes(echo)).toBeLessThanOrEqual(5 * 1024);
      expect(output.endsWith(echo.output)).toBe(true);
      expect(echo.output_cut).toBe(true);
    }
  });

  it('never starts inside a surrogate pair', () => {
    for (const output of [
      `x${'😀'.repeat(ECHO_OUTPUT_CHARS)}`,
      `${'a'.repeat(ECHO_OUTPUT_CHARS)}😀${'b'.repeat(ECHO_OUTPUT_CHARS - 1)}`,
    ]) {
      const echo = execEcho(run(output));
      expect(output.endsWith(echo.output)).toBe(true);
      expect(echo.output).not.toMatch(/^[\udc00-\udfff]/);
    }
  });

  it('keeps one huge line cut rather than showing nothing of it', () => {
    const echo = execEcho(run(`start\n${'y'.repeat(10_000)}\nend\n`));
    expect(echo.output).toBe(`${'y'.repeat(ECHO_OUTPUT_CHARS - 5)}\nend\n`);
  });

  it('cuts a long command to a short reminder', () => {
    const echo = execEcho(run('', { command: `echo ${'a'.repeat(1000)}` }));
    expect(echo.command).toHaveLength(200);
    expect(echo.command.endsWith('…')).toBe(true);
  });

  it('carries the host, the signal and why a command did not start or lost its link', () => {
    expect(
      execEcho(run('', { host: 'build-box', status: 'connection_lost', exit_code: null, error: 'socket\n  closed' })),
    ).toMatchObject({
      host: 'build-box',
      status: 'connection_lost',
      exit_code: null,
      error: 'socket closed',
    });
    expect(execEcho(run('x\n', { status: 'signalled', exit_code: null, signal: 'SIGKILL' }))).toMatchObject({
      signal: 'SIGKILL',
      exit_code: null,
    });
  });
});
