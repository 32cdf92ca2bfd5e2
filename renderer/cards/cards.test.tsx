// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalAnswer } from '../../protocol/events.ts';
import type { ExecEcho, PatchEcho, ReadFileEcho } from '../../protocol/echo.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import type { ToolCallView } from '../store/transcript-types.ts';
import { CardFrame } from './ToolCard.tsx';

afterEach(cleanup);

interface Recorded {
  approvals: Array<[string, ApprovalAnswer]>;
  stops: number;
  cancels: string[];
  contentRequests: string[];
}

function actionsRecording(): { actions: PanelActions; recorded: Recorded } {
  const recorded: Recorded = { approvals: [], stops: 0, cancels: [], contentRequests: [] };
  const unused = async () => undefined;
  const actions: PanelActions = {
    send: async () => true,
    editQueued: async () => true,
    removeQueued: async () => true,
    moveQueued: async () => true,
    sendQueued: async () => true,
    holdQueued: async () => true,
    agentTranscript: async () => ({ ok: false, error: 'No agents in these tests.' }),
    listAgents: async () => [],
    setTodos: async () => true,
    approvePlan: async () => true,
    keepPlanning: async () => true,
    promptHistory: async () => [],
    rememberPrompt: async () => [],
    forgetPrompt: async () => [],
    importPrompts: async () => [],
    stop: async () => void (recorded.stops += 1),
    cancel: async (callId) => {
      recorded.cancels.push(callId);
      return true;
    },
    approve: async (callId, answer) => {
      recorded.approvals.push([callId, answer]);
      return true;
    },
    previewCall: async () => ({ ok: false, error: 'No previews in these tests.' }),
    keepPreview: async () => false,
    processes: async () => [],
    processOutput: async () => ({ ok: false, error: 'no processes here' }),
    stopProcess: async () => true,
    keepRunning: async () => true,
    toolContent: async (callId) => {
      recorded.contentRequests.push(callId);
      return {
        ok: true,
        value: {
          call_id: callId,
          name: 'read_file',
          content: '<path>src/a.ts</path>\n<content>1: x</content>',
          is_error: false,
        },
      };
    },
    refreshSessions: unused,
    openSession: unused,
    openAgentSession: unused,
    showAgentCard: unused,
    loadOlderEvents: unused,
    newSession: unused,
    deleteSession: unused,
    searchSessions: async () => [],
    renameSession: async () => true,
    exportSession: async () => true,
    sessionGrants: async () => [],
    revokeGrant: async () => [],
    updateSettings: unused,
    reloadSettings: unused,
    switchModel: async () => ({ ok: false, error: 'not here' }),
    setKey: async () => ({ ok: false, error: 'not here' }),
    cycleEffort: unused,
    cyclePermissionMode: unused,
    openLink: unused,
    previewRewind: async () => ({ ok: false, error: 'no rewind in this test' }),
    applyRewind: async () => ({ ok: false, error: 'no rewind in this test' }),
    turnChanges: async () => ({ ok: false, error: 'no changes in this test' }),
    revertChanges: async () => ({ ok: false, error: 'no changes in this test' }),
    copyTranscript: async () => true,
    compact: async () => true,
    userCommands: async () => ({ commands: [], problems: [] }),
    findFiles: async () => null,
    serverModels: async () => ({ ok: false, error: 'no server in this test' }),
    attachImage: async () => ({ ok: false, error: 'not here' }),
    image: async () => null,
    toolBlob: async () => ({ ok: false, error: 'no resources in this test' }),
    mcpResource: async () => ({ ok: false, error: 'no resources in this test' }),
    mcpServers: async () => ({ ok: false, error: 'no MCP servers in this test' }),
    mcpPrompt: async () => ({ ok: false, error: 'no MCP prompts in this test' }),
    mcpResources: async () => [],
    mcpForms: async () => ({ ok: true, value: [] }),
    answerMcpForm: async () => ({ ok: false, error: 'no MCP forms in this test' }),
    onMcpForms: () => () => undefined,
    hooks: async () => ({ ok: false, error: 'no hooks in this test' }),
    readFile: async () => ({ ok: false, error: 'no files in this test' }),
    existingFiles: async () => [],
    openFile: unused,
  };
  return { actions, recorded };
}

function renderCard(call: ToolCallView) {
  const { actions, recorded } = actionsRecording();
  const view = render(
    <ActionsContext.Provider value={actions}>
      <CardFrame call={call} />
    </ActionsContext.Provider>,
  );
  return { ...view, recorded, card: screen.getByTestId('tool-card') };
}

const base = (name: string, extra: Partial<ToolCallView>): ToolCallView => ({
  call_id: 'c1',
  name,
  args: {},
  state: 'done',
  is_error: false,
  approvals: [],
  nested: [],
  execution_time: 8,
  ...extra,
});

const text = (value: string) => ({ kind: 'text', text: value });

/** What tool_started says of a call about one file. */
const aboutFile = (title: string, path: string) => ({
  title,
  subtitle: path.slice(path.lastIndexOf('/') + 1),
  path,
});

/** A command's echo: exited 0 with no output unless told otherwise. */
function execEcho(fields: Partial<ExecEcho>): ExecEcho {
  const output = fields.output ?? '';
  return {
    kind: 'exec',
    command: 'make',
    status: 'exited',
    exit_code: 0,
    signal: null,
    duration_ms: 15,
    output_bytes: new TextEncoder().encode(output).length,
    output_lines: output === '' ? 0 : output.split('\n').length - 1,
    output_cut: false,
    ...fields,
    output,
  };
}

const readEcho: ReadFileEcho = {
  kind: 'read-file',
  path: '/work/src/deep/app.ts',
  range: { start: 10, end: 12 },
  total_lines: 40,
  content: 'const a = 1;\nconst b = 2;\nexport { a, b };\n',
  truncated: true,
};

describe('ReadFileView', () => {
  it('shows the basename with the workspace path as its tooltip, the range and numbered lines', () => {
    const { card } = renderCard(
      base('read_file', {
        description: aboutFile('Read src/deep/app.ts', 'src/deep/app.ts'),
        echo_kind: 'read-file',
        echo: readEcho,
      }),
    );
    // A page of the file: its lines follow the name.
    expect(within(card).getByTestId('card-subtitle').textContent).toBe('app.ts lines 10–12');
    expect(within(card).getByTestId('card-subtitle').getAttribute('title')).toBe('src/deep/app.ts');
    expect(within(card).getByTestId('read-range').textContent).toContain('Lines 10–12 of 40');
    const lines = within(card)
      .getAllByTestId('code-line')
      .map((line) => line.textContent);
    expect(lines).toEqual(['10const a = 1;', '11const b = 2;', '12export { a, b };']);
    expect(card.textContent).not.toContain('<content>');
  });

  it('shows the error text of a failed read, with no subtitle when the path is missing', () => {
    const { card } = renderCard(
      base('read_file', {
        echo_kind: 'read-file',
        state: 'error',
        is_error: true,
        echo: text('ENOENT: no such file, open notes.md'),
      }),
    );
    expect(within(card).queryByTestId('card-subtitle')).toBeNull();
    expect(within(card).getByTestId('card-error').textContent).toBe('ENOENT: no such file, open notes.md');
  });
});

describe('PatchFileView', () => {
  it('shows the statistics and colours the diff by line', () => {
    const patch: PatchEcho = {
      kind: 'patch',
      path: 'src/a.ts',
      added: 1,
      removed: 1,
      hunks: 1,
      diff: '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-old\n+new\n same\n',
    };
    const { card } = renderCard(
      base('patch_file', { description: aboutFile('Patch src/a.ts', 'src/a.ts'), echo_kind: 'patch', echo: patch }),
    );
    expect(within(card).getByTestId('card-subtitle').textContent).toBe('a.ts');
    expect(within(card).getByTestId('patch-stats').textContent).toBe('+1 −1');
    const kinds = [...within(card).getByTestId('patch-diff').children].map((line) => line.getAttribute('data-kind'));
    expect(kinds).toEqual(['file', 'remove', 'add', 'context']);
  });
});

describe('done and error cards', () => {
  it('shows only `✓ ok` for a successful call with nothing to show', () => {
    const { card } = renderCard(base('list_dir', { echo_kind: 'text', echo: text('') }));
    expect(within(card).getByTestId('card-done').textContent).toBe('✓ ok');
    expect(card.querySelector('.card-body')).toBeNull();
  });

  it('always shows the error text on a generic error card', () => {
    const { card } = renderCard(
      base('list_dir', { state: 'error', is_error: true, echo: text('list_dir: src/missing is not a folder.') }),
    );
    expect(within(card).getByTestId('card-error').textContent).toBe('list_dir: src/missing is not a folder.');
    expect(within(card).queryByTestId('card-done')).toBeNull();
  });

  it('renders tool text as text, never as HTML', () => {
    const { card } = renderCard(base('search_files', { echo: text('<img src=x onerror=alert(1)>') }));
    expect(within(card).getByTestId('generic-content').textContent).toBe('<img src=x onerror=alert(1)>');
    expect(card.querySelector('img')).toBeNull();
  });
});

describe('XML results', () => {
  const xml = `<files root="src">${Array.from({ length: 3 }, (_, i) => `<dir name="d${i}">${Array.from({ length: 5 }, (_, j) => `<file>f${j}.ts</file>`).join('')}</dir>`).join('')}</files>`;
  // `list_tree` stands for a replayed call of a tool this build does not register.
  const knownTools = [
    'read_file',
    'write_file',
    'patch_file',
    'list_dir',
    'search_files',
    'exec',
    'ssh_exec',
    'run_code',
  ];
  const setTools = (tools: string[] | null) => usePanel.setState({ tools });
  afterEach(() => setTools(null));

  it('shows an unknown tool’s result that is one XML document as a collapsed tree that expands', () => {
    setTools(knownTools);
    const { card } = renderCard(base('list_tree', { echo: text(xml) }));
    const tree = within(card).getByTestId('xml-tree');
    expect(tree.firstElementChild?.textContent).toBe('files root="src"');
    const collapsed = tree.children.length;
    fireEvent.click(within(card).getByTestId('xml-toggle'));
    expect(within(card).getByTestId('xml-tree').children.length).toBeGreaterThan(collapsed);
    expect(within(card).getByTestId('xml-tree').textContent).toContain('file: f4.ts');
  });

  it('escapes the quotes inside an attribute value, so one value cannot pass for several attributes', () => {
    setTools(knownTools);
    const { card } = renderCard(base('list_tree', { echo: text(`<files note='a" b="c'/>`) }));
    expect(within(card).getByTestId('xml-tree').firstElementChild?.textContent).toBe('files note="a&quot; b=&quot;c"');
  });

  it('keeps a known generic tool’s XML literal', () => {
    setTools(knownTools);
    const { card } = renderCard(base('search_files', { echo_kind: 'text', echo: text(xml) }));
    expect(within(card).queryByTestId('xml-tree')).toBeNull();
    expect(within(card).getByTestId('generic-content').textContent).toBe(xml);
  });

  it('keeps the XML literal while the panel has not said which tools it knows', () => {
    setTools(null);
    const { card } = renderCard(base('list_tree', { echo: text(xml) }));
    expect(within(card).queryByTestId('xml-tree')).toBeNull();
    expect(within(card).getByTestId('generic-content').textContent).toBe(xml);
  });

  it('keeps the raw text when the XML has text around the root', () => {
    setTools(knownTools);
    const { card } = renderCard(base('list_tree', { echo: text(`Here: ${xml}`) }));
    expect(within(card).queryByTestId('xml-tree')).toBeNull();
    expect(within(card).getByTestId('generic-content').textContent).toBe(`Here: ${xml}`);
  });
});

describe('approvals', () => {
  it('shows exactly what is asked and sends the chosen answer', () => {
    const request = {
      title: 'Run a command in the workspace',
      detail: 'rm -rf build/',
      scope: 'exec',
      always_rules: ['exec(rm -rf build/)'],
    };
    const { card, recorded } = renderCard(
      base('exec', {
        state: 'running',
        args: { command: 'rm -rf build/' },
        approvals: [{ call_id: 'c1', name: 'exec', request }],
      }),
    );
    expect(within(card).getByTestId('approval-title').textContent).toBe('Run a command in the workspace');
    expect(within(card).getByTestId('approval-detail').textContent).toBe('rm -rf build/');
    fireEvent.click(
      within(card).getByRole('button', {
        name: 'Always for this session: the command rm -rf build/ in this workspace',
      }),
    );
    expect(recorded.approvals).toEqual([['c1', 'session']]);
  });

  it('says why a protected path is sensitive and offers no "Always" for it', () => {
    const request = {
      title: 'Patch .git/config',
      detail: '[core] fsmonitor = …',
      scope: 'write',
      warning: '.git/config is a protected path: git runs hooks and programs named in its config',
    };
    const { card } = renderCard(
      base('patch_file', { state: 'running', approvals: [{ call_id: 'c1', name: 'patch_file', request }] }),
    );
    expect(within(card).getByTestId('approval-warning').textContent).toBe(request.warning);
    expect(within(card).queryByTestId('approve-session')).toBeNull();
    expect(within(card).getByTestId('approve-once')).toBeTruthy();
  });

  it('shows a bidi override in what is asked as a mark, not as reordered text', () => {
    const request = { title: 'Run a command', detail: 'cat report\u202Efdp.exe', scope: 'exec' };
    const { card } = renderCard(
      base('exec', { state: 'running', approvals: [{ call_id: 'c1', name: 'exec', request }] }),
    );
    expect(within(card).getByTestId('approval-detail').textContent).toBe('cat report⟨RLO⟩fdp.exe');
  });
});

describe('ExecView', () => {
  it('shows live output, the bytes the window cut, and a Stop button that cancels this call alone', () => {
    const { card, recorded } = renderCard(
      base('exec', {
        state: 'running',
        echo_kind: 'exec',
        description: { title: 'Run a command', subtitle: 'make', detail: 'make' },
        progress: { text: 'step 9\nstep 10\n', cut_bytes: 2048, total_bytes: 2063 },
      }),
    );
    expect(within(card).getByTestId('card-subtitle').textContent).toBe('make');
    expect(within(card).getByTestId('exec-output').textContent).toBe('step 9\nstep 10\n');
    expect(within(card).getByTestId('exec-cut').textContent).toContain('2048 bytes cut');
    fireEvent.click(within(card).getByTestId('card-stop'));
    expect(recorded.cancels).toEqual(['c1']);
    expect(recorded.stops).toBe(0);
  });

  it('shows the exit badge and output when the command failed', () => {
    const { card } = renderCard(
      base('ssh_exec', {
        state: 'error',
        is_error: true,
        echo_kind: 'exec',
        description: { title: 'Run a command on build-box', subtitle: 'build-box: make', detail: 'make' },
        echo: execEcho({ host: 'build-box', exit_code: 2, output: 'make: *** No rule to make target.\n' }),
      }),
    );
    expect(within(card).getByTestId('card-subtitle').textContent).toBe('build-box: make');
    expect(within(card).getByTestId('exec-exit').textContent).toBe('exit 2');
    expect(within(card).getByTestId('exec-output').textContent).toBe('make: *** No rule to make target.\n');
  });

  it('shows the duration once, in the header', () => {
    const { card } = renderCard(
      base('exec', { echo_kind: 'exec', execution_time: 20, echo: execEcho({ output: 'a.ts\n', duration_ms: 15 }) }),
    );
    expect(within(card).getByTestId('card-time').textContent).toBe('20 ms');
    expect(card.textContent?.match(/\d+ ms/g)).toEqual(['20 ms']);
  });
});

describe('ExecView errors', () => {
  it('labels a cancelled command `cancelled` and shows why as its error text', () => {
    const sentence = 'Cancelled and stopped (SIGTERM); output so far below';
    const { card } = renderCard(
      base('exec', {
        state: 'error',
        is_error: true,
        echo_kind: 'exec',
        echo: execEcho({ status: 'cancelled', exit_code: null, signal: 'SIGTERM', output: 'step 1\n' }),
      }),
    );
    const badge = within(card).getByTestId('exec-exit');
    expect(badge.textContent).toBe('cancelled');
    expect(badge.getAttribute('title')).toBe(sentence);
    expect(within(card).getByTestId('card-error').textContent).toBe(sentence);
    expect(within(card).getByTestId('exec-output').textContent).toBe('step 1\n');
  });

  it('shows why a command could not start as its error text', () => {
    const { card } = renderCard(
      base('ssh_exec', {
        state: 'error',
        is_error: true,
        echo_kind: 'exec',
        echo: execEcho({ status: 'failed_to_start', exit_code: null, error: 'no such host "gone"', output: '' }),
      }),
    );
    expect(within(card).getByTestId('exec-exit').textContent).toBe('failed to start');
    expect(within(card).getByTestId('card-error').textContent).toBe('Failed to start: no such host "gone"');
  });

  it('shows a refusal as error text, not as a command result', () => {
    const { card } = renderCard(
      base('exec', {
        state: 'error',
        is_error: true,
        echo_kind: 'exec',
        echo: text('Denied: running commands needs approval.'),
      }),
    );
    expect(within(card).getByTestId('card-error').textContent).toBe('Denied: running commands needs approval.');
    expect(within(card).queryByTestId('exec-exit')).toBeNull();
  });
});

describe('Code Mode card', () => {
  const program = 'const a = await tools.read_file({path: "a.ts"});\nreturn a;';
  const nested = [
    {
      call_id: 'c1.1',
      name: 'read_file',
      args: { path: 'a.ts' },
      content: '<path>a.ts</path>\n<type>file</type>\n<content>\n1: x\n\n(End of file - total 1 lines)\n</content>',
      echo: {
        ...readEcho,
        path: 'a.ts',
        range: { start: 1, end: 1 },
        total_lines: 1,
        content: 'x\n',
        truncated: false,
      },
      is_error: false,
      execution_time: 3,
    },
    {
      call_id: 'c1.2',
      name: 'exec',
      args: { command: 'false' },
      content: 'Exit code 1 · 2 ms\n(no output)',
      echo: execEcho({ exit_code: 1, output: '' }),
      is_error: true,
      execution_time: 2,
    },
  ];
  const codeCall = (extra: Partial<ToolCallView> = {}) =>
    base('run_code', {
      description: { title: 'Run a program that calls tools', subtitle: 'const a = …', detail: program },
      echo_kind: 'code',
      nested,
      echo: { kind: 'code', output: 'CODE_ONE+CODE_TWO', empty: false },
      ...extra,
    });

  it('lists nested calls as a trace inside the one card', () => {
    const { card } = renderCard(codeCall());
    const entries = within(card).getAllByTestId('code-trace-entry');
    expect(entries.map((entry) => entry.getAttribute('data-state'))).toEqual(['ok', 'error']);
    expect(entries[0]?.textContent).toContain('read_file');
    expect(within(card).getByTestId('code-result').textContent).toBe('CODE_ONE+CODE_TWO');
    expect(screen.getAllByTestId('tool-card')).toHaveLength(1);
  });

  it('opens a nested call with the body of its echo kind: a page as numbered lines, a command with its badge', () => {
    const { card } = renderCard(codeCall());
    const [read, exec] = within(card).getAllByTestId('code-trace-entry');
    fireEvent.click(within(read!).getByRole('button'));
    expect(
      within(read!)
        .getAllByTestId('code-line')
        .map((line) => line.textContent),
    ).toEqual(['1x']);
    expect(read!.textContent).not.toContain('<content>');
    fireEvent.click(within(exec!).getByRole('button'));
    expect(within(exec!).getByTestId('exec-exit').textContent).toBe('exit 1');
  });

  it('shows the program from the call’s description, not from guessed argument names', () => {
    const { card } = renderCard(codeCall({ args: { source: 'not this' } }));
    fireEvent.click(within(card).getByTestId('code-program-toggle'));
    expect(within(card).getByTestId('code-program').textContent).toContain('return a;');
  });

  it('is the minimal ok for a run that printed and returned nothing and called no tool', () => {
    const { card } = renderCard(codeCall({ nested: [], echo: { kind: 'code', output: '(no output)', empty: true } }));
    expect(within(card).getByTestId('card-done').textContent).toBe('✓ ok');
  });
});

describe('full content', () => {
  it('fetches what the model received by call id when asked', async () => {
    const { card, recorded } = renderCard(base('read_file', { echo_kind: 'read-file', echo: readEcho }));
    fireEvent.click(within(card).getByTestId('full-content-button'));
    expect(await within(card).findByText(/<content>1: x<\/content>/)).toBeTruthy();
    expect(recorded.contentRequests).toEqual(['c1']);
  });
});
