import type { EchoShape } from '../../../protocol/echo.ts';
import { hookRunLine } from '../../../protocol/hooks.ts';
import type { StatusEvent } from '../../../protocol/events.ts';
import { formatDuration } from '../../../protocol/format.ts';

// A session's events as what an export shows, in order: the person's messages, the model's
// answers and thinking, one entry per tool call (its description, how it ended, its echo, its
// question and answer, a program's nested calls), and a line for what else happened (instructions
// sent, a compaction, a stopped turn, a rewind). Both the Markdown and the HTML export draw these.

export interface NestedCallEntry {
  name: string;
  label: string;
  isError: boolean;
  content: string;
}

export interface CallEntry {
  id: string;
  name: string;
  title: string;
  subtitle: string;
  state: 'running' | 'ok' | 'error' | 'cancelled';
  ms?: number;
  echo?: EchoShape;
  /** The question the person was asked and their answer. */
  approval?: string;
  nested: NestedCallEntry[];
}

export type ExportEntry =
  | { kind: 'user'; text: string; at?: string; images: number }
  | { kind: 'assistant'; text: string; partial: boolean }
  | { kind: 'thinking'; text: string; durationMs: number }
  | { kind: 'call'; call: CallEntry }
  | { kind: 'note'; text: string; error: boolean };

const ANSWERS = { once: 'allowed once', session: 'allowed for the session', deny: 'denied' } as const;

export function exportEntries(events: readonly StatusEvent[]): ExportEntry[] {
  const entries: ExportEntry[] = [];
  const calls = new Map<string, CallEntry>();
  /** The card each pending question shows on: a nested call's is its program's. */
  const asking = new Map<string, CallEntry>();
  const callOf = (id: string, name: string): CallEntry => {
    let call = calls.get(id);
    if (!call) {
      call = { id, name, title: name, subtitle: '', state: 'running', nested: [] };
      calls.set(id, call);
      entries.push({ kind: 'call', call });
    }
    return call;
  };
  const note = (text: string, error = false): void => void entries.push({ kind: 'note', text, error });

  for (const event of events) {
    switch (event.type) {
      case 'user_message':
        entries.push({
          kind: 'user',
          text: event.text,
          ...(event.at ? { at: event.at } : {}),
          images: event.images?.length ?? 0,
        });
        break;
      case 'assistant_message':
        if (event.text.trim() !== '')
          entries.push({ kind: 'assistant', text: event.text, partial: event.partial === true });
        break;
      case 'reasoning':
        if (event.text.trim() !== '')
          entries.push({ kind: 'thinking', text: event.text, durationMs: event.duration_ms });
        break;
      case 'tool_started': {
        const call = callOf(event.call_id, event.name);
        if (event.description) {
          call.title = event.description.title;
          call.subtitle = event.description.subtitle;
        }
        break;
      }
      case 'tool_approval_requested': {
        const call = callOf(event.parent_call_id ?? event.call_id, event.name);
        call.approval = `Asked: ${event.request.title}`;
        asking.set(event.call_id, call);
        break;
      }
      case 'tool_approval_resolved': {
        const call = asking.get(event.call_id);
        asking.delete(event.call_id);
        if (call?.approval)
          call.approval = `${call.approval} — ${event.stopped ? 'stopped before an answer' : ANSWERS[event.answer]}`;
        break;
      }
      case 'tool_completed': {
        const call = callOf(event.call_id, event.name);
        call.ms = event.execution_time;
        call.echo = event.result;
        call.state = !event.is_error ? 'ok' : cancelled(event.result) ? 'cancelled' : 'error';
        break;
      }
      case 'tool_code_dispatch':
        callOf(event.parent_call_id, 'run_code').nested.push({
          name: event.name,
          label: event.description?.title ?? JSON.stringify(event.args ?? {}),
          isError: event.is_error,
          content: event.content,
        });
        break;
      case 'context_message':
        note(
          `Project instructions from ${event.source} ${event.change === 'removed' ? 'were withdrawn' : 'were sent'}.`,
        );
        break;
      case 'compaction':
        note(
          `The context was compacted (${event.trigger}): about ${event.tokens_before} → ${event.tokens_after} tokens.`,
        );
        break;
      case 'compaction_failed':
        note(`Compaction failed: ${event.error}`, true);
        break;
      case 'turn_failed':
        note(event.aborted ? `Stopped: ${event.error}` : `The turn failed: ${event.error}`, !event.aborted);
        break;
      case 'code_rewound':
        note(`The code was rewound to before ${event.what}.`);
        break;
      case 'hook_ran':
        // What a hook decided or changed, under the call it acted on; a hook that only ran is left out.
        if (event.decision !== 'none' || event.changed?.length)
          note(`Hook: ${hookRunLine(event)}`, event.decision === 'failed');
        break;
      default:
        break;
    }
  }
  return entries;
}

function cancelled(echo: EchoShape): boolean {
  if (echo.kind === 'text') return typeof echo['text'] === 'string' && echo['text'].startsWith('Cancelled:');
  return echo.kind === 'exec' && echo['status'] === 'cancelled';
}

/** What the call did, in the card's words: its title, and its subtitle when the title does not hold it. */
export function callLabel(call: CallEntry): string {
  const title = call.title !== call.name ? call.title : '';
  const subtitle = call.subtitle && !title.includes(call.subtitle) ? call.subtitle : '';
  return [title, subtitle].filter(Boolean).join(': ');
}

/** `ok · 12 ms`, `failed · 1.2 s`, `cancelled`. */
export function callOutcome(call: CallEntry): string {
  const time = call.ms === undefined ? '' : ` · ${formatDuration(call.ms)}`;
  if (call.state === 'ok') return `ok${time}`;
  if (call.state === 'cancelled') return `cancelled${time}`;
  if (call.state === 'error') return `failed${time}`;
  return 'no result';
}
