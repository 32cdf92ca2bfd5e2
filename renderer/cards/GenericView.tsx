import { useMemo } from 'react';
import { usePanel } from '../store/store.ts';
import { parseXmlDocument } from '../xml/parse.ts';
import { isEmptyResult, pathSubtitle, resultText, stringArg } from './decode.ts';
import { Unfinished } from './parts.tsx';
import type { CardBodyProps, CardView } from './view.ts';
import { XmlTree } from './XmlTree.tsx';
import { SafeText } from '../text/SafeText.tsx';

// The fallback card: the raw final content as text (the echo of a generic tool is a string). For a
// tool this build does not know (a replayed call), a text that is exactly one well-formed XML
// document shows as a tree instead (seed 002). A known tool owns its presentation: its literal XML
// stays literal unless it declares a view of its own.

/** Whether the panel knows the tool; while the list has not arrived, every tool counts as known. */
export function isKnownTool(tools: readonly string[] | null, name: string): boolean {
  return tools === null || tools.includes(name);
}

function GenericBody({ call }: CardBodyProps) {
  const known = usePanel((state) => isKnownTool(state.tools, call.name));
  const text = resultText(call.result);
  const document = useMemo(
    () => (!known && call.state === 'done' && typeof call.result === 'string' ? parseXmlDocument(text) : null),
    [known, call.state, call.result, text],
  );
  if (call.state !== 'done') return <Unfinished call={call} />;
  if (document) return <XmlTree document={document} raw={text} />;
  return (
    <pre className="generic-content" data-testid="generic-content">
      <SafeText text={text} />
    </pre>
  );
}

export const genericView: CardView = {
  kind: 'generic',
  subtitle: (call) => pathSubtitle(call) || (stringArg(call.args, 'pattern', 'query', 'url') ?? '').slice(0, 120),
  Body: GenericBody,
  isEmpty: (call) => isEmptyResult(call.result),
};
