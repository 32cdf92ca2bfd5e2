import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import { terminalMarkdown } from './terminal-markdown.ts';
import { terminalStyle } from './terminal-text.ts';
import { transcriptPrinter } from './transcript-output.ts';
import { JsonLinesPrinter, TranscriptPrinter, type TranscriptPrinterOptions } from './transcript-printer.ts';

// How `aether run` looks on a terminal and in a pipe: colour, marks, live command output, diffs,
// rendered Markdown; and that none of it lets model or tool text drive the terminal.

const ESC = '\u001b';
const SGR = /\u001b\[[0-9;]*m/g;
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const OSC52 = '\u001b]52;c;cm0gLXJmIH4=\u0007';

/** A fake stdout: everything written, and the options a TTY or a pipe would give the printer. */
function printerOn(options: TranscriptPrinterOptions): { printer: TranscriptPrinter; out: () => string } {
  let out = '';
  const printer = new TranscriptPrinter((text) => (out += text), { columns: () => 60, ...options });
  return { printer, out: () => out };
}

function execEcho(output: string, status: 'exited' | 'cancelled' = 'exited', exit = 0): object {
  return {
    kind: 'exec',
    command: 'make',
    status,
    exit_code: status === 'exited' ? exit : null,
    signal: null,
    duration_ms: 5,
    output_bytes: output.length,
    output_lines: output.split('\n').length - 1,
    output,
    output_cut: false,
  };
}

function completed(callId: string, isError: boolean, result: object): StatusEvent {
  return {
    type: 'tool_completed',
    call_id: callId,
    name: 'exec',
    execution_time: 5,
    is_error: isError,
    result,
  } as StatusEvent;
}

function started(callId: string, command: string): StatusEvent {
  return { type: 'tool_started', call_id: callId, name: 'exec', args: { command } };
}

function progress(callId: string, text: string, total = Buffer.byteLength(text)): StatusEvent {
  return {
    type: 'tool_progress',
    call_id: callId,
    progress: { text, cut_bytes: total - Buffer.byteLength(text), total_bytes: total },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('terminalStyle', () => {
  it('colours and redraws on a terminal, neither in a pipe, and obeys NO_COLOR and FORCE_COLOR', () => {
    expect(terminalStyle(true, {})).toEqual({ color: true, live: true });
    expect(terminalStyle(false, {})).toEqual({ color: false, live: false });
    expect(terminalStyle(true, { NO_COLOR: '1' })).toEqual({ color: false, live: true });
    expect(terminalStyle(false, { FORCE_COLOR: '1' })).toEqual({ color: true, live: false });
    expect(terminalStyle(true, { FORCE_COLOR: '0' })).toEqual({ color: true, live: true });
    expect(terminalStyle(false, { FORCE_COLOR: '0' })).toEqual({ color: false, live: false });
    expect(terminalStyle(false, { FORCE_COLOR: '1', NO_COLOR: '1' })).toEqual({ color: false, live: false });
  });
});

describe('transcriptPrinter on a fake stdout', () => {
  async function shown(isTTY: boolean, env: Record<string, string>): Promise<string> {
    let out = '';
    const stdout = { isTTY, columns: 50, write: (text: string) => (out += text) };
    const printer = await transcriptPrinter(stdout, env);
    printer.emit({ type: 'assistant_delta', turn_id: 't', text: `Use **care** ${OSC52}\n\n` });
    printer.emit(started('e', 'make'));
    printer.emit(progress('e', 'building\n'));
    printer.emit(completed('e', true, execEcho('building\n', 'exited', 2)));
    printer.finish();
    return out;
  }

  it('colours, renders Markdown and redraws on a TTY, and stays plain in a pipe or with NO_COLOR', async () => {
    const tty = await shown(true, {});
    expect(tty).toContain(`${ESC}[1mcare${ESC}[22m`);
    expect(tty).toContain(`${ESC}[2F${ESC}[J${ESC}[31m✗${ESC}[0m`);
    expect(tty.replace(SGR, '').replace(/\u001b\[\d+F\u001b\[J/g, '')).not.toMatch(RAW_CONTROL);

    const pipe = await shown(false, {});
    expect(pipe).toBe(
      'Use **care** ␛]52;c;cm0gLXJmIH4=␇\n\n⋯ exec {"command":"make"}\n  │ building\n✗ exec {"command":"make"} (5 ms): exit 2 · 1 line [e]\n',
    );
    const noColor = await shown(true, { NO_COLOR: '1' });
    expect(noColor.replace(/\u001b\[\d+F\u001b\[J/g, '')).not.toContain(ESC);
    expect(noColor).toContain('Use **care**');
  });
});

describe('the transcript on a terminal', () => {
  it('marks ok, error and cancelled calls distinctly, in colour only when colour is on', () => {
    const events = [
      { type: 'tool_started', call_id: 'a', name: 'exec', args: { command: 'make' } },
      completed('a', false, execEcho('')),
      completed('b', true, execEcho('', 'exited', 2)),
      completed('c', true, execEcho('', 'cancelled')),
      completed('d', true, { kind: 'text', text: 'Cancelled: exec was stopped before it finished.' }),
    ] as StatusEvent[];
    const plain = printerOn({});
    for (const event of events) plain.printer.emit(event);
    expect(
      plain
        .out()
        .split('\n')
        .map((line) => line.slice(0, 2)),
    ).toEqual(['✓ ', '✗ ', '⊘ ', '⊘ ', '']);
    expect(plain.out()).not.toContain(ESC);

    const coloured = printerOn({ color: true });
    for (const event of events) coloured.printer.emit(event);
    const lines = coloured.out().split('\n');
    expect(lines[0]).toMatch(/^\u001b\[32m✓\u001b\[0m exec/);
    expect(lines[1]).toMatch(/^\u001b\[31m✗\u001b\[0m \u001b\[31mexec \(5 ms\): exit 2/);
    expect(lines[2]).toMatch(/^\u001b\[33m⊘\u001b\[0m \u001b\[33mexec \(5 ms\): cancelled/);
  });

  it('redraws a running command’s last six lines in place, and keeps its first and last lines when it ends', () => {
    vi.useFakeTimers();
    const { printer, out } = printerOn({ color: false, live: true });
    const lines = Array.from({ length: 9 }, (_, index) => `line ${index + 1}`);
    printer.emit(started('e', 'make'));
    printer.emit(progress('e', `${lines.slice(0, 2).join('\n')}\n`));
    const first = '⋯ exec {"command":"make"}\n  │ line 1\n  │ line 2\n';
    expect(out()).toBe(first);
    printer.emit(progress('e', `${lines.slice(0, 5).join('\n')}\n`));
    // Throttled: nothing more until the redraw is due, then only the newest text.
    printer.emit(progress('e', `${lines.join('\n')}\n`));
    expect(out()).toBe(first);
    vi.advanceTimersByTime(200);
    expect(out().slice(first.length)).toBe(
      `${ESC}[3F${ESC}[J⋯ exec {"command":"make"}\n${lines
        .slice(3)
        .map((line) => `  │ ${line}\n`)
        .join('')}`,
    );
    const drawn = out().length;
    printer.emit(completed('e', false, execEcho(`${lines.join('\n')}\n`)));
    expect(out().slice(drawn)).toBe(
      `${ESC}[7F${ESC}[J✓ exec {"command":"make"} (5 ms): exit 0 · 9 lines [e]\n` +
        ['line 1', 'line 2', 'line 3', '… 3 lines not shown', 'line 7', 'line 8', 'line 9']
          .map((line) => `  │ ${line}\n`)
          .join(''),
    );
  });

  it('keeps the first lines it saw of a command whose output outgrew the window, and counts the rest', () => {
    vi.useFakeTimers();
    const { printer, out } = printerOn({ live: true });
    printer.emit(started('e', 'seq 1 5000'));
    printer.emit(progress('e', '1\n2\n3\n4\n'));
    vi.advanceTimersByTime(200);
    // The window moved on: the echo holds only the end of the output.
    const tail = '4998\n4999\n5000\n';
    printer.emit(progress('e', tail, 23_893));
    const drawn = out().length;
    printer.emit(
      completed('e', false, { ...execEcho(tail), output_bytes: 23_893, output_lines: 5000, output_cut: true }),
    );
    const kept = out()
      .slice(drawn)
      .replace(/\u001b\[\d+F\u001b\[J/g, '');
    expect(kept.split('\n')).toEqual([
      '✓ exec {"command":"seq 1 5000"} (5 ms): exit 0 · 5000 lines [e]',
      '  │ 1',
      '  │ 2',
      '  │ 3',
      '  │ … 4994 lines not shown',
      '  │ 4998',
      '  │ 4999',
      '  │ 5000',
      '',
    ]);
  });

  it('draws nothing more once the turn has stopped, even a redraw that was due', () => {
    vi.useFakeTimers();
    const { printer, out } = printerOn({ live: true });
    printer.emit(progress('e', 'first\n'));
    printer.emit(progress('e', 'first\nsecond\n'));
    printer.emit({ type: 'turn_failed', turn_id: 't', error: 'Stopped.', aborted: true });
    vi.advanceTimersByTime(200);
    expect(out()).toBe(`⋯ tool\n  │ first\n${ESC}[2F${ESC}[J— stopped: Stopped.\n`);
  });

  it('appends each new line of a running command once when stdout is not a terminal', () => {
    const { printer, out } = printerOn({});
    printer.emit(started('e', 'count'));
    printer.emit(progress('e', 'one\ntw'));
    printer.emit(progress('e', 'one\ntwo\nthree\nfo'));
    // The window moved on: only its tail is sent, with the bytes it dropped counted.
    printer.emit(progress('e', 'three\nfour\n', 19));
    printer.emit(completed('e', true, execEcho('one\ntwo\nthree\nfour\n', 'exited', 1)));
    expect(out()).toBe(
      '⋯ exec {"command":"count"}\n  │ one\n  │ two\n  │ three\n  │ four\n✗ exec {"command":"count"} (5 ms): exit 1 · 4 lines [e]\n',
    );
  });

  it('appends an MCP call’s progress lines in a pipe, never its note of how many came before', () => {
    const { printer, out } = printerOn({});
    printer.emit(started('m', 'count'));
    const lines = Array.from({ length: 9 }, (_, index) => `${index + 1}/9 step`);
    const kept = lines.slice(3).join('\n');
    const total = Buffer.byteLength(lines.join('\n'));
    printer.emit({
      type: 'tool_progress',
      call_id: 'm',
      progress: { text: `… 3 earlier lines\n${kept}`, cut_bytes: total - Buffer.byteLength(kept), total_bytes: total },
    });
    // The last line may go on: it is printed when the next one begins.
    const printed = lines.slice(3, 8).map((line) => `  │ ${line}\n`);
    expect(out()).toBe(`⋯ exec {"command":"count"}\n${printed.join('')}`);
  });

  it('shows a failed command’s first lines and its last ten, and a patch’s diff coloured + and −', () => {
    const failed = printerOn({});
    const output = `${Array.from({ length: 20 }, (_, index) => `err ${index + 1}`).join('\n')}\n`;
    failed.printer.emit(completed('e', true, execEcho(output, 'exited', 1)));
    expect(failed.out().split('\n').slice(1, 7)).toEqual([
      '  │ err 1',
      '  │ err 2',
      '  │ err 3',
      '  │ … 7 lines not shown',
      '  │ err 11',
      '  │ err 12',
    ]);
    expect(failed.out().split('\n').at(-2)).toBe('  │ err 20');

    const patched = printerOn({ color: true });
    patched.printer.emit({
      type: 'tool_completed',
      call_id: 'p',
      name: 'patch_file',
      execution_time: 2,
      is_error: false,
      result: { kind: 'patch', path: 'a.txt', added: 1, removed: 1, hunks: 1, diff: '@@ -1 +1 @@\n-old\n+new\n' },
    });
    expect(patched.out().split('\n').slice(1)).toEqual([
      `${ESC}[33m    @@ -1 +1 @@${ESC}[0m`,
      `${ESC}[31m    -old${ESC}[0m`,
      `${ESC}[32m    +new${ESC}[0m`,
      '',
    ]);
  });

  it('renders the model’s Markdown when colour is on, block by block as it streams', () => {
    const { printer, out } = printerOn({ color: true, markdown: terminalMarkdown(60) });
    const text = '# Plan\n\nMake it **bold** and see [docs](https://docs.example).\n\n- one\n- two\n';
    for (const piece of text.match(/[\s\S]{1,7}/g) ?? []) {
      printer.emit({ type: 'assistant_delta', turn_id: 't', text: piece });
    }
    printer.emit({ type: 'assistant_message', turn_id: 't', text, tool_calls: [] });
    printer.finish();
    const shown = out().replace(SGR, '');
    expect(out()).toContain(`${ESC}[1mbold${ESC}[22m`);
    expect(shown).not.toContain('**');
    expect(shown).toContain('docs (https://docs.example)');
    expect(shown).toMatch(/\* one\n +\* two\n$/);
    expect(shown).not.toMatch(RAW_CONTROL);
  });

  it('lets no model, tool or command text drive the terminal with colour, Markdown and live output on', () => {
    vi.useFakeTimers();
    const { printer, out } = printerOn({ color: true, live: true, markdown: terminalMarkdown(60) });
    const hostile = `x ${OSC52} [click](https://evil.example${OSC52}) \u001b[2J \u009b2J \u202Eexe`;
    printer.emit({ type: 'assistant_delta', turn_id: 't', text: `# ${hostile}\n\n\`${hostile}\`\n\n` });
    printer.emit({ type: 'assistant_message', turn_id: 't', text: '', tool_calls: [] });
    printer.emit(progress('e', `${hostile}\n`));
    vi.advanceTimersByTime(200);
    printer.emit(completed('e', true, execEcho(`${hostile}\n`, 'exited', 1)));
    printer.emit({
      type: 'tool_completed',
      call_id: 'p',
      name: 'patch_file',
      execution_time: 2,
      is_error: false,
      result: { kind: 'patch', path: 'a', added: 1, removed: 0, hunks: 1, diff: `+${hostile}\n` },
    });
    printer.finish();
    // Only colour sequences and the live region's own cursor moves; the rest shows visibly.
    const left = out()
      .replace(SGR, '')
      .replace(/\u001b\[\d+F\u001b\[J/g, '');
    expect(left).not.toMatch(RAW_CONTROL);
    expect(left).not.toContain(']8;');
    expect(left).toContain('␛]52;c;cm0gLXJmIH4=␇');
  });
});

describe('--json', () => {
  it('prints the status events exactly as before, live output and all', () => {
    let out = '';
    const printer = new JsonLinesPrinter((text) => (out += text));
    printer.emit({ type: 'assistant_delta', turn_id: 't', text: '**hi**\u001b[2J' });
    printer.emit(progress('e', 'a\n'));
    printer.emit(completed('e', false, { kind: 'patch', path: 'a', added: 1, removed: 0, hunks: 1, diff: '+x\n' }));
    expect(out).toBe(
      '{"type":"assistant_delta","turn_id":"t","text":"**hi**\\u001b[2J"}\n' +
        '{"type":"tool_progress","call_id":"e","progress":{"text":"a\\n","cut_bytes":0,"total_bytes":2}}\n' +
        '{"type":"tool_completed","call_id":"e","name":"exec","execution_time":5,"is_error":false,"result":{"kind":"patch","path":"a","added":1,"removed":0,"hunks":1,"diff":"+x\\n"}}\n',
    );
  });
});
