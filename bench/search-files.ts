import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { StatusRecorder } from '../main/status/sink.ts';
import { candidateFiles, MAX_MATCHES, searchFile, searchFilesTool } from '../main/tools/files/search-files.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../main/tools/permission-gate.ts';
import { ToolRegistry } from '../main/tools/registry.ts';
import { compare, time } from './measure.ts';

// search_files matches in a worker thread so no pattern can block the main process. What that
// costs: the whole pipeline through a waiting worker, against the same walk and matching run on
// this thread (the design before), over 200 files of 200 lines.

const FILES = 200;
const LINES = 200;

export async function run(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-search-'));
  const workspace = path.join(root, 'ws');
  const sessionDir = path.join(root, 'session');
  await Promise.all([mkdir(path.join(workspace, 'src'), { recursive: true }), mkdir(sessionDir)]);
  const text = Array.from({ length: LINES }, (_, line) => `const value${line} = compute(${line}); // line ${line}`);
  for (let file = 0; file < FILES; file += 1)
    await writeFile(
      path.join(workspace, 'src', `f${file}.ts`),
      `${text.join('\n')}\n${file === 150 ? 'NEEDLE\n' : ''}`,
    );
  const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no one to ask'));
  const registry = new ToolRegistry({ workspace, sessionDir, sink: new StatusRecorder(), gate });
  registry.register(searchFilesTool);
  let id = 0;
  const viaWorker = async (): Promise<void> => {
    id += 1;
    const outcome = await registry.call({ callId: `bench-${id}`, name: 'search_files', args: { pattern: 'NEEDLE' } });
    if (outcome.isError || !outcome.content.includes('f150.ts'))
      throw new Error(`bench search failed: ${outcome.content}`);
  };
  const inThread = async (): Promise<void> => {
    const signal = new AbortController().signal;
    let found = 0;
    for await (const file of candidateFiles(workspace, undefined, workspace, signal)) {
      found += (await searchFile(file.absolute, /NEEDLE/, MAX_MATCHES, signal))?.hits.length ?? 0;
    }
    if (found !== 1) throw new Error('in-thread search gave a wrong answer');
  };

  try {
    console.log(`search_files (a worker thread per search, kept for the next), ${FILES} files × ${LINES} lines`);
    const first = await time(1, viaWorker);
    const warm = await time(9, viaWorker);
    const baseline = await time(9, inThread);
    console.log(compare('first search (starts the worker)', first, baseline, 'on this thread'));
    console.log(compare('later searches (a waiting worker)', warm, baseline, 'on this thread'));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
