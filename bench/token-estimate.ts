import { readdirSync, readFileSync } from 'node:fs';
import { countTextTokens, estimateTokens } from '../main/model/token-estimate.ts';
import type { ChatMessage, ToolSpec } from '../main/model/types.ts';
import { compare, fmt, time } from './measure.ts';

// The token estimate of a 1 MB context (the context meter before each step, the compaction
// threshold): 200 messages of about 5 KB of this project's own source. Per step, only the new
// message is tokenized (counts are kept per message); a cold estimate (a resumed session) counts
// all of it once. Baselines: the tokenizer over the same text as one string, and characters ÷ 4.
// Target: the per-step estimate of a 1 MB context within 50 ms.

const TARGET_MS = 50;

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
  const raw = await time(3, () => countTextTokens(whole));
  const quarter = await time(9, () => Math.ceil(whole.length / 4));
  console.log(`  ${compare('per step (one new 5 KB message)', perStep, raw, 'tokenizer on 1 MB')}`);
  console.log(`  ${compare('per step (one new 5 KB message)', perStep, quarter, 'characters ÷ 4')}`);
  console.log(`  ${compare('cold (every message counted)', cold, raw, 'tokenizer on 1 MB')}`);
  console.log(
    `  per step ${fmt(perStep.medianMs)}: ${perStep.medianMs <= TARGET_MS ? 'within' : 'OVER'} the ${TARGET_MS} ms target`,
  );
}

if (import.meta.main) await run();
