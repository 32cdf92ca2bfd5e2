import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../../protocol/events.ts';
import { aether } from '../../../test/aether-cli.ts';
import { SessionLog } from '../../session/session-log.ts';
import { SessionSink } from '../../session/session-sink.ts';
import { writeTitle } from '../../session/session-titles.ts';
import { exportSession } from './session-export.ts';

// A session recorded through the real session log, exported as Markdown and as HTML: what each
// shows, that a secret from the environment or the key store never appears in either (as written,
// JSON-escaped in a call's arguments, or HTML-escaped), and that the page has no script and
// escapes what the session holds.

const TOKEN = 'ghp_s3cr3t-"value"&more<42>';
const STORED_KEY = 'sk-ant-stored-key-0123456789';
const ENV = { GITHUB_TOKEN: TOKEN, SHORT_KEY: 'abc', HOME_DIR: '/home/ada/projects/value-not-secret' };

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-export-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function recordSession(): Promise<string> {
  const log = await SessionLog.create({ root, workspace: '/work/demo', model: 'anthropic:claude-test' });
  const sink = new SessionSink(log, { emit: () => undefined });
  const events: StatusEvent[] = [
    { type: 'turn_started', turn_id: 't1', model: 'anthropic:claude-test' },
    {
      type: 'user_message',
      turn_id: 't1',
      text: `Fix the failing test. My token is ${TOKEN} and the key ${STORED_KEY}; keep <b>this</b> as text.`,
    },
    { type: 'reasoning', turn_id: 't1', text: 'The test runner prints the failure first.', duration_ms: 2300 },
    {
      type: 'assistant_message',
      turn_id: 't1',
      text: 'Running the tests.',
      tool_calls: [{ call_id: 'c1', name: 'exec', args: { command: `GITHUB_TOKEN="${TOKEN}" npm test` } }],
    },
    {
      type: 'tool_started',
      call_id: 'c1',
      name: 'exec',
      args: { command: `GITHUB_TOKEN="${TOKEN}" npm test` },
      description: { title: 'Run a command', subtitle: 'npm test' },
      echo_kind: 'exec',
    },
    {
      type: 'tool_completed',
      call_id: 'c1',
      name: 'exec',
      execution_time: 1200,
      is_error: true,
      result: {
        kind: 'exec',
        command: 'npm test',
        status: 'exited',
        exit_code: 1,
        signal: null,
        duration_ms: 1200,
        output_bytes: 80,
        output_lines: 2,
        output: `FAIL sum.test.ts <script>alert(1)</script>\nauth: ${JSON.stringify(TOKEN)}\n`,
        output_cut: false,
      },
    },
    {
      type: 'tool_started',
      call_id: 'c2',
      name: 'patch_file',
      args: { path: 'src/sum.ts' },
      description: { title: 'Edit src/sum.ts', subtitle: 'sum.ts' },
      echo_kind: 'patch',
    },
    {
      type: 'tool_approval_requested',
      call_id: 'c2',
      name: 'patch_file',
      request: { title: 'Edit src/sum.ts', detail: 'src/sum.ts', scope: 'write' },
    },
    { type: 'tool_approval_resolved', call_id: 'c2', answer: 'once' },
    {
      type: 'tool_completed',
      call_id: 'c2',
      name: 'patch_file',
      execution_time: 4,
      is_error: false,
      result: {
        kind: 'patch',
        path: 'src/sum.ts',
        added: 1,
        removed: 1,
        hunks: 1,
        diff: '--- a/src/sum.ts\n+++ b/src/sum.ts\n@@ -1 +1 @@\n-return a - b;\n+return a + b;\n',
      },
    },
    { type: 'assistant_message', turn_id: 't1', text: 'Fixed: `sum` now **adds**.', tool_calls: [] },
    { type: 'turn_completed', turn_id: 't1', usage: { input_tokens: 10, output_tokens: 5 }, stop_reason: 'end_turn' },
  ];
  for (const event of events) await sink.emit(event);
  await log.close();
  return log.id;
}

const secrets = [{ name: 'anthropic key', value: STORED_KEY }];

describe('exportSession as Markdown', () => {
  it('shows the messages, the thinking and each call with its outcome, question and card text', async () => {
    const id = await recordSession();
    await writeTitle(root, id, 'Fix the sum');
    const exported = await exportSession({ root, id, format: 'markdown', env: ENV, secrets });
    expect(exported).toMatchObject({ name: 'Fix-the-sum.md', mime: 'text/markdown' });
    const text = exported.text;
    expect(text).toMatch(
      /^# Fix the sum\n\n- Session: `[^`]+`\n- Workspace: `\/work\/demo`\n- Model: `anthropic:claude-test`\n/,
    );
    expect(text).toContain('## You\n\nFix the failing test.');
    expect(text).toContain('> *Thought for 2.3 s*\n>\n> The test runner prints the failure first.');
    expect(text).toContain(
      '**✗ exec** — Run a command: npm test · failed · 1.2 s\n\n*exit 1 · 2 lines*\n\n```\nFAIL sum.test.ts',
    );
    expect(text).toContain('**✓ patch_file** — Edit src/sum.ts · ok · 4 ms');
    expect(text).toContain('*Asked: Edit src/sum.ts — allowed once*');
    expect(text).toContain(
      '```diff\n--- a/src/sum.ts\n+++ b/src/sum.ts\n@@ -1 +1 @@\n-return a - b;\n+return a + b;\n```',
    );
    expect(text).toContain('## Assistant\n\nFixed: `sum` now **adds**.');
    // The messages come in the order they were written.
    expect(text.indexOf('## You')).toBeLessThan(text.indexOf('**✗ exec**'));
    expect(text.indexOf('**✓ patch_file**')).toBeLessThan(text.indexOf('Fixed:'));
  });
});

describe('a secret in the environment or the key store', () => {
  it('never appears in the Markdown or the HTML export, in any spelling', async () => {
    const id = await recordSession();
    await writeTitle(root, id, `Token ${TOKEN}`);
    for (const format of ['markdown', 'html'] as const) {
      const exported = await exportSession({ root, id, format, env: ENV, secrets });
      for (const spelling of [TOKEN, JSON.stringify(TOKEN).slice(1, -1), 'ghp_s3cr3t', STORED_KEY, 'sk-ant-stored'])
        expect(exported.text, `${format}: ${spelling}`).not.toContain(spelling);
      expect(exported.name).not.toContain('ghp_s3cr3t');
      expect(exported.text).toContain('[redacted: GITHUB_TOKEN]');
      expect(exported.text).toContain('[redacted: anthropic key]');
    }
  });

  it('leaves values too short to be a secret, and variables whose names say nothing of secrets', async () => {
    const id = await recordSession();
    const exported = await exportSession({
      root,
      id,
      format: 'markdown',
      env: { SHORT_KEY: 'Fix', WORKSPACE_NAME: 'failing test' },
    });
    expect(exported.text).toContain('Fix the failing test.');
    expect(exported.text).not.toContain('[redacted');
  });
});

describe('exportSession as HTML', () => {
  it('is one page with inline style, no script, and every text of the session escaped', async () => {
    const id = await recordSession();
    const { text: page, mime } = await exportSession({ root, id, format: 'html', env: ENV, secrets });
    expect(mime).toBe('text/html');
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/<link|<img|\son\w+=|src=|href=/i);
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(page).toContain('FAIL sum.test.ts &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('keep &lt;b&gt;this&lt;/b&gt; as text.');
    expect(page).toContain('<span class="add">+return a + b;</span>');
    expect(page).toContain('<span class="name">exec</span>');
    expect(page).toMatch(/<style>[\s\S]*\.card \{/);
  });
});

describe('aether export', () => {
  it('writes the HTML page to -o FILE and Markdown to stdout, and says which session is missing', async () => {
    const id = await recordSession();
    const file = path.join(root, 'out', '..', 'session.html');
    const written = await aether(['export', id, '--html', '-o', file, '--sessions', root], ENV);
    expect(written.code).toBe(0);
    expect(written.stderr).toContain(`Exported session ${id} as an HTML page to ${path.resolve(file)}`);
    const page = await readFile(file, 'utf8');
    expect(page).toContain('<span class="name">patch_file</span>');
    expect(page).not.toContain('ghp_s3cr3t');

    const printed = await aether(['export', id, '--sessions', root], ENV);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('## Assistant\n\nFixed: `sum` now **adds**.');
    expect(printed.stdout).not.toContain('ghp_s3cr3t');

    const missing = await aether(['export', 'no-such-session', '--sessions', root]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no-such-session');
  });
});
