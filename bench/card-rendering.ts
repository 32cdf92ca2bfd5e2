import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import type { StatusEvent } from '../protocol/events.ts';
import { SESSION_FORMAT_VERSION, serializeRecord, type SessionRecord } from '../main/session/records.ts';
import { sessionFileOf } from '../main/session/session-log.ts';
import { startFixtureServer } from '../main/model/fixture-server.ts';
import { writeBigSession } from '../test/big-session.ts';
import { findChromium } from '../test/system-programs.ts';
import { fmt } from './measure.ts';
import {
  MOUNT_SCRIPT,
  SCROLL_SCRIPT,
  STATIC_CARDS_SCRIPT,
  OPEN_GROUP_SCRIPT,
  PAGE_PLAIN_SCRIPT,
  type Mounted,
  type Opened,
  type Scrolled,
} from './card-rendering-page.ts';

// The cards in real Chromium, through the web host (`aether serve`, the built renderer in out/):
// expanding a 5 000-line read and a 2 000-line diff (time to the first frame after the click, the
// longest task while it mounts and colours), against the same text as one plain <pre>; and scrolling
// a 10 000-card session end to end (older pages load as it goes), against the same number of static
// cards in one non-virtualised page; and opening a read group of 249 cards (what it draws, its longest
// task, when the lines on screen have their colours), against the same text as one plain <pre>. Skipped, with the reason, when there is no Chromium or no build.

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = 5;
const GROUP_CALLS = 249;
/** Cards the bench moves through with Page Down in an opened group. */
const WALK_STEPS = 60;

const numbered = (count: number, line: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => line(index)).join('\n') + '\n';

/** A session holding one read card of 5 000 lines and one patch card of a 2 000-line diff. */
async function writeCardsSession(root: string, workspace: string, read: string, diff: string): Promise<void> {
  const file = sessionFileOf(root, 'cards');
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  let seq = 0;
  const records: SessionRecord[] = [
    { kind: 'header', version: SESSION_FORMAT_VERSION, id: 'cards', workspace, created_at: at, model: 'compat:bench' },
  ];
  const event = (value: StatusEvent) => records.push({ kind: 'event', event: { ...value, seq: (seq += 1), at } });
  event({ type: 'user_message', turn_id: 't', text: 'Cards bench' });
  event({ type: 'turn_started', turn_id: 't', model: 'compat:bench' });
  const calls = [
    {
      id: 'call-read',
      name: 'read_file',
      kind: 'read-file',
      path: 'src/big.ts',
      echo: {
        kind: 'read-file',
        path: 'src/big.ts',
        range: { start: 1, end: 5000 },
        total_lines: 5000,
        content: read,
        truncated: false,
      },
    },
    {
      id: 'call-patch',
      name: 'patch_file',
      kind: 'patch',
      path: 'src/many.ts',
      echo: { kind: 'patch', path: 'src/many.ts', diff, added: 1000, removed: 1000, hunks: 1 },
    },
  ];
  for (const call of calls) {
    const args = { path: call.path };
    event({
      type: 'assistant_message',
      turn_id: 't',
      text: '',
      tool_calls: [{ call_id: call.id, name: call.name, args }],
    });
    event({
      type: 'tool_started',
      turn_id: 't',
      call_id: call.id,
      name: call.name,
      args,
      description: { title: call.name, subtitle: path.basename(call.path), path: call.path },
      echo_kind: call.kind,
    });
    records.push({ kind: 'tool_content', call_id: call.id, name: call.name, content: 'ok', is_error: false });
    event({
      type: 'tool_completed',
      call_id: call.id,
      name: call.name,
      execution_time: 3,
      is_error: false,
      result: call.echo,
    });
  }
  event({
    type: 'turn_completed',
    turn_id: 't',
    usage: { input_tokens: 1, output_tokens: 1 },
    stop_reason: 'end_turn',
  });
  const handle = await open(file, 'w', 0o600);
  await handle.write(records.map(serializeRecord).join(''));
  await handle.close();
}

/** A session of turns that each made `count` reads of small files in one step: one read group a turn. */
async function writeGroupSession(
  root: string,
  workspace: string,
  count: number,
  turns: number,
  contentOf: (turn: number, index: number) => string,
): Promise<void> {
  const file = sessionFileOf(root, 'group');
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const at = new Date(Date.UTC(2026, 0, 2)).toISOString();
  let seq = 0;
  const records: SessionRecord[] = [
    { kind: 'header', version: SESSION_FORMAT_VERSION, id: 'group', workspace, created_at: at, model: 'compat:bench' },
  ];
  const event = (value: StatusEvent) => records.push({ kind: 'event', event: { ...value, seq: (seq += 1), at } });
  for (let turn = 0; turn < turns; turn += 1) {
    const turnId = `t${turn}`;
    event({ type: 'user_message', turn_id: turnId, text: turn === 0 ? 'Group bench' : `Read again (${turn})` });
    event({ type: 'turn_started', turn_id: turnId, model: 'compat:bench' });
    const ids = Array.from({ length: count }, (_, index) => `read-${turn}-${index}`);
    const pathOf = (index: number) => `src/part${index}.ts`;
    event({
      type: 'assistant_message',
      turn_id: turnId,
      text: '',
      tool_calls: ids.map((id, index) => ({ call_id: id, name: 'read_file', args: { path: pathOf(index) } })),
    });
    ids.forEach((id, index) => {
      const args = { path: pathOf(index) };
      const content = contentOf(turn, index);
      const lines = content.split('\n').length - 1;
      event({
        type: 'tool_started',
        turn_id: turnId,
        call_id: id,
        name: 'read_file',
        args,
        description: { title: 'read_file', subtitle: path.basename(args.path), path: args.path },
        echo_kind: 'read-file',
      });
      records.push({ kind: 'tool_content', call_id: id, name: 'read_file', content, is_error: false });
      event({
        type: 'tool_completed',
        call_id: id,
        name: 'read_file',
        execution_time: 1,
        is_error: false,
        result: {
          kind: 'read-file',
          path: args.path,
          range: { start: 1, end: lines },
          total_lines: lines,
          content,
          truncated: false,
        },
      });
    });
    event({ type: 'assistant_message', turn_id: turnId, text: 'Read them all.', tool_calls: [] });
    event({
      type: 'turn_completed',
      turn_id: turnId,
      usage: { input_tokens: 1, output_tokens: 1 },
      stop_reason: 'end_turn',
    });
  }
  const handle = await open(file, 'w', 0o600);
  await handle.write(records.map(serializeRecord).join(''));
  await handle.close();
}

function printedUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`aether serve printed no URL within 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`aether serve exited with ${code}:\n${output}`)));
  });
}

async function openSession(page: Page, match: string): Promise<void> {
  if (!(await page.getByTestId('session-list').isVisible())) await page.getByTestId('sessions-button').click();
  await page.getByTestId('session-item').filter({ hasText: match }).getByTestId('session-open').click();
  // The list closes itself once the session has opened; a click on its button meanwhile would open it again.
  await page.getByTestId('session-list').waitFor({ state: 'hidden' });
}

/** Ends `aether serve` and waits for it: one that has not gone 5 s after SIGTERM is killed, and said so. */
async function stopServe(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  const gone = await Promise.race([
    exited.then(() => true),
    new Promise((resolve) => setTimeout(resolve, 5000, false)),
  ]);
  if (gone) return;
  console.error('  aether serve was still running 5 s after SIGTERM: killed');
  child.kill('SIGKILL');
  await exited;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function mountRuns(page: Page, target: string, baseline: string): Promise<void> {
  const ours: Mounted[] = [];
  const plain: Mounted[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    // The transcript is virtualised and follows its end until the person scrolls up (the wheel):
    // bring the card's row into the DOM.
    await page.getByTestId('transcript').hover();
    await page.mouse.wheel(0, -100_000);
    await page.locator(`[data-call-id="${target}"]`).waitFor();
    ours.push(await page.evaluate<Mounted>(`(${MOUNT_SCRIPT})(${JSON.stringify({ card: target })})`));
    plain.push(await page.evaluate<Mounted>(`(${MOUNT_SCRIPT})(${JSON.stringify({ pre: baseline })})`));
  }
  const line = (label: string, list: Mounted[]) =>
    `${label.padEnd(22)} first frame ${fmt(median(list.map((m) => m.paint))).padStart(10)} (median of ${RUNS})   longest task ${fmt(Math.max(...list.map((m) => m.longest))).padStart(10)}   DOM nodes ${Math.max(...list.map((m) => m.nodes))}`;
  console.log(`  ${line('card', ours)}`);
  console.log(`  ${line('plain <pre> baseline', plain)}`);
  const ratio = median(ours.map((m) => m.paint)) / Math.max(0.001, median(plain.map((m) => m.paint)));
  console.log(`  first frame ratio card / <pre>: ${ratio.toPrecision(3)}×`);
}

function scrollLine(label: string, scrolled: Scrolled): string {
  return `${label.padEnd(30)} p95 frame ${fmt(scrolled.p95).padStart(10)}   longest task ${fmt(scrolled.longest).padStart(10)}   ${scrolled.frames} frames, ${scrolled.distance} px`;
}

export async function run(): Promise<void> {
  console.log('card rendering in Chromium (web host, built renderer)');
  const found = findChromium(process.env);
  if (!('path' in found)) return console.log(`  skipped: no Chromium (${found.missing})`);
  if (!existsSync(path.join(ROOT, 'out', 'renderer', 'index.html')))
    return console.log('  skipped: no built renderer in out/renderer (run `npm run build` first)');

  const base = await mkdtemp(path.join(os.tmpdir(), 'aether-bench-cards-'));
  const workspace = path.join(base, 'workspace');
  const sessions = path.join(base, 'sessions');
  await mkdir(workspace, { recursive: true });
  const read = numbered(5000, (i) => `export const value${i} = compute(${i}, 'line ${i}');`);
  const diff =
    '--- a/src/many.ts\n+++ b/src/many.ts\n@@ -1,1000 +1,1000 @@\n' +
    numbered(1000, (i) => `-let a${i} = userName;`) +
    numbered(1000, (i) => `+let a${i} = accountName;`);
  await writeCardsSession(sessions, workspace, read, diff);
  // Two groups of other text, each card's its own (nothing comes from the highlighter's cache): the
  // first opened as soon as its row is drawn, in a panel that had highlighted no TypeScript before
  // the session opened (only what it colours ahead while the rows are sought), the second after.
  const partOf = (turn: number, index: number) =>
    numbered(
      30,
      (i) =>
        `export function ${turn === 0 ? 'value' : 'other'}${index}_${i}(value: number): number { return value * ${i}; }`,
    );
  await writeGroupSession(sessions, workspace, GROUP_CALLS, 2, partOf);
  await writeBigSession({ root: sessions, id: 'long', workspace, calls: 10_000 });

  const model = await startFixtureServer();
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'bin', 'aether.js'),
      'serve',
      '--workspace',
      workspace,
      '--model',
      `compat:${model.baseURL}#bench`,
    ],
    {
      env: { ...process.env, AETHERCODEX_HOME: path.join(base, 'home'), AETHERCODEX_SESSIONS: sessions },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const browser = await chromium.launch({
    executablePath: found.path,
    args: ['--no-sandbox', '--headless', '--disable-gpu'],
  });
  try {
    const url = await printedUrl(child);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.getByTestId('composer-input').waitFor();
    // First, while the highlighter is idle: the expansions below leave it work for a while.
    await openSession(page, 'Group bench');
    await page.getByTestId('read-group-toggle').first().waitFor();
    console.log(`open a group of ${GROUP_CALLS} reads (30 lines each)`);
    for (const [index, label] of ['group, first TypeScript', 'group, TypeScript known'].entries()) {
      const group = await page.evaluate<Opened>(
        `(${OPEN_GROUP_SCRIPT})(${JSON.stringify(`read-${index}-0`)}, ${WALK_STEPS})`,
      );
      console.log(
        `  ${label.padEnd(24)} first frame ${fmt(group.paint).padStart(10)}   longest task ${fmt(group.longest).padStart(10)}   DOM nodes ${group.nodes} (${group.cards} cards drawn)   lines on screen coloured after ${fmt(group.coloured)}`,
      );
      console.log(
        `  ${''.padEnd(24)} then Page Down through ${group.steps} cards: longest task ${fmt(group.walkLongest)}, at most ${group.walkCards} cards drawn, each card's lines coloured after ${fmt(group.walkColourMedian)} (median), ${fmt(group.walkColourWorst)} (worst)`,
      );
    }
    const walkTexts = Array.from({ length: WALK_STEPS }, (_, index) => partOf(0, index));
    const plainWalk = await page.evaluate<{ longest: number; steps: number }>(
      `(${PAGE_PLAIN_SCRIPT})(${JSON.stringify(walkTexts)})`,
    );
    console.log(
      `  ${'plain <pre> walk baseline'.padEnd(24)} the same ${plainWalk.steps} texts as plain <pre>s, each added, focused and drawn in turn: longest task ${fmt(plainWalk.longest)}`,
    );
    const allText = Array.from({ length: GROUP_CALLS }, (_, index) => partOf(0, index)).join('');
    const plainGroup = await page.evaluate<Mounted>(`(${MOUNT_SCRIPT})(${JSON.stringify({ pre: allText })})`);
    console.log(
      `  ${'plain <pre> baseline'.padEnd(24)} first frame ${fmt(plainGroup.paint).padStart(10)}   longest task ${fmt(plainGroup.longest).padStart(10)}   DOM nodes ${plainGroup.nodes}`,
    );

    await openSession(page, 'Cards bench');
    await page.locator('[data-call-id="call-patch"]').waitFor();

    console.log('expand a 5 000-line read');
    await mountRuns(page, 'call-read', read);
    console.log('expand a 2 000-line diff');
    await mountRuns(page, 'call-patch', diff);

    await openSession(page, 'Turn t0');
    await page.getByTestId('transcript').getByText('Done with t99.').waitFor();
    const ours = await page.evaluate<Scrolled>(`(${SCROLL_SCRIPT})('.transcript-scroller', 400, 1500)`);
    await page.setContent('<div id="static" style="height:800px;overflow:auto"></div>');
    await page.evaluate(`(${STATIC_CARDS_SCRIPT})(10000)`);
    const plain = await page.evaluate<Scrolled>(`(${SCROLL_SCRIPT})('#static', 400, 1500)`);
    console.log('scroll a 10 000-card session, 400 frames of 1 500 px up from the end');
    console.log(`  ${scrollLine('panel (virtualised, paged)', ours)}`);
    console.log(`  ${scrollLine('10 000 static cards baseline', plain)}`);
  } finally {
    await browser.close();
    await stopServe(child);
    await model.close();
    await rm(base, { recursive: true, force: true });
  }
}
