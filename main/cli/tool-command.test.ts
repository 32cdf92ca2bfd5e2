import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTempWorkspace } from '../../test/temp-workspace.ts';

// `aether tool` as a person runs it: the bin in its own process. It loads only the named built-in
// tool's module and zod's English locale; a name it does not know still gets the list of every
// built-in tool.

const BIN = path.join(import.meta.dirname, '..', '..', 'bin', 'aether.js');
const run = promisify(execFile);
const temp = useTempWorkspace('aether-tool-command-');

async function tool(name: string, args: string): Promise<{ model: string; echo: { is_error: boolean } }> {
  const { stdout } = await run(process.execPath, [
    BIN,
    'tool',
    name,
    args,
    '--workspace',
    temp.workspace,
    '--sessions',
    temp.sessionsRoot,
  ]);
  return JSON.parse(stdout) as { model: string; echo: { is_error: boolean } };
}

describe('aether tool', () => {
  it('runs the named built-in tool and prints what the model and the card get', async () => {
    await writeFile(path.join(temp.workspace, 'notes.txt'), 'first line\n');
    const printed = await tool('read_file', '{"path":"notes.txt"}');
    expect(printed.echo.is_error).toBe(false);
    expect(printed.model).toContain('1: first line');
  });

  it('checks the arguments with the schema messages in English (the only locale the command loads)', async () => {
    const printed = await tool('read_file', '{"path":5}');
    expect(printed.echo.is_error).toBe(true);
    expect(printed.model).toBe(
      'Invalid arguments for read_file: path: Invalid input: expected string, received number.',
    );
  });

  it('answers a name it does not know with every built-in tool', async () => {
    const printed = await tool('read_fiel', '{}');
    expect(printed.echo.is_error).toBe(true);
    expect(printed.model).toBe(
      'Unknown tool "read_fiel". Available tools: read_file, write_file, patch_file, list_dir, search_files, exec, ssh_exec, web_fetch, run_code.',
    );
  });
});
