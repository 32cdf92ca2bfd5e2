import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, it } from 'vitest';

const run = promisify(execFile);
const writerModule = path.join(path.dirname(fileURLToPath(import.meta.url)), 'append-writer.ts');
let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'aether-append-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

it('fails an append the disk took only part of, instead of reporting it written', async () => {
  // A file-size limit of a few KiB makes the kernel accept only the start of a longer write, as a
  // nearly full disk does.
  const script = `
    const { AppendWriter } = await import(${JSON.stringify(writerModule)});
    const writer = await AppendWriter.open(${JSON.stringify(path.join(folder, 's.jsonl'))});
    const outcome = await writer.append('x'.repeat(20000) + '\\n').then(() => 'written', (error) => error.message);
    await writer.close();
    process.stdout.write(outcome);
  `;
  const { stdout } = await run('sh', [
    '-c',
    'ulimit -f 4 && exec "$0" --input-type=module -e "$1"',
    process.execPath,
    script,
  ]);
  expect(stdout).toMatch(/^Could not write the session file .*s\.jsonl/);
});

it('fails an unflushed append the disk took only part of, written in this thread, and cuts the file back', async () => {
  const file = path.join(folder, 's.jsonl');
  const script = `
    const { AppendWriter } = await import(${JSON.stringify(writerModule)});
    const { readFileSync } = await import('node:fs');
    const writer = await AppendWriter.open(${JSON.stringify(file)});
    await writer.append('first\\n', { sync: false });
    const outcome = await writer.append('x'.repeat(20000) + '\\n', { sync: false }).then(() => 'written', (error) => error.message);
    await writer.append('next\\n', { sync: false });
    await writer.close();
    process.stdout.write(JSON.stringify({ outcome, file: readFileSync(${JSON.stringify(file)}, 'utf8') }));
  `;
  const { stdout } = await run('sh', [
    '-c',
    'ulimit -f 4 && exec "$0" --input-type=module -e "$1"',
    process.execPath,
    script,
  ]);
  const { outcome, file: text } = JSON.parse(stdout) as { outcome: string; file: string };
  expect(outcome).toMatch(/^Could not write the session file .*s\.jsonl.*cut back to its last whole record/);
  expect(text).toBe('first\nnext\n');
});
