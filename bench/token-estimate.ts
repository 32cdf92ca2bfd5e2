import { spawnSync } from 'node:child_process';
import { createCipheriv } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { requestLength } from '../main/model/token-bounds.ts';
import { countTextTokens, estimateTokens } from '../main/model/token-estimate.ts';
import type { ChatMessage, ToolSpec } from '../main/model/types.ts';
import { compare, fmt, time, type Timing } from './measure.ts';

// The token estimate of a 1 MB context (the context meter before each step, the compaction
// threshold): 200 messages of about 5 KB of this project's own source. Per step, only the new
// message is tokenized (counts are kept per message); a cold estimate (a resumed session) counts
// all of it once. Baselines: the tokenizer over the same text as one string, and characters ÷ 4.
// Target: the per-step estimate of a 1 MB context within 50 ms.
//
// Then text without spaces, which the tokenizer merges in time quadratic in a run's length: 1 MB of
// base64 against 1 MB of prose, and 40 MB of base64 (an image in a call's argument), each a text
// not estimated before. Target: 40 MB within the same 50 ms.
//
// Then what counting by length saves while the context is far from compaction: the tables'
// load in a fresh process (CPU and resident set, against a bare Node that only exits), and the
// same 1 MB context counted by length (model/token-bounds.ts), cold, against the tokenizer, cold.

const TARGET_MS = 50;
const PLAIN = { disallowedSpecial: new Set<string>() };

function sourceText(): string {
  const docs = readdirSync(new URL('../docs/', import.meta.url)).map((name) => `../docs/${name}`);
  const files = [
    '../main/agent/turn.ts',
    '../main/model/sdk-adapter.ts',
    '../README.md',
    '../ARCHITECTURE.md',
    ...docs,
  ];
  return files.map((file) => readFileSync(new URL(file, import.meta.url), 'utf8')).join('\n');
}

function context(text: string, count: number, size: number): ChatMessage[] {
  return Array.from({ length: count }, (_, index): ChatMessage => {
    const start = (index * 997) % Math.max(1, text.length - size);
    const content = `${index}\n${text.slice(start, start + size)}`;
    return index % 2 === 0
      ? { role: 'tool', call_id: `call-${index}`, name: 'read_file', content, is_error: false }
      : { role: 'user', content };
  });
}

export async function run(): Promise<void> {
  const text = sourceText();
  const tools: ToolSpec[] = [{ name: 'read_file', description: 'Read a file.', input_schema: { type: 'object' } }];
  const system = 'You are a coding assistant.';
  const messages = context(text, 200, 5_000);
  const whole = messages.map((message) => message.content).join('\n');

  console.log(
    `Token estimate of a ${(whole.length / 1e6).toFixed(2)} MB context (200 messages), target ≤ ${TARGET_MS} ms per step`,
  );
  estimateTokens({ system, messages, tools });
  let step = 0;
  const perStep = await time(9, () => {
    step += 1;
    const added = context(text, 1, 5_000)[0]!;
    added.content += `\nstep ${step}`;
    return estimateTokens({ system, messages: [...messages, added], tools });
  });
  const cold = await time(3, () => estimateTokens({ system, messages: context(text, 200, 5_000), tools }));
  const raw = await time(3, () => countTokens(whole, PLAIN));
  const quarter = await time(9, () => Math.ceil(whole.length / 4));
  console.log(`  ${compare('per step (one new 5 KB message)', perStep, raw, 'tokenizer on 1 MB')}`);
  console.log(`  ${compare('per step (one new 5 KB message)', perStep, quarter, 'characters ÷ 4')}`);
  console.log(`  ${compare('cold (every message counted)', cold, raw, 'tokenizer on 1 MB')}`);
  console.log(
    `  per step ${fmt(perStep.medianMs)}: ${perStep.medianMs <= TARGET_MS ? 'within' : 'OVER'} the ${TARGET_MS} ms target`,
  );
  denseText(text);
  const byLength = await time(3, () => requestLength({ system, messages: context(text, 200, 5_000), tools }));
  console.log('Counting by length instead');
  console.log(`  ${compare('cold, by length (every message)', byLength, cold, 'the tokenizer, cold')}`);
  tablesLoad();
}

const CPU_HOOK = new URL('./cpu-at-exit.cjs', import.meta.url).pathname;
const RSS_HOOK = new URL('./max-rss-at-exit.cjs', import.meta.url).pathname;

/** CPU milliseconds and peak resident bytes of a fresh Node running `code`, medians of `runs`. */
function freshProcess(code: string, runs: number): { cpuMs: number; rss: number } {
  const cpu: number[] = [];
  const rss: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const child = spawnSync(process.execPath, ['-r', CPU_HOOK, '-r', RSS_HOOK, '-e', code], {
      cwd: new URL('..', import.meta.url),
      encoding: 'utf8',
    });
    if (child.status !== 0) throw new Error(`node -e exited ${String(child.status)}: ${child.stderr}`);
    cpu.push(Number(/cpu-at-exit ([\d.]+)/.exec(child.stderr)?.[1]));
    rss.push(Number(/max-rss-at-exit (\d+)/.exec(child.stderr)?.[1]));
  }
  const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return { cpuMs: median(cpu), rss: median(rss) };
}

function tablesLoad(): void {
  const bare = freshProcess('', 5);
  const tables = freshProcess("require('gpt-tokenizer/encoding/o200k_base').countTokens('hello')", 5);
  const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  console.log(
    `  loading the tables and counting one word, a fresh process: CPU ${fmt(tables.cpuMs)}, peak ${mib(tables.rss)}` +
      `   bare Node: CPU ${fmt(bare.cpuMs)}, peak ${mib(bare.rss)}   +${fmt(tables.cpuMs - bare.cpuMs)}, +${mib(tables.rss - bare.rss)}`,
  );
}

/** Base64 of `bytes` pseudo-random bytes; each `seed` gives other text. */
function base64(bytes: number, seed: number): string {
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(seed);
  return createCipheriv('aes-128-ctr', Buffer.alloc(16), iv).update(Buffer.alloc(bytes)).toString('base64');
}

/** The median wall and CPU time of `countTextTokens` over texts made one at a time, each counted once. */
function eachOnce(runs: number, make: (run: number) => string): Timing & { cpuMs: number } {
  const samples: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const text = make(run);
    const start = performance.now();
    const used = process.cpuUsage();
    countTextTokens(text);
    const spent = process.cpuUsage(used);
    samples.push(performance.now() - start);
    cpu.push((spent.user + spent.system) / 1000);
  }
  const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return { medianMs: median(samples), runs, cpuMs: median(cpu) };
}

function denseText(prose: string): void {
  const megabyte = 1_000_000;
  const proseOf = (run: number): string => {
    let text = `${run}\n`;
    while (text.length < megabyte) text += prose.slice((run * 7919) % prose.length) + prose;
    return text.slice(0, megabyte);
  };
  const proseTime = eachOnce(5, proseOf);
  const base64Time = eachOnce(5, (run) => base64(0.75 * megabyte, run));
  const hugeTime = eachOnce(3, (run) => base64(30 * megabyte, 100 + run));
  console.log('Text without spaces, each text estimated once');
  console.log(`  ${compare('1 MB of base64', base64Time, proseTime, '1 MB of prose')}`);
  console.log(`  ${compare('40 MB of base64', hugeTime, proseTime, '1 MB of prose')}`);
  // On a machine others load too, wall time counts their turns as well; the CPU time is the process's own.
  console.log(
    `  40 MB ${fmt(hugeTime.medianMs)} (CPU ${fmt(hugeTime.cpuMs)}): ${hugeTime.medianMs <= TARGET_MS ? 'within' : 'OVER'} the ${TARGET_MS} ms target`,
  );
}

if (import.meta.main) await run();
