import { describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import type { ProcessInfo } from '../../protocol/processes.ts';
import { processInfo } from '../../test/process-info.ts';
import { TranscriptPrinter } from './transcript-printer.ts';

/** A background process just started, as its process_state tells it. */
const devServer: ProcessInfo = processInfo();

/** read_file's completion of a.txt (call c, 3 ms) with this content. */
function readCompleted(content: string): StatusEvent {
  return {
    type: 'tool_completed',
    call_id: 'c',
    name: 'read_file',
    execution_time: 3,
    is_error: false,
    result: {
      kind: 'read-file',
      path: 'a.txt',
      range: { start: 1, end: 2 },
      total_lines: 2,
      content,
      truncated: false,
    },
  };
}

function printed(run: (printer: TranscriptPrinter) => void): string {
  let out = '';
  const printer = new TranscriptPrinter((text) => (out += text));
  run(printer);
  printer.finish();
  return out;
}

describe('TranscriptPrinter', () => {
  it('prints a proposed plan whole under its line, and a steer where it entered', () => {
    const out = printed((printer) => {
      printer.emit({ type: 'user_message', turn_id: 't', text: 'Mind the tests', steer: true });
      printer.emit({
        type: 'tool_completed',
        call_id: 'p',
        name: 'plan_propose',
        execution_time: 1,
        is_error: false,
        result: { kind: 'plan', plan: '# Fix\n1. Read', todos: [] },
      });
    });
    expect(out).toContain('» steer: Mind the tests\n');
    expect(out).toMatch(/\[p\]\n  # Fix\n  1\. Read\n$/);
  });

  it('ends streamed text on its own line before a tool line', () => {
    const out = printed((printer) => {
      printer.emit({ type: 'assistant_delta', turn_id: 't', text: 'Let me ' });
      printer.emit({ type: 'assistant_delta', turn_id: 't', text: 'look.' });
      printer.emit({ type: 'assistant_message', turn_id: 't', text: 'Let me look.', tool_calls: [] });
      printer.emit({ type: 'tool_started', call_id: 'c', name: 'read_file', args: { path: 'a.txt' } });
      printer.emit(readCompleted('one\ntwo'));
    });
    expect(out).toBe('Let me look.\n✓ read_file {"path":"a.txt"} (3 ms): one ⏎ two [c]\n');
  });

  it('prints a long result on one line as its start reads, cut at the width, whatever whitespace leads it', () => {
    const line = (content: string) => printed((printer) => printer.emit(readCompleted(content)));
    const long = 'alpha beta\n'.repeat(100_000);
    expect(line(long)).toBe(`✓ read_file (3 ms): ${'alpha beta ⏎ '.repeat(20).slice(0, 159)}… [c]\n`);
    const blankFirst = `${'\n \n'.repeat(400)}gamma\n${'delta\n'.repeat(100)}`;
    expect(line(blankFirst)).toBe(`✓ read_file (3 ms): ${`⏎ gamma ⏎ ${'delta ⏎ '.repeat(30)}`.slice(0, 159)}… [c]\n`);
  });

  it('prints a line when a background process starts and when it ends, with how it ended', () => {
    const out = printed((printer) => {
      printer.emit({ type: 'process_state', process: devServer });
      printer.emit({
        type: 'process_state',
        process: { ...devServer, state: 'stopped', end_reason: 'session_closed', uptime_ms: 3100 },
      });
    });
    expect(out).toBe('▶ p1 npm run dev (pid 412)\n■ p1 stopped when the session closed after 3.1 s · npm run dev\n');
  });

  it('redraws the running background processes in place on a terminal, and prints nothing for them elsewhere', () => {
    const process: ProcessInfo = {
      ...devServer,
      uptime_ms: 12_000,
      output_bytes: 40,
      output_lines: 2,
      ports: [5173],
      last_line: 'ready in 300 ms',
    };
    let out = '';
    const live = new TranscriptPrinter((text) => (out += text), { live: true, columns: () => 100 });
    live.processes([process]);
    expect(out).toBe('▶ p1 npm run dev · up 12 s · :5173 · ready in 300 ms\n');
    live.processes([{ ...process, uptime_ms: 13_000, last_line: 'GET /' }]);
    // The line is erased (cursor up one line, clear to the end) and drawn again.
    expect(out.slice('▶ p1 npm run dev · up 12 s · :5173 · ready in 300 ms\n'.length)).toBe(
      '\u001b[1F\u001b[J▶ p1 npm run dev · up 13 s · :5173 · GET /\n',
    );
    // Another line erases them first; the next tick draws them under it.
    out = '';
    live.emit({ type: 'reasoning', turn_id: 't1', duration_ms: 1000, text: '' } as never);
    expect(out).toBe('\u001b[1F\u001b[J✻ thought for 1.0 s\n');
    out = '';
    live.processes([]);
    expect(out).toBe('');

    const piped = printed((printer) => printer.processes([process]));
    expect(piped).toBe('');
  });

  it('prints a patch echo as its statistics, not its JSON', () => {
    const out = printed((printer) => {
      printer.emit({ type: 'tool_started', call_id: 'p', name: 'patch_file', args: { path: 'a.txt' } });
      printer.emit({
        type: 'tool_completed',
        call_id: 'p',
        name: 'patch_file',
        execution_time: 4,
        is_error: false,
        result: { kind: 'patch', path: 'a.txt', added: 2, removed: 1, hunks: 1, diff: '--- a.txt' },
      });
    });
    expect(out).toBe('✓ patch_file {"path":"a.txt"} (4 ms): +2 −1 in a.txt [p]\n    --- a.txt\n');
  });

  it('prints a web page echo as its title, host, type and size, not its JSON', () => {
    const out = printed((printer) => {
      printer.emit({
        type: 'tool_started',
        call_id: 'w',
        name: 'web_fetch',
        args: { url: 'https://docs.python.org/3/' },
      });
      printer.emit({
        type: 'tool_completed',
        call_id: 'w',
        name: 'web_fetch',
        execution_time: 9,
        is_error: false,
        result: {
          kind: 'web-fetch',
          url: 'https://docs.python.org/3/',
          final_url: 'https://docs.python.org/3/',
          host: 'docs.python.org',
          redirects: 1,
          status: 200,
          content_type: 'text/html',
          title: '3.13 Documentation',
          format: 'article',
          bytes: 18_432,
          cut: false,
          text_chars: 5000,
          excerpt: 'Welcome.',
        },
      });
    });
    expect(out).toContain('“3.13 Documentation” · docs.python.org · text/html · 18.0 KiB · via 1 redirect');
    expect(out).not.toContain('"kind"');
  });

  it('prints a command echo as how it ended and how much it printed, not its JSON', () => {
    const out = printed((printer) => {
      const echo = {
        kind: 'exec',
        command: 'make',
        status: 'exited',
        exit_code: 0,
        signal: null,
        duration_ms: 20,
        output_bytes: 60,
        output_lines: 12,
        output: 'done\n',
        output_cut: true,
      };
      printer.emit({ type: 'tool_started', call_id: 'e', name: 'exec', args: { command: 'make' } });
      printer.emit({
        type: 'tool_completed',
        call_id: 'e',
        name: 'exec',
        execution_time: 20,
        is_error: false,
        result: echo,
      });
      printer.emit({ type: 'tool_started', call_id: 's', name: 'ssh_exec', args: { host: 'box', command: 'uptime' } });
      printer.emit({
        type: 'tool_completed',
        call_id: 's',
        name: 'ssh_exec',
        execution_time: 9,
        is_error: true,
        result: {
          ...echo,
          host: 'box',
          status: 'connection_lost',
          exit_code: null,
          error: 'socket closed',
          output: '',
          output_bytes: 0,
          output_lines: 0,
          output_cut: false,
        },
      });
      printer.emit({ type: 'tool_started', call_id: 'l', name: 'exec', args: { command: 'seq 1 3000' } });
      printer.emit({
        type: 'tool_completed',
        call_id: 'l',
        name: 'exec',
        execution_time: 30,
        is_error: true,
        result: {
          ...echo,
          status: 'signalled',
          exit_code: null,
          signal: 'SIGKILL',
          output_lines: 3000,
          output_path: '/s/tool-output/l.txt',
        },
      });
    });
    expect(out.split('\n')).toEqual([
      '✓ exec {"command":"make"} (20 ms): exit 0 · 12 lines [e]',
      '  │ … 11 lines not shown',
      '  │ done',
      '✗ ssh_exec {"host":"box","command":"uptime"} (9 ms): connection lost (socket closed) · no output [s]',
      '✗ exec {"command":"seq 1 3000"} (30 ms): killed SIGKILL · 3000 lines (complete output in /s/tool-output/l.txt) [l]',
      '  │ … 2999 lines not shown',
      '  │ done',
      '',
    ]);
  });

  it('names each call by its own description, as its card does, with its time in human units', () => {
    const out = printed((printer) => {
      printer.emit({
        type: 'tool_started',
        call_id: 'w',
        name: 'write_file',
        args: { path: 'AETHER_DEMO.md', content: '# Demo\n' },
        description: { title: 'Create AETHER_DEMO.md', subtitle: 'AETHER_DEMO.md', path: 'AETHER_DEMO.md' },
      });
      printer.emit({
        type: 'tool_completed',
        call_id: 'w',
        name: 'write_file',
        execution_time: 12,
        is_error: false,
        result: { kind: 'write', path: 'AETHER_DEMO.md', created: true, bytes: 7 },
      });
      printer.emit({
        type: 'tool_started',
        call_id: 'e',
        name: 'exec',
        args: { command: 'npm test' },
        description: { title: 'Run a command', subtitle: 'npm test', detail: 'npm test' },
      });
      printer.emit({
        type: 'tool_code_dispatch',
        parent_call_id: 'r',
        call_id: 'r.1',
        name: 'read_file',
        args: { path: 'src/a.ts' },
        description: { title: 'Read src/a.ts', subtitle: 'a.ts', path: 'src/a.ts' },
        content: 'x',
        echo: { kind: 'text', text: 'x' },
        is_error: false,
        execution_time: 2,
      });
      printer.emit({
        type: 'tool_completed',
        call_id: 'e',
        name: 'exec',
        execution_time: 83_500,
        is_error: false,
        result: {
          kind: 'exec',
          command: 'npm test',
          status: 'exited',
          exit_code: 0,
          signal: null,
          duration_ms: 83_500,
          output_bytes: 0,
          output_lines: 0,
          output: '',
          output_cut: false,
        },
      });
    });
    expect(out.split('\n')).toEqual([
      '✓ Create AETHER_DEMO.md (12 ms): created AETHER_DEMO.md (7 bytes) [w]',
      '  ↳ ✓ Read src/a.ts (2 ms): x',
      '✓ Run a command · npm test (1m 24s): exit 0 · no output [e]',
      '',
    ]);
  });

  it('ends each call’s line with its call id, dim when colour is on, for aether rewind to take', () => {
    const events = [
      { type: 'tool_started', call_id: 'toolu_01', name: 'exec', args: { command: 'false' } },
      {
        type: 'tool_completed',
        call_id: 'toolu_01',
        name: 'exec',
        execution_time: 4,
        is_error: true,
        result: { kind: 'text', text: 'Denied: exec needs permission.' },
      },
    ] as const;
    const plain = printed((printer) => events.forEach((event) => printer.emit(event)));
    expect(plain).toBe('✗ exec {"command":"false"} (4 ms): Denied: exec needs permission. [toolu_01]\n');
    let coloured = '';
    const printer = new TranscriptPrinter((text) => (coloured += text), { color: true });
    for (const event of events) printer.emit(event);
    expect(coloured).toMatch(/needs permission\.\u001b\[0m \u001b\[2m\[toolu_01\]\u001b\[0m\n$/);
  });

  it('prints a line for project instructions sent and for the reasoning, never the reasoning text', () => {
    const out = printed((printer) => {
      printer.emit({
        type: 'context_message',
        turn_id: 't',
        source: 'AGENTS.md',
        text: '<instructions source="AGENTS.md">\nRules.\n</instructions>',
        change: 'changed',
        truncated: { bytes: 40_000, limit: 32_768 },
      });
      printer.emit({ type: 'reasoning_delta', turn_id: 't', text: 'Secret musing' });
      printer.emit({ type: 'reasoning', turn_id: 't', text: 'Secret musing', duration_ms: 1200 });
    });
    expect(out).toBe(
      '§ instructions AGENTS.md (edited, sent again; only the first 32.0 KiB sent)\n✻ thought for 1.2 s\n',
    );
  });

  it('marks an incomplete answer and says how the turn failed', () => {
    const out = printed((printer) => {
      printer.emit({ type: 'assistant_delta', turn_id: 't', text: 'Half' });
      printer.emit({ type: 'assistant_message', turn_id: 't', text: 'Half', tool_calls: [], partial: true });
      printer.emit({ type: 'turn_failed', turn_id: 't', error: 'the connection closed mid-stream' });
    });
    expect(out).toBe('Half\n[the answer above is incomplete]\n— failed: the connection closed mid-stream\n');
  });

  it('cuts a long echo to one line and indents nested calls under their card', () => {
    const out = printed((printer) => {
      printer.emit({ type: 'tool_started', call_id: 'r', name: 'run_code', args: { code: 'x' } });
      printer.emit({
        type: 'tool_code_dispatch',
        parent_call_id: 'r',
        call_id: 'r.1',
        name: 'list_dir',
        args: {},
        content: 'a\nb',
        echo: { kind: 'text', text: 'a\nb' },
        is_error: false,
        execution_time: 1,
      });
      printer.emit({
        type: 'tool_completed',
        call_id: 'r',
        name: 'run_code',
        execution_time: 9,
        is_error: false,
        result: { kind: 'code', output: 'y'.repeat(500), empty: false },
      });
    });
    const [nested, card] = out.trimEnd().split('\n');
    expect(nested).toBe('  ↳ ✓ list_dir {} (1 ms): a ⏎ b');
    expect(card!.length).toBeLessThan(220);
    expect(card).toMatch(/^✓ run_code \{"code":"x"\} \(9 ms\): y+… \[r\]$/);
  });
});
