import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { builtinTools } from '../index.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../permission-gate.ts';
import { ToolRegistry } from '../registry.ts';
import { programSubtitle } from './program-subtitle.ts';

// How a Code Mode card describes itself: its subtitle is the program's leading comment or first
// meaningful line, and each nested call in its trace carries the call's own description.

describe("a Code Mode card's subtitle", () => {
  it('is the leading comment, the program describing itself', () => {
    expect(programSubtitle('\n// Count the TODOs in src\nconst files = await tools.list_dir({});')).toBe(
      'Count the TODOs in src',
    );
    expect(programSubtitle('/**\n * Find large files\n */\nreturn 1;')).toBe('Find large files');
    expect(programSubtitle('/* Sum sizes */ \nreturn 1;')).toBe('Sum sizes');
  });

  it('is the first meaningful line when there is no comment, passing over braces and directives', () => {
    expect(programSubtitle("'use strict';\n{\n  const list = await tools.list_dir({ path: '.' });\n}")).toBe(
      "const list = await tools.list_dir({ path: '.' });",
    );
  });

  it('is cut to 80 characters and empty for a program of nothing but punctuation', () => {
    expect(programSubtitle(`return '${'x'.repeat(100)}';`)).toHaveLength(80);
    expect(programSubtitle('{\n}\n')).toBe('');
  });
});

describe('a nested Code Mode call', () => {
  let root: string;
  let workspace: string;
  let sessionDir: string;
  beforeEach(async () => {
    ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-nested-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("carries its own description in its dispatch event, and the program's card its comment", async () => {
    await writeFile(path.join(workspace, 'notes.md'), 'hello\n');
    const sink = new StatusRecorder();
    const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no one to ask'));
    const registry = new ToolRegistry({ workspace, sessionDir, sink, gate });
    registry.register(...builtinTools());
    const code = "// Read the notes\nawait tools.read_file({ path: 'notes.md' });\nreturn 'done';";
    const outcome = await registry.call({ callId: 'p1', name: 'run_code', args: { code } });
    expect(outcome.isError).toBe(false);
    expect(sink.ofType('tool_started')[0]?.description?.subtitle).toBe('Read the notes');
    const dispatched = sink.ofType('tool_code_dispatch')[0];
    expect(dispatched?.name).toBe('read_file');
    expect(dispatched?.description).toMatchObject({ subtitle: 'notes.md', path: 'notes.md' });
  });
});
