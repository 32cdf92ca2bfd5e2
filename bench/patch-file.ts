import { mkdir, mkdtemp, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { StatusRecorder } from '../main/status/sink.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../main/tools/permission-gate.ts';
import { patchFileTool } from '../main/tools/files/patch-file.ts';
import { planEdits } from '../main/tools/files/patch-edits.ts';
import { ToolRegistry } from '../main/tools/registry.ts';
import { compare, time, type Timing } from './measure.ts';

// patch_file with 20 edits on a 50 000-line file, through the whole pipeline (validation,
// confinement, matching against the original, diff, atomic write with fsync, echo), against a plain
// read-replace-write of the same edits.

const LINES = 50_000;
const EDITS = 20;

export async function run(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-patch-'));
  try {
    const workspace = path.join(root, 'ws');
    await mkdir(workspace);
    const original =
      Array.from({ length: LINES }, (_, index) => `export const value${index} = ${index}; // line ${index + 1}`).join(
        '\n',
      ) + '\n';
    const file = path.join(workspace, 'big.ts');
    const marks = Array.from({ length: EDITS }, (_, index) => Math.floor(((index + 0.5) * LINES) / EDITS));
    const edits = marks.map((line) => ({
      old_text: `value${line} = ${line};`,
      new_text: `value${line} = ${line * 2};`,
    }));

    const registry = new ToolRegistry({
      workspace,
      sessionDir: path.join(root, 'session'),
      sink: new StatusRecorder(),
      gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => '')),
    });
    registry.register(patchFileTool());

    let call = 0;
    const ours = await time(9, async () => {
      await writeFile(file, original);
      const outcome = await registry.call({
        callId: `p${(call += 1)}`,
        name: 'patch_file',
        args: { path: 'big.ts', edits },
      });
      if (outcome.isError) throw new Error(outcome.content);
    });
    const patched = await readFile(file, 'utf8');

    const baseline = await time(9, async () => {
      await writeFile(file, original);
      let text = await readFile(file, 'utf8');
      for (const edit of edits) text = text.replace(edit.old_text, edit.new_text);
      await writeFile(file, text);
    });
    if ((await readFile(file, 'utf8')) !== patched)
      throw new Error('patch_file and the baseline wrote different files');

    console.log(
      `patch_file, ${EDITS} edits on a ${LINES.toLocaleString('en')}-line file (${(Buffer.byteLength(original) / 1e6).toFixed(1)} MB), file rewritten each run`,
    );
    console.log(`  ${compare('registry call (match, diff, fsync, rename)', ours, baseline, 'read-replace-write')}`);

    // Where the call's time goes. Matching: the edits found in one pass over the text, against
    // the earlier way, one search of the whole text per edit (each must prove its match unique).
    const onePass = await time(9, () => planEdits(original, edits, 'big.ts'));
    const scanPerEdit = await time(9, () => {
      for (const edit of edits)
        for (let at = original.indexOf(edit.old_text); at !== -1; at = original.indexOf(edit.old_text, at + 1));
    });
    console.log(
      `  ${compare('matching the 20 edits in one pass', onePass, scanPerEdit, 'one scan per edit (before)')}`,
    );
    // The floor of any durable patch: the new bytes written to a temporary file, fsynced, renamed.
    const data = Buffer.from(original);
    const durableWrite = await time(9, async () => {
      const handle = await open(`${file}.floor`, 'w');
      await handle.writeFile(data);
      await handle.sync();
      await handle.close();
      await rename(`${file}.floor`, file);
    });
    console.log(`  ${compare('registry call', ours, durableWrite, 'write + fsync + rename alone')}`);

    // The rows above time the rewrite of the original with each call. Here only the call is timed,
    // against the floor under the same conditions: the same rewrite just before (untimed; its
    // flush shares the next fsync), then the new bytes written, fsynced, renamed, and the folder
    // fsynced as every atomic write does. Taking turns, so both see the same load.
    const callAlone: number[] = [];
    const floorAlone: number[] = [];
    for (let run = 0; run < 9; run += 1) {
      await writeFile(file, original);
      let start = performance.now();
      const outcome = await registry.call({ callId: `q${run}`, name: 'patch_file', args: { path: 'big.ts', edits } });
      callAlone.push(performance.now() - start);
      if (outcome.isError) throw new Error(outcome.content);
      await writeFile(file, original);
      start = performance.now();
      await durableReplace(file, data);
      floorAlone.push(performance.now() - start);
    }
    console.log(
      `  ${compare('the call alone', median(callAlone), median(floorAlone), 'write + fsync + rename + folder fsync')}`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The floor of an atomic replacement: temp file written, fsynced, renamed over, folder fsynced. */
async function durableReplace(file: string, data: Buffer): Promise<void> {
  const handle = await open(`${file}.floor`, 'w');
  await handle.writeFile(data);
  await handle.sync();
  await handle.close();
  await rename(`${file}.floor`, file);
  const folder = await open(path.dirname(file), 'r');
  await folder.sync();
  await folder.close();
}

function median(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return { medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0, runs: sorted.length };
}
