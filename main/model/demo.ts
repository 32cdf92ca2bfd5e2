import { isRecord } from '../../protocol/json.ts';
import { PLAN_APPROVED_MESSAGE, PLAN_MODE_LINE } from '../../protocol/plan.ts';
import { startFixtureServer, type FixtureServer, type RecordedRequest } from './fixture-server.ts';
import { parseFixtureStep, type FixtureStep, type FixtureStepInput } from './fixture-script.ts';
import { createProviderAdapter, type ModelAdapterOptions } from './provider-adapter.ts';
import type { ModelAdapter } from './types.ts';

// The built-in demo model: the fixture server, started in-process on first use, plays a short
// session over the real Anthropic wire and the real SDK client. Like a model, it decides each step
// from the conversation it is sent: it lists the workspace, writes a new note under a name the
// listing shows is free, reads it back and patches it, and explains itself when a tool is refused,
// with advice that fits the permission mode. In plan mode (its system prompt says so) it writes
// nothing: it proposes that plan, and carries it out once the plan is approved.

export const DEMO_NOTE_NAME = 'AETHER_DEMO.md';
const DRAFTED = 'Status: drafted by the demo model.';
const PATCHED = 'Status: patched by the demo model.';

export function demoNote(): string {
  return [
    '# ÆtherCodex demo',
    '',
    'This note was written by the built-in demo model to show the panel at work:',
    'a listing, a new file, a read, and a patch, each on its own card.',
    '',
    DRAFTED,
    '',
    'Delete this file whenever you like.',
    '',
  ].join('\n');
}

interface ToolUse {
  name: string;
  input: Record<string, unknown>;
  result?: { text: string; isError: boolean };
}

function blocksOf(message: unknown): Record<string, unknown>[] {
  if (!isRecord(message)) return [];
  const content = message.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}

/** The tool calls of the current turn (since the person last wrote), with their results. */
export function currentTurn(body: Record<string, unknown>): ToolUse[] {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  let start = 0;
  messages.forEach((message, index) => {
    if (isRecord(message) && message.role === 'user' && blocksOf(message).some((block) => block.type === 'text'))
      start = index + 1;
  });
  const uses = new Map<string, ToolUse>();
  for (const message of messages.slice(start)) {
    for (const block of blocksOf(message)) {
      if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
        uses.set(block.id, { name: block.name, input: isRecord(block.input) ? block.input : {} });
      } else if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        const use = uses.get(block.tool_use_id);
        if (use !== undefined) use.result = { text: resultText(block.content), isError: block.is_error === true };
      }
    }
  }
  return [...uses.values()];
}

/** The first of AETHER_DEMO.md, AETHER_DEMO-2.md, … that the listing does not mention. */
export function freeNoteName(listing: string): string {
  for (let n = 1; ; n += 1) {
    const name = n === 1 ? DEMO_NOTE_NAME : `AETHER_DEMO-${n}.md`;
    if (!listing.includes(name)) return name;
  }
}

/** How a permission refusal reads, as opposed to a tool that failed. */
const DENIAL = /denied|not allowed|permission|--allow/i;
const PERSON_DENIED = /^Denied by the user/;

/** The refusal's first sentence (a headless refusal goes on with the flags; the demo gives its own advice). */
function firstSentence(text: string): string {
  const line = (text.split('\n').find((entry) => entry.trim() !== '') ?? 'no reason given').trim();
  const sentence = line.split(/(?<=\.)\s/)[0] ?? line;
  return sentence.length > 200 ? `${sentence.slice(0, 199)}…` : sentence.replace(/\.$/, '');
}

/** The request's system prompt as text (a string, or text blocks on Anthropic's wire). */
function systemOf(body: Record<string, unknown>): string {
  if (typeof body.system === 'string') return body.system;
  return Array.isArray(body.system)
    ? body.system.map((block) => (isRecord(block) && typeof block.text === 'string' ? block.text : '')).join('\n')
    : '';
}

/** The messages the person (and the app) sent since the model last spoke, as text. */
function lastUserTexts(body: Record<string, unknown>): string[] {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const texts: string[] = [];
  for (const message of messages.toReversed()) {
    if (!isRecord(message) || message.role !== 'user') break;
    for (const block of blocksOf(message))
      if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
  }
  return texts;
}

/** The note an approved plan of the demo's names, when the turn starts from one. */
function approvedNote(body: Record<string, unknown>): string | null {
  const texts = lastUserTexts(body);
  if (!texts.includes(PLAN_APPROVED_MESSAGE)) return null;
  for (const text of texts) {
    const named = /<plan>[\s\S]*?(AETHER_DEMO(?:-\d+)?\.md)/.exec(text)?.[1];
    if (named) return named;
  }
  return null;
}

/** What to do about a write the session refused, for the way it was refused. */
function allowWritesAdvice(refusal: string): string {
  if (/headless run/.test(refusal))
    return 'Run it again with --allow write (or --permission-mode auto) to see the read and the patch.';
  if (/not allowed in this session/.test(refusal))
    return "This session's permission mode (or a deny rule) allows no writes: switch to ask or auto — the mode button or Shift+Tab in the panel, --permission-mode with aether run — and ask again to see the read and the patch.";
  return 'Allow writes — approve it in the panel, or run with --allow write — and ask again to see the read and the patch.';
}

function say(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [];
}

/** The demo's next step, decided from the request like a model would. */
export function demoStep(request: RecordedRequest, chunkDelayMs: number): FixtureStep {
  const turn = currentTurn(request.body);
  const last = turn.at(-1);
  const write = turn.find((use) => use.name === 'write_file');
  const note = typeof write?.input.path === 'string' ? write.input.path : DEMO_NOTE_NAME;
  const step = (text: string, tool?: { name: string; args: Record<string, unknown> }): FixtureStep => {
    const input: FixtureStepInput = {
      text: say(text),
      tool_calls: tool === undefined ? [] : [{ name: tool.name, args: tool.args }],
      usage: {
        input_tokens: Math.ceil(JSON.stringify(request.body).length / 4),
        output_tokens: Math.ceil(text.length / 4) + 20,
      },
      chunk_delay_ms: chunkDelayMs,
    };
    return parseFixtureStep(input);
  };
  const refused = (use: ToolUse): string => firstSentence(use.result?.text ?? '');
  const planning = systemOf(request.body).includes(PLAN_MODE_LINE);

  switch (last?.name) {
    case undefined: {
      const approved = approvedNote(request.body);
      if (approved !== null)
        return step(`Carrying out the approved plan: first ${approved}.`, {
          name: 'write_file',
          args: { path: approved, content: demoNote() },
        });
      return step(
        planning
          ? "This is ÆtherCodex's built-in demo model: no API key, no network. This session is in plan mode, so nothing is written yet: I'll list this workspace and propose a plan — a short note, read back and patched — for you to approve."
          : "This is ÆtherCodex's built-in demo model: no API key, no network. I'll list this workspace, write a short note, read it back and patch one line of it.",
        { name: 'list_dir', args: { path: '.' } },
      );
    }
    case 'list_dir': {
      const name = freeNoteName(last.result?.text ?? '');
      if (planning)
        return step(
          "Here is the plan. Approve and start it in the panel (choosing ask or auto to work in) and I'll carry it out, or keep planning; with aether run, run again with --permission-mode auto.",
          {
            name: 'plan_propose',
            args: {
              plan: `## The demo's note\n1. Write ${name}, a new file, so nothing of yours is touched.\n2. Read it back.\n3. Patch one line of it.`,
            },
          },
        );
      const seen =
        last.result?.isError === true
          ? 'The listing failed, but I can still write a note. '
          : "That's the top of the workspace. ";
      return step(`${seen}Now a new file, ${name}, so nothing of yours is touched.`, {
        name: 'write_file',
        args: { path: name, content: demoNote() },
      });
    }
    case 'write_file':
      // The person said no in the panel, and the card says so: no need to read their answer back.
      if (last.result?.isError === true && PERSON_DENIED.test(last.result.text)) {
        return step(
          `You turned down the write of ${note}, so nothing was written. Ask again and approve it to see the read and the patch.`,
        );
      }
      if (last.result?.isError === true && DENIAL.test(last.result.text)) {
        return step(`The write was refused (${refused(last)}). ${allowWritesAdvice(last.result.text)}`);
      }
      if (last.result?.isError === true) {
        return step(`The write failed (${refused(last)}), so there is nothing to read or patch. That ends the demo.`);
      }
      return step(`Written. Reading ${note} back:`, { name: 'read_file', args: { path: note } });
    case 'read_file':
      return step('Now a one-line patch:', {
        name: 'patch_file',
        args: { path: note, edits: [{ old_text: DRAFTED, new_text: PATCHED }] },
      });
    case 'patch_file': {
      const outcome =
        last.result?.isError === true
          ? `The patch did not apply (${refused(last)}).`
          : `Patched: ${note} now says it was patched.`;
      return step(
        `${outcome} That was the whole tour: a listing, a new file, a read and a patch, each on its own card. Pick a real model (anthropic:…, openai:… or compat:…) to work on your code.`,
      );
    }
    case 'plan_propose':
      return step('The plan waits for your answer: approve it, revise it, or keep planning.');
    default:
      return step(
        "That's the end of the demo. Pick a real model (anthropic:…, openai:… or compat:…) to work on your code.",
      );
  }
}

/** The `demo` model id: its fixture server starts on the first step and never holds the process open. */
export function createDemoAdapter(options: ModelAdapterOptions = {}): ModelAdapter {
  let server: Promise<FixtureServer> | undefined;
  let inner: ModelAdapter | undefined;
  const chunkDelayMs = options.demoChunkDelayMs ?? 15;

  const ready = async (): Promise<ModelAdapter> => {
    server ??= startFixtureServer({ respond: (request) => demoStep(request, chunkDelayMs), unref: true });
    const running = await server;
    inner ??= createProviderAdapter(
      'demo',
      { family: 'anthropic', model: 'aether-demo' },
      { ...options, env: {}, keys: { anthropic: 'demo' }, baseURLs: { anthropic: running.baseURL } },
    );
    return inner;
  };

  return {
    id: 'demo',
    async *stream(request) {
      yield* (await ready()).stream(request);
    },
    async close() {
      const running = server;
      server = undefined;
      inner = undefined;
      if (running !== undefined) await (await running).close();
    },
  };
}
