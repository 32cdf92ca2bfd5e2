import { memo, useMemo, type ReactNode } from 'react';
import { useActions } from '../actions.ts';
import { SafeText } from '../text/SafeText.tsx';
import { revealText } from '../text/safe-text.ts';
import { useFileExists } from './existing-files.ts';
import { findFileRefs } from './file-refs.ts';

// A file named in an answer, a card's subtitle or a search result: a button that opens it (the
// panel's viewer at the line, or the person's editor), once the panel knows it is a workspace file.
// Until then, and for a path that is not one, it is the same text, not a link.

export function FileLink({
  path,
  line,
  children,
  className = '',
}: {
  path: string;
  line?: number | undefined;
  children: ReactNode;
  className?: string;
}) {
  const actions = useActions();
  const exists = useFileExists(path);
  if (exists !== true) return <>{children}</>;
  const where = `${revealText(path)}${line === undefined ? '' : ` at line ${line}`}`;
  return (
    <button
      type="button"
      className={`file-link ${className}`}
      data-testid="file-link"
      data-path={path}
      {...(line === undefined ? {} : { 'data-line': line })}
      title={`Open ${where}`}
      onClick={() => void actions.openFile(path, line)}
    >
      {children}
    </button>
  );
}

/**
 * Tool text with each path that names a workspace file as a FileLink. `withLine`: only `path:line`
 * references (search results, compiler errors): a bare name in a tool's text may be relative to
 * something else than the workspace (a listing names entries of the folder it lists).
 */
export const LinkedText = memo(function LinkedText({ text, withLine = false }: { text: string; withLine?: boolean }) {
  const refs = useMemo(() => findFileRefs(text).filter((ref) => !withLine || ref.line !== undefined), [text, withLine]);
  if (refs.length === 0) return <SafeText text={text} />;
  const pieces: ReactNode[] = [];
  let at = 0;
  for (const ref of refs) {
    if (ref.start > at) pieces.push(<SafeText key={`t${at}`} text={text.slice(at, ref.start)} />);
    pieces.push(
      <FileLink key={`l${ref.start}`} path={ref.path} line={ref.line}>
        <SafeText text={text.slice(ref.start, ref.end)} />
      </FileLink>,
    );
    at = ref.end;
  }
  if (at < text.length) pieces.push(<SafeText key={`t${at}`} text={text.slice(at)} />);
  return <>{pieces}</>;
});
