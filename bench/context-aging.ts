import { ageToolResults } from '../main/agent/aging.ts';
import { estimateTokens } from '../main/model/token-estimate.ts';
import type { ChatMessage } from '../main/model/types.ts';
import { compare, time } from './measure.ts';

// The context of a 200-call session, as the next request would send it, with tool results aged
// out (older than the last four steps and over 2 KiB → a one-line stub) against sending them all.
// The results are a working day's mix: file reads, command output, searches, small edits.

function words(seed: number, count: number): string {
  return Array.from({ length: count }, (_, index) => ((seed * 7919 + index * 104_729) % 1_000_003).toString(36)).join(
    ' ',
  );
}

function session(calls: number): ChatMessage[] {
  const kinds = [
    { name: 'read_file', words: 1600 },
    { name: 'exec', words: 700 },
    { name: 'search_files', words: 400 },
    { name: 'patch_file', words: 40 },
  ] as const;
  const messages: ChatMessage[] = [{ role: 'user', content: 'Fix the failing tests and tidy the module.' }];
  for (let index = 0; index < calls; index += 1) {
    const kind = kinds[index % kinds.length]!;
    const callId = `call-${index}`;
    messages.push({
      role: 'assistant',
      content: `Step ${index}: next I look at part ${index}.`,
      tool_calls: [{ call_id: callId, name: kind.name, args: { path: `src/module-${index}.ts` } }],
    });
    messages.push({
      role: 'tool',
      call_id: callId,
      name: kind.name,
      content: words(index, kind.words),
      is_error: false,
    });
  }
  return messages;
}

export async function run(): Promise<void> {
  const messages = session(200);
  const request = (list: ChatMessage[]) => ({ system: 'You are a coding assistant.', messages: list, tools: [] });
  const whole = estimateTokens(request(messages));
  const aged = estimateTokens(request(ageToolResults(messages)));
  console.log('Context of a 200-call session (tokenizer estimate of the next request)');
  console.log(`  all results whole ${String(whole).padStart(10)} tokens`);
  console.log(
    `  old results aged  ${String(aged).padStart(10)} tokens   ratio ${(aged / whole).toPrecision(3)}× (${(100 - (100 * aged) / whole).toFixed(1)} % saved)`,
  );
  const ours = await time(15, () => ageToolResults(messages));
  const copy = await time(15, () => messages.slice());
  console.log(`  ${compare('aging the 401 messages of a request', ours, copy, 'copying them')}`);
}
