import { useState } from 'react';
import type { ToolCallView } from '../store/transcript-types.ts';
import { asPatchSuccess, isEmptyResult, pathSubtitle, resultText } from './decode.ts';
import { SafeText } from '../text/SafeText.tsx';
import { splitLines } from './CodeLines.tsx';
import { Unfinished } from './parts.tsx';
import type { CardBodyProps, CardView } from './view.ts';

// The file mirror's patch card (seed 000): basename subtitle, `+added −removed`, the diff coloured
// by line, or the error that kept the patch from applying.

const COLLAPSED_LINES = 80;

export function diffLineKind(line: string): 'add' | 'remove' | 'hunk' | 'file' | 'context' {
  if (line.startsWith('+++') || line.startsWith('---')) return 'file';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'remove';
  if (line.startsWith('@@')) return 'hunk';
  return 'context';
}

function DiffLines({ diff }: { diff: string }) {
  const [expanded, setExpanded] = useState(false);
  const lines = splitLines(diff);
  const hidden = expanded ? 0 : Math.max(0, lines.length - COLLAPSED_LINES);
  const visible = hidden > 0 ? lines.slice(0, COLLAPSED_LINES) : lines;
  return (
    <div className="code-block">
      <div className="code diff" role="region" aria-label="Diff" data-testid="patch-diff">
        {visible.map((line, index) => (
          <div key={index} className={`diff-line diff-${diffLineKind(line)}`} data-kind={diffLineKind(line)}>
            {line === '' ? ' ' : <SafeText text={line} />}
          </div>
        ))}
      </div>
      {hidden > 0 || expanded ? (
        <button type="button" className="link-button" onClick={() => setExpanded(!expanded)} aria-expanded={expanded}>
          {expanded ? 'Show fewer lines' : `Show the whole diff (${hidden} more lines)`}
        </button>
      ) : null}
    </div>
  );
}

function PatchFileBody({ call }: CardBodyProps) {
  if (call.state !== 'done') return <Unfinished call={call} />;
  const patch = asPatchSuccess(call.result);
  if (!patch)
    return (
      <pre className="generic-content" data-testid="generic-content">
        {resultText(call.result)}
      </pre>
    );
  return (
    <div className="patch-file">
      <p className="card-meta" data-testid="patch-stats">
        <span className="stat-added">+{patch.added}</span> <span className="stat-removed">−{patch.removed}</span>
        {patch.hunks > 1 ? <span className="stat-hunks"> · {patch.hunks} hunks</span> : null}
      </p>
      {patch.diff.trim() === '' ? null : <DiffLines diff={patch.diff} />}
    </div>
  );
}

export const patchFileView: CardView = {
  kind: 'patch-file',
  subtitle: (call: ToolCallView) => {
    const fromArgs = pathSubtitle(call);
    if (fromArgs) return fromArgs;
    const patch = asPatchSuccess(call.result);
    return patch ? pathSubtitle({ args: { path: patch.path } }) : '';
  },
  Body: PatchFileBody,
  isEmpty: (call: ToolCallView) => asPatchSuccess(call.result) === null && isEmptyResult(call.result),
};
