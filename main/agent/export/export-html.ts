import { formatDuration } from '../../../protocol/format.ts';
import { echoView, type EchoBlock } from './echo-blocks.ts';
import { callLabel, callOutcome, type CallEntry, type ExportEntry } from './export-entries.ts';
import type { ExportHeading } from './session-export.ts';
import { visibleControls } from './visible-text.ts';

// A session as one self-contained HTML page drawn like the panel: messages, and each tool call as a
// card (a header with its mark, name, description and time; its output, file text or coloured
// diff). Everything from the session is escaped text — messages are shown as written, not rendered
// as Markdown — the style is inline, and the page has no script: its own policy forbids any.

const MARKS: Record<CallEntry['state'], string> = { ok: '✓', error: '✗', cancelled: '⊘', running: '…' };

const STYLE = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #646b73; --border: #d0d7de;
  --card: #f6f8fa; --user: #eef4ff; --ok: #1a7f37; --error: #cf222e; --notice: #9a6700;
  --add: #e6ffec; --del: #ffebe9; --hunk: #ddf4ff; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #98a0a9; --border: #30363d;
  --card: #161b22; --user: #162035; --ok: #3fb950; --error: #f85149; --notice: #d29922;
  --add: #12261e; --del: #2d1214; --hunk: #0c2d4a; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { max-width: 920px; margin: 0 auto; padding: 24px 16px 48px; }
h1 { font-size: 20px; margin: 0 0 8px; overflow-wrap: anywhere; }
.facts { color: var(--muted); margin: 0 0 24px; padding: 0; list-style: none; }
.facts code { font-size: 12px; }
.message { margin: 16px 0; padding: 10px 14px; border-radius: 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
.message.user { background: var(--user); }
.message .who { display: block; font-weight: 600; margin-bottom: 4px; white-space: normal; }
.thinking { margin: 8px 0; padding: 6px 12px; border-left: 3px solid var(--border); color: var(--muted); white-space: pre-wrap; }
.note { color: var(--muted); font-style: italic; margin: 8px 0; }
.note.error { color: var(--error); }
.card { margin: 10px 0; border: 1px solid var(--border); border-radius: 6px; background: var(--card); overflow: hidden; }
.card-header { display: flex; gap: 8px; align-items: baseline; padding: 6px 10px; border-bottom: 1px solid var(--border); }
.card-header .name { font-weight: 600; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.card-header .title { flex: 1; min-width: 0; overflow-wrap: anywhere; color: var(--muted); }
.card-header .time { color: var(--muted); white-space: nowrap; }
.mark.ok { color: var(--ok); } .mark.error { color: var(--error); } .mark.cancelled, .mark.running { color: var(--notice); }
.card-body { padding: 6px 10px; }
.card-body p { margin: 4px 0; overflow-wrap: anywhere; }
.card-line { color: var(--muted); }
.approval { color: var(--notice); }
pre { margin: 6px 0; padding: 8px; background: var(--bg); border: 1px solid var(--border); border-radius: 4px;
  overflow-x: auto; font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre; }
pre.diff span { display: block; }
pre.diff .add { background: var(--add); } pre.diff .del { background: var(--del); } pre.diff .hunk { background: var(--hunk); color: var(--muted); }
ul.nested { margin: 6px 0; padding-left: 18px; font-size: 13px; }
ul.nested .error { color: var(--error); }
`;

export function exportHtml(heading: ExportHeading, entries: readonly ExportEntry[]): string {
  // An agent's messages were its parent's agent call's, not the person's.
  const who = heading.agent ? 'Task given by the parent' : 'You';
  const body = entries.map((entry) => entryHtml(entry, who)).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="ÆtherCodex">
<title>${escapeHtml(heading.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(heading.title)}</h1>
<ul class="facts">
<li>Session <code>${escapeHtml(heading.id)}</code> · workspace <code>${escapeHtml(heading.workspace)}</code> · model <code>${escapeHtml(heading.model)}</code></li>
<li>Started ${escapeHtml(heading.created)}; last activity ${escapeHtml(heading.updated)}</li>${
    heading.agent
      ? `\n<li>Agent <code>${escapeHtml(heading.agent.name)}</code>'s session, started by session <code>${escapeHtml(heading.agent.parent)}</code> (its call <code>${escapeHtml(heading.agent.call_id)}</code>)</li>`
      : ''
  }
</ul>
${body}
</main>
</body>
</html>
`;
}

function entryHtml(entry: ExportEntry, who: string): string {
  switch (entry.kind) {
    case 'user': {
      const images =
        entry.images > 0
          ? `\n<span class="note">${entry.images} ${entry.images === 1 ? 'image' : 'images'} attached (not included)</span>`
          : '';
      return `<section class="message user"><span class="who">${who}</span>${escapeHtml(entry.text)}${images}</section>`;
    }
    case 'assistant': {
      const partial = entry.partial ? '\n<span class="note">The answer above is incomplete.</span>' : '';
      return `<section class="message assistant"><span class="who">Assistant</span>${escapeHtml(entry.text)}${partial}</section>`;
    }
    case 'thinking':
      return `<div class="thinking"><em>Thought for ${escapeHtml(formatDuration(entry.durationMs))}</em>\n${escapeHtml(entry.text)}</div>`;
    case 'note':
      return `<p class="note${entry.error ? ' error' : ''}">${escapeHtml(entry.text)}</p>`;
    case 'call':
      return callHtml(entry.call);
  }
}

function callHtml(call: CallEntry): string {
  const view = echoView(call.echo);
  const parts: string[] = [];
  if (call.approval) parts.push(`<p class="approval">${escapeHtml(call.approval)}</p>`);
  if (view.line) parts.push(`<p class="card-line">${escapeHtml(view.line)}</p>`);
  for (const block of view.blocks) parts.push(blockHtml(block));
  if (call.nested.length > 0) {
    const items = call.nested.map(
      (nested) =>
        `<li${nested.isError ? ' class="error"' : ''}>${nested.isError ? '✗' : '✓'} <code>${escapeHtml(nested.name)}</code> ${escapeHtml(nested.label)}</li>`,
    );
    parts.push(`<ul class="nested">${items.join('')}</ul>`);
  }
  const title = callLabel(call);
  return [
    `<section class="card" data-call="${escapeHtml(call.id)}">`,
    `<div class="card-header"><span class="mark ${call.state}">${MARKS[call.state]}</span><span class="name">${escapeHtml(call.name)}</span><span class="title">${escapeHtml(title)}</span><span class="time">${escapeHtml(callOutcome(call))}</span></div>`,
    parts.length > 0 ? `<div class="card-body">${parts.join('\n')}</div>` : '',
    '</section>',
  ].join('');
}

function blockHtml(block: EchoBlock): string {
  if (block.kind === 'text') return `<p>${escapeHtml(block.text)}</p>`;
  if (block.kind === 'code') return `<pre>${escapeHtml(block.text.replace(/\n$/, ''))}</pre>`;
  const lines = block.text.replace(/\n$/, '').split('\n');
  const spans = lines.map((line) => {
    const tone = line.startsWith('@@')
      ? 'hunk'
      : line.startsWith('+') && !line.startsWith('+++')
        ? 'add'
        : line.startsWith('-') && !line.startsWith('---')
          ? 'del'
          : '';
    return `<span${tone ? ` class="${tone}"` : ''}>${escapeHtml(line) || ' '}</span>`;
  });
  return `<pre class="diff">${spans.join('')}</pre>`;
}

/** Text as HTML text: every character that could start markup or end an attribute is escaped, controls shown. */
export function escapeHtml(text: string): string {
  return visibleControls(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
