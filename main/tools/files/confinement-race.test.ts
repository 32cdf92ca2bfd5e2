import { mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalAnswer } from '../../../protocol/events.ts';
import { createFileToolsHarness, type FileToolsHarness } from '../../../test/file-tools-fixture.ts';
import { startRacingProcess, type RacingProcess } from '../../../test/racing-process.ts';
import { StatusRecorder } from '../../status/sink.ts';
import { PermissionGate, type ApprovalQuestion } from '../permission-gate.ts';
import { ToolRegistry } from '../registry.ts';
import { listDirTool } from './list-dir.ts';
import { readFileTool } from './read-file.ts';
import { writeFileTool } from './write-file.ts';

// Confinement holds at the moment of use: a second process swaps a workspace folder for a link to
// the outside over and over while every file tool runs, and an approval wait leaves the folder
// time to change. Nothing outside is ever read, listed or written.

let h: FileToolsHarness;
let swapper: RacingProcess | undefined;

const SECRET = 'OUTSIDE-SECRET';
const OUTSIDE_ONLY = 'outside-only-marker.txt';

beforeEach(async () => {
  h = await createFileToolsHarness();
  await mkdir(h.at('sub'));
  await writeFile(h.at('sub/data.txt'), 'inside line\n');
  await writeFile(path.join(h.outside, 'data.txt'), `${SECRET}\n`);
  await writeFile(path.join(h.outside, OUTSIDE_ONLY), `${SECRET}\n`);
});

afterEach(async () => {
  await swapper?.stop().catch(() => undefined);
  swapper = undefined;
  await h.cleanup();
});

/** Every name below the outside folder, and every file's contents. */
async function outsideState(): Promise<string> {
  const entries = await readdir(h.outside, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  const names = entries.map((entry) => path.relative(h.outside, path.join(entry.parentPath, entry.name))).sort();
  const contents = await Promise.all(files.sort().map((file) => readFile(file, 'utf8')));
  return JSON.stringify({ names, contents }, null, 1);
}

// Swaps `sub` for a link to the outside folder and back, holding each state a fraction of a
// millisecond. Whatever a tool made at `sub` while the real folder was away (it stayed inside the
// workspace) is cleared so the swap can go on.
const SWAPPER = `
  const fs = require('node:fs');
  const [folder, away, outside] = process.argv.slice(1);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const rest = () => Atomics.wait(pause, 0, 0, 0.2);
  const clear = () => fs.rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
  const until = (step) => {
    for (;;) {
      try {
        return step();
      } catch {
        clear();
      }
    }
  };
  let swaps = 0;
  (async () => {
    process.stdout.write('ready\\n');
    while (running()) {
      for (let i = 0; i < 10; i += 1) {
        fs.renameSync(folder, away);
        until(() => fs.symlinkSync(outside, folder));
        rest();
        clear();
        until(() => fs.renameSync(away, folder));
        swaps += 1;
        rest();
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    process.stdout.write(String(swaps));
  })();
`;

const TRIES = 1000;

type Call = (index: number) => [string, Record<string, unknown>];
const calls: Call[] = [
  () => ['read_file', { path: 'sub/data.txt' }],
  (index) => ['write_file', { path: `sub/new-${index}.txt`, content: 'written\n' }],
  (index) => ['write_file', { path: `sub/deep-${index}/more/x.txt`, content: 'written\n' }],
  () => ['patch_file', { path: 'sub/data.txt', edits: [{ old_text: 'line', new_text: 'Line' }] }],
  () => ['list_dir', { path: 'sub' }],
  () => ['search_files', { pattern: 'SECRET|line', path: 'sub' }],
];

describe('a folder swapped for a link to the outside while the tools run', () => {
  it(
    `lets ${TRIES} reads, writes, patches, listings and searches reach nothing outside`,
    { timeout: 120_000 },
    async () => {
      const before = await outsideState();
      swapper = await startRacingProcess(SWAPPER, [h.at('sub'), h.at('.sub-away'), h.outside]);
      const outcomes: { name: string; content: string; isError: boolean }[] = [];
      for (let index = 0; index < TRIES; index += 1) {
        const call = calls[index % calls.length];
        if (!call) throw new Error('no call');
        const [name, args] = call(index);
        const outcome = await h.call(name, args);
        outcomes.push({ name, content: outcome.content, isError: outcome.isError });
      }
      const swaps = Number(await swapper.stop());
      swapper = undefined;

      expect(await outsideState()).toBe(before);
      expect(outcomes.filter((outcome) => outcome.content.includes(SECRET))).toEqual([]);
      expect(outcomes.filter((outcome) => outcome.content.includes(OUTSIDE_ONLY))).toEqual([]);
      // The race ran: the folder was swapped many times, and some calls met the link at use time,
      // after the confinement check had passed.
      expect(swaps).toBeGreaterThan(100);
      expect(outcomes.some((outcome) => /changed while in use|became a symbolic link/.test(outcome.content))).toBe(
        true,
      );
      expect(outcomes.some((outcome) => !outcome.isError)).toBe(true);
    },
  );
});

describe('an approval wait', () => {
  async function approvalHarness(): Promise<{
    registry: ToolRegistry;
    asked: Promise<ApprovalQuestion>;
    answer(a: ApprovalAnswer): void;
  }> {
    let answer: (value: ApprovalAnswer) => void = () => undefined;
    let announce: (question: ApprovalQuestion) => void = () => undefined;
    const asked = new Promise<ApprovalQuestion>((resolve) => (announce = resolve));
    const approver = {
      ask: (question: ApprovalQuestion) =>
        new Promise<ApprovalAnswer>((resolve) => {
          answer = resolve;
          announce(question);
        }),
    };
    const gate = new PermissionGate(
      { read: 'ask', write: 'ask', exec: 'deny', ssh: 'deny', code: 'deny', net: 'deny' },
      approver,
    );
    const registry = new ToolRegistry({
      workspace: h.workspace,
      sessionDir: h.sessionDir,
      sink: new StatusRecorder(),
      gate,
    });
    registry.register(readFileTool, writeFileTool(), listDirTool);
    return { registry, asked, answer: (value) => answer(value) };
  }

  async function swapToOutside(): Promise<void> {
    await rename(h.at('sub'), h.at('.sub-away'));
    await symlink(h.outside, h.at('sub'));
  }

  it.each([
    ['write_file', { path: 'sub/approved.txt', content: 'written\n' }],
    ['write_file', { path: 'sub/new-folder/approved.txt', content: 'written\n' }],
    ['read_file', { path: 'sub/data.txt' }],
    ['list_dir', { path: 'sub' }],
  ])('is checked again when it ends: %s %j refuses a folder that became a link meanwhile', async (name, args) => {
    const before = await outsideState();
    const { registry, asked, answer } = await approvalHarness();
    const running = registry.call({ callId: 'c1', name, args });
    await asked;
    await swapToOutside();
    answer('once');
    const outcome = await running;
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/changed while in use|became a symbolic link/);
    expect(outcome.content).not.toContain(SECRET);
    expect(outcome.content).not.toContain(OUTSIDE_ONLY);
    expect(await outsideState()).toBe(before);
  });
});
