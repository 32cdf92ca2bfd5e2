import { useMemo } from 'react';
import { formatBytes } from '../../protocol/format.ts';
import { XmlTree } from '../cards/XmlTree.tsx';
import type { MessageEntry } from '../store/transcript-types.ts';
import { SafeText } from '../text/SafeText.tsx';
import { parseXmlDocument } from '../xml/parse.ts';

// Project instructions the model received (a context message), drawn as the context-message tree:
// when the whole text is one well-formed XML document it shows as a tree, its source on the root's
// line and each top-level child folded to its first lines; malformed or mixed content stays the raw
// text. The header names the file; a line says when it was edited, deleted or cut to the size cap.

export type ContextEntry = Extract<MessageEntry, { kind: 'context' }>;

function noticeOf(message: ContextEntry): string | null {
  if (message.change === 'removed')
    return `${message.source} was deleted: the model was told its instructions no longer apply.`;
  const parts: string[] = [];
  if (message.change === 'changed') parts.push(`${message.source} was edited: the model got the new version.`);
  if (message.truncated)
    parts.push(
      `Only the first ${formatBytes(message.truncated.limit)} of ${formatBytes(message.truncated.bytes)} were sent; the model was told to read the rest if it needs it. Shorten the file to send it whole.`,
    );
  return parts.length > 0 ? parts.join(' ') : null;
}

export function ContextCard({ message }: { message: ContextEntry }) {
  const document = useMemo(
    () => (message.change === 'removed' ? null : parseXmlDocument(message.text)),
    [message.change, message.text],
  );
  const notice = noticeOf(message);
  return (
    <section
      className={`context-card context-${message.change}`}
      data-testid="context-card"
      data-source={message.source}
      data-change={message.change}
      aria-label={`Project instructions from ${message.source}`}
    >
      <header className="context-header">
        <span className="context-kind">Instructions</span>
        <span className="context-source" data-testid="context-source">
          {message.source}
        </span>
        {message.change === 'loaded' ? null : (
          <span className="context-badge">{message.change === 'changed' ? 'edited' : 'deleted'}</span>
        )}
      </header>
      {notice ? (
        <p className="context-notice" data-testid="context-notice" role="status">
          {notice}
        </p>
      ) : null}
      {message.change === 'removed' ? null : document ? (
        <XmlTree document={document} raw={message.text} />
      ) : (
        <pre className="generic-content context-raw" data-testid="context-raw">
          <SafeText text={message.text} />
        </pre>
      )}
    </section>
  );
}
