import { useMemo } from 'react';
import { usePanel } from '../store/store.ts';
import { parseXmlDocument } from '../xml/parse.ts';
import { echoPlainText } from './echo.ts';
import { isEmptyText, Unfinished } from './parts.tsx';
import type { CardBodyProps, CardView } from './view.ts';
import { XmlTree } from './XmlTree.tsx';
import { LinkedText } from '../files/FileLink.tsx';

// The fallback card: the `text` echo (the uiPreview of the final content), or any echo of a
// kind this build has no view for, as text. For a tool this build does not know (a replayed call),
// a text that is exactly one well-formed XML document shows as a tree instead (the readable-XML
// contract). A known tool owns its presentation: its literal XML stays literal unless it declares a
// view of its own. `path:line` references to workspace files in
// the text (search results, compiler errors) are links that open the file at the line.

/** Whether the panel knows the tool; while the list has not arrived, every tool counts as known. */
export function isKnownTool(tools: readonly string[] | null, name: string): boolean {
  return tools === null || tools.includes(name);
}

function GenericBody({ call }: CardBodyProps) {
  const known = usePanel((state) => isKnownTool(state.tools, call.name));
  const text = echoPlainText(call.echo);
  const document = useMemo(
    () => (!known && call.state === 'done' && call.echo?.kind === 'text' ? parseXmlDocument(text) : null),
    [known, call.state, call.echo, text],
  );
  if (call.state !== 'done') return <Unfinished call={call} />;
  if (document) return <XmlTree document={document} raw={text} />;
  return (
    <pre className="generic-content" data-testid="generic-content">
      <LinkedText text={text} withLine />
    </pre>
  );
}

export const genericView: CardView = {
  name: 'generic',
  Body: GenericBody,
  isEmpty: (call) => isEmptyText(call),
};
