import { formatDuration } from '../../../protocol/format.ts';
import { echoView, type EchoBlock } from './echo-blocks.ts';
import { callLabel, callOutcome, type CallEntry, type ExportEntry } from './export-entries.ts';
import type { ExportHeading } from './session-export.ts';

// A session as one Markdown document: a heading with what the session is, then each message under
// a heading of its own, each tool call as a line (its outcome, what it did) with its card's text in
// fenced blocks, the model's thinking as a quote. The person's and the model's messages are
// Markdown already and go in as written.

const MARKS: Record<CallEntry['state'], string> = { ok: '✓', error: '✗', cancelled: '⊘', running: '…' };

export function exportMarkdown(heading: ExportHeading, entries: readonly ExportEntry[]): string {
  const parts: string[] = [`# ${oneLine(heading.title)}`, '', ...facts(heading).map((line) => `- ${line}`), ''];
  // An agent's messages were its parent's agent call's, not the person's.
  const who = heading.agent ? 'Task given by the parent' : 'You';
  for (const entry of entries) parts.push(...entryLines(entry, who), '');
  return `${parts
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

function facts(heading: ExportHeading): string[] {
  return [
    `Session: ${code(heading.id)}`,
    `Workspace: ${code(heading.workspace)}`,
    `Model: ${code(heading.model)}`,
    `Started ${heading.created}; last activity ${heading.updated}`,
    ...(heading.agent
      ? [
          `Agent ${code(heading.agent.name)}'s session, started by session ${code(heading.agent.parent)} (its call ${code(heading.agent.call_id)})`,
        ]
      : []),
  ];
}

function entryLines(entry: ExportEntry, who: string): string[] {
  switch (entry.kind) {
    case 'user':
      return [
        `## ${who}`,
        '',
        entry.text,
        ...(entry.images > 0
          ? ['', `*${entry.images} ${entry.images === 1 ? 'image' : 'images'} attached (not included)*`]
          : []),
      ];
    case 'assistant':
      return ['## Assistant', '', entry.text, ...(entry.partial ? ['', '*The answer above is incomplete.*'] : [])];
    case 'thinking':
      return [
        `> *Thought for ${formatDuration(entry.durationMs)}*`,
        '>',
        ...entry.text.split('\n').map((line) => `> ${line}`.trimEnd()),
      ];
    case 'note':
      return [`*${entry.error ? '✗ ' : ''}${oneLine(entry.text)}*`];
    case 'call':
      return callLines(entry.call);
  }
}

function callLines(call: CallEntry): string[] {
  const view = echoView(call.echo);
  const label = callLabel(call);
  const said = label ? ` — ${oneLine(label)}` : '';
  const lines = [`**${MARKS[call.state]} ${call.name}**${said} · ${callOutcome(call)}`];
  if (call.approval) lines.push('', `*${oneLine(call.approval)}*`);
  if (view.line) lines.push('', `*${oneLine(view.line)}*`);
  for (const block of view.blocks) lines.push('', ...blockLines(block));
  if (call.nested.length > 0) {
    lines.push('');
    for (const nested of call.nested)
      lines.push(
        `- ${nested.isError ? '✗' : '✓'} ${code(nested.name)} ${oneLine(nested.label)}: ${oneLine(clip(nested.content, 200))}`,
      );
  }
  return lines;
}

function blockLines(block: EchoBlock): string[] {
  if (block.kind === 'text') return [block.text];
  return fenced(block.text, block.kind === 'diff' ? 'diff' : (block.language ?? ''));
}

/** A fenced block no line of the text can close: its fence is longer than any run of backticks in it. */
function fenced(text: string, language: string): string[] {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${language}`, text.replace(/\n$/, ''), fence];
}

function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${longest > 0 ? ` ${text} ` : text}${ticks}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
}

function clip(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
