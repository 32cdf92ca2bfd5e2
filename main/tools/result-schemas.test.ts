import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  execRunSchema,
  listDirResultSchema,
  patchFileResultSchema,
  readFileResultSchema,
  searchFilesResultSchema,
  webFetchResultSchema,
  writeFileResultSchema,
} from '../../protocol/tools.ts';
import { useSshWorld } from '../../test/ssh-setup.ts';
import type { ListDirResult, SearchFilesResult, WriteFileResult } from '../../protocol/tools.ts';
import { execTool } from './exec/exec.ts';
import { createFileToolsHarness, type FileToolsHarness } from '../../test/file-tools-fixture.ts';
import { builtinTools } from './index.ts';
import { DEFAULT_SPILL_LIMITS } from './policies.ts';
import type { ToolContext, ToolDefinition } from './tool.ts';

// Each built-in tool's resultSchema against the structured result of a real call, so the types
// run_code programs are promised cannot drift from what the tools return. The schemas are strict:
// a field a tool starts returning without its schema fails here too.

describe('result schemas', () => {
  it('are the schemas of protocol/tools.ts, written once', () => {
    const schemaOf = (name: string) => builtinTools().find((tool) => tool.name === name)?.model.resultSchema;
    expect(schemaOf('read_file')).toBe(readFileResultSchema);
    expect(schemaOf('write_file')).toBe(writeFileResultSchema);
    expect(schemaOf('patch_file')).toBe(patchFileResultSchema);
    expect(schemaOf('list_dir')).toBe(listDirResultSchema);
    expect(schemaOf('search_files')).toBe(searchFilesResultSchema);
    expect(schemaOf('exec')).toBe(execRunSchema);
    expect(schemaOf('ssh_exec')).toBe(execRunSchema);
    expect(schemaOf('web_fetch')).toBe(webFetchResultSchema);
  });
});

/** The result parses with the tool's schema, as the tool returned it and as a program receives it (JSON). */
function expectSchemaFits(tool: ToolDefinition<unknown, unknown> | undefined, result: unknown): void {
  const schema = tool?.model.resultSchema;
  expect(schema, `${tool?.name} declares a resultSchema`).toBeDefined();
  expect(result).toBeDefined();
  for (const shape of [result, JSON.parse(JSON.stringify(result)) as unknown]) {
    expect(schema!.safeParse(shape).error?.issues ?? []).toEqual([]);
  }
}

/** Runs a tool's execute outside the registry, for results the registry keeps from programs (failures). */
function directContext(harness: FileToolsHarness): ToolContext {
  return {
    callId: 'direct-1',
    workspace: harness.workspace,
    sessionDir: harness.sessionDir,
    signal: new AbortController().signal,
    report: () => undefined,
    dispatch: () => Promise.reject(new Error('No nested calls in this test.')),
    resolvedPath: (requested) => path.resolve(harness.workspace, requested),
    requestApproval: async () => false,
    permits: async () => ({ allowed: false, reason: 'Nobody answers questions in this test.' }),
    allowRuleFor: () => null,
  };
}

describe('built-in tools resolve to what their resultSchema declares', () => {
  let harness: FileToolsHarness;

  beforeEach(async () => {
    harness = await createFileToolsHarness();
    harness.registry.register(execTool({ limits: { ...DEFAULT_SPILL_LIMITS, maxLines: 20, maxBytes: 4096 } }));
    await mkdir(harness.at('src'));
    await writeFile(harness.at('src/a.ts'), 'export const a = 1;\nexport const b = 2;\n');
    await symlink('a.ts', harness.at('src/link.ts'));
  });
  afterEach(async () => {
    await harness.cleanup();
  });

  it('read_file', async () => {
    const outcome = await harness.call('read_file', { path: 'src/a.ts', limit: 1 });
    expect(outcome.isError).toBe(false);
    expectSchemaFits(harness.registry.get('read_file'), outcome.result);
  });

  it('write_file, creating and overwriting', async () => {
    const created = await harness.call('write_file', { path: 'src/new.txt', content: 'one\n' });
    expectSchemaFits(harness.registry.get('write_file'), created.result);
    const { sha256 } = created.result as WriteFileResult;
    const overwritten = await harness.call('write_file', {
      path: 'src/new.txt',
      content: 'two\n',
      expected_sha256: sha256,
    });
    expect(overwritten.isError).toBe(false);
    expectSchemaFits(harness.registry.get('write_file'), overwritten.result);
  });

  it('patch_file, applied and refused', async () => {
    const applied = await harness.call('patch_file', {
      path: 'src/a.ts',
      edits: [{ old_text: 'b = 2', new_text: 'b = 3' }],
    });
    expect(applied.isError).toBe(false);
    expectSchemaFits(harness.registry.get('patch_file'), applied.result);
    const tool = harness.registry.get('patch_file')!;
    const refused = await tool.execute(
      { path: 'src/a.ts', edits: [{ old_text: 'not there', new_text: '' }] },
      directContext(harness),
    );
    expect(refused).toMatchObject({ ok: false });
    expectSchemaFits(tool, refused);
  });

  it('list_dir, with a file, a folder and a link', async () => {
    const outcome = await harness.call('list_dir', { depth: 2 });
    expect((outcome.result as ListDirResult).entries.map((entry) => entry.kind).sort()).toEqual([
      'dir',
      'file',
      'symlink',
    ]);
    expectSchemaFits(harness.registry.get('list_dir'), outcome.result);
  });

  it('search_files', async () => {
    const outcome = await harness.call('search_files', { pattern: 'const', glob: '*.ts' });
    expect((outcome.result as SearchFilesResult).matches.length).toBeGreaterThan(0);
    expectSchemaFits(harness.registry.get('search_files'), outcome.result);
  });

  it('exec, with its output kept whole in a file', async () => {
    const outcome = await harness.call('exec', { command: 'seq 1 100' });
    expect(outcome.result).toMatchObject({ status: 'exited', exit_code: 0, output_path: expect.any(String) });
    expectSchemaFits(harness.registry.get('exec'), outcome.result);
  });

  it('exec, failing to start', async () => {
    const tool = execTool({ shell: path.join(harness.root, 'no-such-shell') }) as unknown as ToolDefinition<
      unknown,
      unknown
    >;
    const result = await tool.execute({ command: 'true' }, directContext(harness));
    expect(result).toMatchObject({ status: 'failed_to_start', error: expect.any(String) });
    expectSchemaFits(tool, result);
  });
});

describe('ssh_exec resolves to what its resultSchema declares', () => {
  const ssh = useSshWorld({ trustHost: true });

  it('ssh_exec', async () => {
    const { run, registry } = ssh.world.setup();
    const outcome = await run({ host: 'testbox', command: 'echo hello' });
    expect(outcome.result).toMatchObject({ status: 'exited', exit_code: 0, host: expect.any(String) });
    expectSchemaFits(registry.get('ssh_exec'), outcome.result);
  });
});
