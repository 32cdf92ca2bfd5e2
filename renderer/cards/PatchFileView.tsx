import { useState } from 'react';
import { patchEchoSchema, type EchoDiff } from '../../protocol/echo.ts';
import type { ToolCallView } from '../store/transcript-types.ts';
import { SafeText } from '../text/SafeText.tsx';
import { splitLines } from './CodeLines.tsx';
import { decodeEcho } from './echo.ts';
import { isEmptyText, TextBody } from './parts.tsx';
import type { CardBodyProps, CardView } from './view.ts';

// The file mirror's patch card (seed 000): `+added −removed`, the diff coloured by line, or the
// error that kept the patch from applying. write_file's overwrite card shows its diff the same way.

const COLLAPSED_LINES = 80;

export function diffLineKind(line: string): 'add' | 'remove' | 'hunk' | 'file' | 'context' {
  if (line.startsWith('+++') || line.startsWith('---')) return 'file';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'remove';
  if (line.startsWith('@@')) return 'hunk';
  return 'context';
}

export function DiffLines({ diff }: { diff: string }) {
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

/** `+added −removed`, the hunks when there are several, and the diff. */
export function DiffChange({ change }: { change: EchoDiff }) {
  return (
    <>
      <p className="card-meta" data-testid="patch-stats">
        <span className="stat-added">+{change.added}</span> <span className="stat-removed">−{change.removed}</span>
        {change.hunks > 1 ? <span className="stat-hunks"> · {change.hunks} hunks</span> : null}
        {change.cut ? <span className="stat-cut"> · diff cut</span> : null}
      </p>
      {change.diff.trim() === '' ? null : <DiffLines diff={change.diff} />}
    </>
  );
}

function PatchFileBody({ call }: CardBodyProps) {
  const patch = call.state === 'done' ? decodeEcho(call.echo, patchEchoSchema) : null;
  if (!patch) return <TextBody call={call} />;
  return (
    <div className="patch-file">
      <DiffChange change={patch} />
    </div>
  );
}

export const patchFileView: CardView = {
  name: 'patch-file',
  Body: PatchFileBody,
  isEmpty: (call: ToolCallView) => decodeEcho(call.echo, patchEchoSchema) === null && isEmptyText(call),
};
