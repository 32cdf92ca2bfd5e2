// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { EchoShape, ExecEcho } from '../../protocol/echo.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { reduceStatusEvents } from '../store/transcript-reducer.ts';
import { emptyTranscript, type ToolCallView } from '../store/transcript-types.ts';
import { transcriptMarkdown } from '../transcript/markdown.ts';
import { execEchoText } from '../../protocol/exec-echo.ts';
import { CardFrame } from './ToolCard.tsx';

// A finished command's card read from its structured echo (ExecEcho): the badge, the reason, the
// end of the output with a note when it is only the end, and the `✓ ok` card for a quiet success.

afterEach(cleanup);

/** The cards here never call an action; every one is a no-op. */
const actions = new Proxy({}, { get: () => async () => undefined }) as PanelActions;

function echo(extra: Partial<ExecEcho> = {}): ExecEcho {
  return {
    kind: 'exec',
    command: 'make',
    status: 'exited',
    exit_code: 0,
    signal: null,
    duration_ms: 1500,
    output_bytes: 5,
    output_lines: 1,
    output: 'done\n',
    output_cut: false,
    ...extra,
  };
}

function renderExec(result: EchoShape, extra: Partial<ToolCallView> = {}) {
  const call: ToolCallView = {
    call_id: 'c1',
    name: 'exec',
    args: { command: 'make' },
    echo_kind: 'exec',
    state: 'done',
    is_error: false,
    approvals: [],
    nested: [],
    execution_time: 1500,
    echo: result,
    ...extra,
  };
  render(
    <ActionsContext.Provider value={actions}>
      <CardFrame call={call} />
    </ActionsContext.Provider>,
  );
  return screen.getByTestId('tool-card');
}

const failed = { state: 'error', is_error: true } as const;

describe('a command card from its structured echo', () => {
  it('shows the badge and the output of a successful command', () => {
    const card = renderExec(echo({ output: 'a.ts\nb.ts\n', output_bytes: 10, output_lines: 2 }));
    expect(within(card).getByTestId('exec-exit').textContent).toBe('exit 0');
    expect(within(card).getByTestId('exec-exit').getAttribute('data-exit-code')).toBe('0');
    expect(within(card).getByTestId('exec-output').textContent).toBe('a.ts\nb.ts\n');
    expect(within(card).queryByTestId('exec-tail')).toBeNull();
  });

  it('shows the end of a long output and says how much of it that is', () => {
    const output = Array.from({ length: 380 }, (_, index) => `line ${2621 + index}\n`).join('');
    const card = renderExec(
      echo({
        output,
        output_bytes: 37_000,
        output_lines: 3000,
        output_cut: true,
        output_path: '/s/tool-output/c1.txt',
      }),
    );
    expect(within(card).getByTestId('exec-output').textContent?.endsWith('line 3000\n')).toBe(true);
    expect(within(card).getByTestId('exec-tail').textContent).toBe(
      `Showing the last 380 of 3000 lines (${(output.length / 1024).toFixed(1)} KiB of 36.1 KiB); the complete output is in /s/tool-output/c1.txt.`,
    );
  });

  it('says a command ran in the sandbox, and what the sandbox stopped it doing', () => {
    const sandbox = 'writes the workspace, /tmp (512 MiB); no network';
    const refusal =
      "The sandbox stopped it: it tried to reach example.com:443, not on the sandbox's network allow-list.";
    const card = renderExec(echo({ exit_code: 1, sandbox, sandbox_refusal: refusal }), failed);
    expect(within(card).getByTestId('exec-sandboxed').textContent).toBe('sandboxed');
    expect(within(card).getByTestId('exec-sandboxed').getAttribute('title')).toBe(sandbox);
    expect(within(card).getByTestId('exec-sandbox-refusal').textContent).toBe(refusal);
    expect(execEchoText(echo({ sandbox, sandbox_refusal: refusal }))).toBe(
      `Exit code 0 (in the sandbox)\n${refusal}\ndone\n`,
    );
    cleanup();
    const outside = renderExec(echo({ output: 'x\n' }));
    expect(within(outside).queryByTestId('exec-sandboxed')).toBeNull();
  });

  it('is the ok card when the command exited 0 and printed nothing', () => {
    const card = renderExec(echo({ output: '', output_bytes: 0, output_lines: 0 }));
    expect(within(card).getByTestId('card-done').textContent).toBe('✓ ok');
    expect(within(card).queryByTestId('exec-exit')).toBeNull();
  });

  it('says when the command left processes running that were stopped, even after a quiet success', () => {
    const card = renderExec(
      echo({ output: '', output_bytes: 0, output_lines: 0, left_behind: { stopped: 2, still_running: 0 } }),
    );
    expect(within(card).queryByTestId('card-done')).toBeNull();
    expect(within(card).getByTestId('exec-exit').textContent).toBe('exit 0');
    expect(card.textContent).toContain('Exit code 0. Stopped 2 processes the command left running.');
  });

  it('says when a stopped remote command could not be confirmed gone', () => {
    const card = renderExec(
      echo({
        status: 'cancelled',
        exit_code: null,
        host: 'web1',
        stop_unconfirmed: 'web1 refused a second channel to stop it',
      }),
      failed,
    );
    expect(within(card).getByTestId('card-error').textContent).toBe(
      'Cancelled and stopped; output so far below. The remote command could not be confirmed stopped: web1 refused a second channel to stop it.',
    );
  });

  it('shows the exit code and the output of a failing command', () => {
    const card = renderExec(echo({ exit_code: 2, output: 'make: *** Error 2\n', output_bytes: 18 }), failed);
    expect(within(card).getByTestId('exec-exit').textContent).toBe('exit 2');
    expect(within(card).queryByTestId('card-error')).toBeNull();
    expect(within(card).getByTestId('exec-output').textContent).toBe('make: *** Error 2\n');
  });

  it('labels a killed command with its signal', () => {
    const card = renderExec(echo({ status: 'signalled', exit_code: null, signal: 'SIGSEGV' }), failed);
    expect(within(card).getByTestId('exec-exit').textContent).toBe('killed SIGSEGV');
    expect(within(card).getByTestId('exec-exit').getAttribute('data-exit-code')).toBe('');
  });

  it.each([
    [{ status: 'timed_out', signal: 'SIGTERM' }, 'timed out', 'Timed out and stopped (SIGTERM); output so far below'],
    [{ status: 'cancelled', signal: 'SIGKILL' }, 'cancelled', 'Cancelled and stopped (SIGKILL); output so far below'],
    [
      { status: 'connection_lost', host: 'build-box', error: 'socket closed' },
      'connection lost',
      'Connection to build-box lost (socket closed); exit status unknown',
    ],
  ] as const)('labels %o `%s` and shows why as its error text', (fields, label, sentence) => {
    const card = renderExec(echo({ exit_code: null, ...fields }), failed);
    expect(within(card).getByTestId('exec-exit').textContent).toBe(label);
    expect(within(card).getByTestId('exec-exit').getAttribute('title')).toBe(sentence);
    expect(within(card).getByTestId('card-error').textContent).toBe(sentence);
    expect(within(card).getByTestId('exec-output').textContent).toBe('done\n');
  });

  it('shows why a command could not start, and that it printed nothing', () => {
    const card = renderExec(
      echo({
        status: 'failed_to_start',
        exit_code: null,
        error: 'spawn /bin/nosh ENOENT',
        output: '',
        output_bytes: 0,
        output_lines: 0,
      }),
      failed,
    );
    expect(within(card).getByTestId('exec-exit').textContent).toBe('failed to start');
    expect(within(card).getByTestId('card-error').textContent).toBe('Failed to start: spawn /bin/nosh ENOENT');
    expect(card.textContent).toContain('No output.');
  });

  it('shows a refusal, echoed as text, as error text', () => {
    const card = renderExec({ kind: 'text', text: 'Denied: running commands needs approval.' }, failed);
    expect(within(card).getByTestId('card-error').textContent).toBe('Denied: running commands needs approval.');
    expect(within(card).queryByTestId('exec-exit')).toBeNull();
  });

  it('shows a malformed command echo as its text rather than guessing its fields', () => {
    const card = renderExec({ ...echo(), status: 'exploded' } as unknown as EchoShape);
    expect(within(card).queryByTestId('exec-exit')).toBeNull();
    expect(within(card).getByTestId('generic-content').textContent).toContain('"exploded"');
  });
});

describe('a command echo as text', () => {
  it('is the status sentence, the note and the output', () => {
    expect(
      execEchoText(echo({ exit_code: 1, output: 'x\n', output_cut: true, output_bytes: 2048, output_lines: 300 })),
    ).toBe('Exit code 1\nShowing the last 1 of 300 lines (2 bytes of 2.0 KiB).\nx\n');
    expect(execEchoText(echo({ output: '', output_bytes: 0, output_lines: 0 }))).toBe('Exit code 0\n(no output)');
  });

  it('is what Copy transcript writes for a command card', () => {
    const events: StatusEvent[] = [
      {
        type: 'tool_started',
        call_id: 'c1',
        name: 'exec',
        args: { command: 'make' },
        description: { title: 'Run a command', subtitle: 'make', detail: 'make' },
        echo_kind: 'exec',
      },
      {
        type: 'tool_completed',
        call_id: 'c1',
        name: 'exec',
        execution_time: 1500,
        is_error: true,
        result: echo({ exit_code: 2, output: 'make: *** Error 2\n' }),
      },
    ];
    expect(transcriptMarkdown(reduceStatusEvents(emptyTranscript(), events))).toBe(
      '**exec** `make` (1.5 s) — error\n\n```\nExit code 2\nmake: *** Error 2\n```\n',
    );
  });
});
