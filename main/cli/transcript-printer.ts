import { echoLine, toolEchoSchema, type CallDescription, type EchoShape } from '../../protocol/echo.ts';
import { hookRunLine } from '../../protocol/hooks.ts';
import { processStateLine, type ProcessInfo } from '../../protocol/processes.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { formatBytes, formatDuration } from '../../protocol/format.ts';
import type { StatusSink } from '../status/sink.ts';
import { LiveOutput } from './live-output.ts';
import { MarkdownStream } from './markdown-stream.ts';
import { TerminalStream, terminalJson, terminalSafe, toned, type Tone } from './terminal-text.ts';
import { TurnUsageTally } from './usage-line.ts';

// The headless transcript: the model's text as it streams, one line per tool call (its outcome, its
// own description as the panel's card shows it, its time and a one-line echo), nested Code Mode
// calls indented under it, and how the turn ended. A running command's output shows as it comes
// and what stays of it after its line, as does a patch's diff; with colour on, the model's Markdown
// is rendered. `--json` prints the status events themselves instead, one per line. Everything
// printed passes through terminal-text.ts first, so no model or tool text can drive the terminal.

const ECHO_WIDTH = 160;
const ARGS_WIDTH = 100;
/** Last lines of a finished command's output kept under its line: more when it failed. */
const LAST_LINES = { ok: 3, failed: 10 };
const DIFF_LINES = 40;

export interface TranscriptPrinterOptions {
  /** Colour the CLI's own lines and render the model's Markdown. Default false. */
  color?: boolean;
  /** stdout is a terminal: a running command's last lines are redrawn in place. Default false. */
  live?: boolean;
  /** The terminal's width. Default 80. */
  columns?: () => number;
  /** Renders the model's Markdown (terminal-markdown.ts); absent: its text is printed as it is. */
  markdown?: (source: string) => string;
}

type Outcome = 'ok' | 'error' | 'cancelled';
const MARKS: Record<Outcome, string> = { ok: '✓', error: '✗', cancelled: '⊘' };
const MARK_TONES: Record<Outcome, Tone> = { ok: 'ok', error: 'error', cancelled: 'notice' };

export class TranscriptPrinter implements StatusSink {
  private readonly write: (text: string) => void;
  private readonly color: boolean;
  private readonly stream: TerminalStream | MarkdownStream;
  private readonly output: LiveOutput;
  /** Running calls: how each names itself on its lines. */
  private readonly labels = new Map<string, string>();
  /** Whether the cursor sits after streamed text that did not end its line. */
  private openLine = false;
  private streamed = '';
  private readonly usage = new TurnUsageTally();

  constructor(write: (text: string) => void, options: TranscriptPrinterOptions = {}) {
    this.write = write;
    this.color = options.color ?? false;
    const columns = options.columns ?? (() => 80);
    this.stream = options.markdown ? new MarkdownStream(options.markdown) : new TerminalStream();
    this.output = new LiveOutput({ write, live: options.live ?? false, color: this.color, columns });
  }

  emit(event: StatusEvent): void {
    switch (event.type) {
      case 'assistant_delta':
        this.streamed += event.text;
        this.print(this.stream.push(event.text));
        break;
      case 'assistant_message':
        // Text that never streamed (a replayed or non-streaming step) is printed whole.
        if (this.streamed.length === 0 && event.text.length > 0) this.print(this.stream.push(event.text));
        this.print(this.stream.end());
        this.streamed = '';
        if (event.partial) this.line('[the answer above is incomplete]');
        break;
      case 'tool_started':
        this.labels.set(event.call_id, callLabel(event.name, event.args, event.description));
        break;
      case 'tool_progress':
        // An agent's status is for the panel's card; its line comes when it ends.
        if (event.progress.agent) break;
        this.output.progress(event.call_id, this.label(event.call_id, 'tool'), event.progress, () => this.finish());
        break;
      case 'tool_completed': {
        const shown = this.output.done(event.call_id, () => this.finish());
        const outcome = outcomeOf(event.is_error, event.result);
        const echo = oneLine(echoLine(event.result), event.is_error ? 400 : ECHO_WIDTH);
        const mark = toned(MARKS[outcome], MARK_TONES[outcome], this.color);
        // The call id ends the line: what `aether rewind SESSION CALL_ID` takes.
        this.line(
          `${this.label(event.call_id, event.name)} (${formatDuration(event.execution_time)})${echo ? `: ${echo}` : ''}`,
          outcome === 'ok' ? undefined : MARK_TONES[outcome],
          mark,
          `[${event.call_id}]`,
        );
        this.details(event.result, outcome, shown);
        // A proposed plan (plan mode) is what a headless run ends with: printed whole under its line.
        const plan = event.result['plan'];
        if (event.result.kind === 'plan' && typeof plan === 'string')
          for (const planLine of plan.split('\n')) this.line(`  ${planLine}`);
        this.labels.delete(event.call_id);
        break;
      }
      case 'tool_code_dispatch': {
        const outcome = event.is_error ? 'error' : 'ok';
        this.line(
          `  ↳ ${MARKS[outcome]} ${callLabel(event.name, event.args, event.description)} (${formatDuration(event.execution_time)}): ${oneLine(event.content, ECHO_WIDTH)}`,
          event.is_error ? 'error' : 'muted',
        );
        break;
      }
      case 'tool_approval_requested':
        this.line(`? ${event.name} asks: ${event.request.title}`, 'notice');
        break;
      case 'user_message':
        // The prompt is the person's own; a steer (--steer-stdin) is shown where it entered the turn.
        if (event.steer) this.line(`» steer: ${oneLine(event.text, ECHO_WIDTH)}`, 'notice');
        break;
      case 'step_usage':
        this.usage.add(event);
        break;
      case 'turn_completed': {
        this.output.end();
        const usage = this.usage.take();
        this.line(
          `— done (${event.stop_reason}; ${usage ?? `${event.usage.input_tokens} tokens in, ${event.usage.output_tokens} out`})`,
          'muted',
        );
        break;
      }
      case 'context_message': {
        const change = { loaded: 'sent', changed: 'edited, sent again', removed: 'deleted, withdrawn' }[event.change];
        const cut = event.truncated ? `; only the first ${formatBytes(event.truncated.limit)} sent` : '';
        this.line(`§ instructions ${event.source} (${change}${cut})`, 'muted');
        break;
      }
      case 'reasoning':
        this.line(`✻ thought for ${formatDuration(event.duration_ms)}`, 'muted');
        break;
      case 'turn_failed':
        this.output.end();
        this.line(`— ${event.aborted ? 'stopped' : 'failed'}: ${event.error}`, 'error');
        break;
      case 'compaction':
        this.line(
          `⇣ context compacted (${event.trigger}): about ${event.tokens_before} → ${event.tokens_after} tokens; kept ${event.kept_call_ids.length} recent tool results${event.notice ? `. ${event.notice}` : ''}`,
          'notice',
        );
        break;
      case 'compaction_failed':
        this.line(`⇣ ${event.error}`, 'error');
        break;
      case 'hook_ran': {
        // A hook that only ran says nothing here; what decided or failed gets a line.
        if (event.decision === 'none' && !event.changed?.length) break;
        const refused = event.decision === 'deny' || event.decision === 'block' || event.decision === 'failed';
        this.line(`  ↳ ${hookRunLine(event)}`, refused ? 'notice' : 'muted');
        break;
      }
      case 'process_state':
        // A background process starts and ends on lines of its own: it outlives the call that started it.
        this.line(
          processStateLine(event.process, formatDuration),
          event.process.state === 'running' ? 'muted' : 'notice',
        );
        break;
      default:
        break;
    }
  }

  /**
   * The background processes running now, on a terminal as lines at the foot of the transcript
   * redrawn in place (`▶ p1 npm run dev · up 12 s · :5173 · ready in 300 ms`); elsewhere nothing.
   */
  processes(running: readonly ProcessInfo[]): void {
    // The model's text as it streams is left whole: the lines come back at the next tick after it.
    if (this.streamed.length > 0 || this.openLine) return;
    this.output.setFooter(running.map(processRunningLine), () => this.finish());
  }

  /** A call as its lines name it; `name` for one whose start was not seen. */
  private label(callId: string, name: string): string {
    return this.labels.get(callId) ?? name;
  }

  /** Ends a line left open by streamed text. */
  finish(): void {
    this.print(this.stream.end());
    if (this.openLine) this.print('\n');
  }

  /** Writes text that is already terminal-safe. */
  private print(text: string): void {
    if (text.length === 0) return;
    this.output.clear();
    this.write(text);
    this.openLine = !text.endsWith('\n');
  }

  /** A line of the CLI's own, whose parts may come from the model or a tool: made safe, then toned; `note` dim after it. */
  private line(text: string, tone?: Tone, mark?: string, note?: string): void {
    this.finish();
    const after = note ? ` ${toned(terminalSafe(note), 'muted', this.color)}` : '';
    this.print(`${mark ? `${mark} ` : ''}${toned(terminalSafe(text), tone, this.color)}${after}\n`);
  }

  /** Under a call's line: a patch's diff; a command's first and last lines, unless all were printed as they came. */
  private details(echo: EchoShape, outcome: Outcome, shown: { printed: boolean; firstLines: string[] }): void {
    const known = toolEchoSchema.safeParse(echo);
    if (!known.success) return;
    const value = known.data;
    const diff = value.kind === 'patch' ? value.diff : value.kind === 'write' ? value.change?.diff : undefined;
    if (diff) {
      const lines = diff.replace(/\n$/, '').split('\n');
      for (const text of lines.slice(0, DIFF_LINES)) this.indented(text, diffTone(text));
      if (lines.length > DIFF_LINES) this.indented(`… ${lines.length - DIFF_LINES} more lines of the diff`, 'muted');
    }
    if (value.kind === 'exec' && !shown.printed) {
      const last = outcome === 'ok' ? LAST_LINES.ok : LAST_LINES.failed;
      this.output.keep(value, shown.firstLines, last, () => this.finish());
    }
  }

  private indented(text: string, tone: Tone | undefined): void {
    this.line(`    ${text.replace(/\t/g, '  ')}`, tone);
  }
}

export class JsonLinesPrinter implements StatusSink {
  private readonly write: (text: string) => void;

  constructor(write: (text: string) => void) {
    this.write = write;
  }

  emit(event: StatusEvent): void {
    this.write(`${terminalJson(event)}\n`);
  }
}

function outcomeOf(isError: boolean, echo: EchoShape): Outcome {
  if (!isError) return 'ok';
  const known = toolEchoSchema.safeParse(echo);
  if (known.success && known.data.kind === 'exec' && known.data.status === 'cancelled') return 'cancelled';
  if (known.success && known.data.kind === 'text' && known.data.text.startsWith('Cancelled:')) return 'cancelled';
  return 'error';
}

function diffTone(line: string): Tone | undefined {
  if (line.startsWith('+++') || line.startsWith('---')) return 'muted';
  if (line.startsWith('+')) return 'ok';
  if (line.startsWith('-')) return 'error';
  if (line.startsWith('@@')) return 'notice';
  return undefined;
}

/**
 * How a call names itself, as the panel's card does: its description's title, and its subtitle
 * when the title does not hold it (`Create AETHER_DEMO.md`, `Run a command · npm test`); the tool's
 * name and arguments when it has none (its arguments were invalid, or the tool is unknown).
 */
function callLabel(name: string, args: unknown, description: CallDescription | undefined): string {
  if (!description) return `${name} ${oneLine(compactJson(args), ARGS_WIDTH)}`.trimEnd();
  const { title, subtitle } = description;
  return oneLine(!subtitle || title.includes(subtitle) ? title : `${title} · ${subtitle}`, ARGS_WIDTH);
}

function compactJson(value: unknown): string {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

function oneLine(text: string, width: number): string {
  // A result's text may be megabytes: only its start is flattened, unless folding shortened that below the width.
  const start = text.length > width * 4 ? flatten(text.slice(0, width * 4)) : undefined;
  const flat = start !== undefined && start.length > width ? start : flatten(text);
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function flatten(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
}

/** A running background process in one line: id, command, uptime, ports and its last line. */
export function processRunningLine(info: ProcessInfo): string {
  const ports = info.ports.map((port) => ` · :${port}`).join('');
  const last = info.last_line ? ` · ${info.last_line}` : '';
  return `▶ ${info.id} ${info.command} · up ${formatDuration(info.uptime_ms)}${ports}${last}`;
}
