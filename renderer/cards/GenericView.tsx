import { useMemo } from 'react';
import { parseXmlDocument } from '../xml/parse.ts';
import { isEmptyResult, pathSubtitle, resultText, stringArg } from './decode.ts';
import { Unfinished } from './parts.tsx';
import type { CardBodyProps, CardView } from './view.ts';
import { XmlTree } from './XmlTree.tsx';

// The fallback card: the raw final content as text (the echo of a generic tool is a string). A
// text that is exactly one well-formed XML document shows as a tree instead (seed 002).

function GenericBody({ call }: CardBodyProps) {
  const text = resultText(call.result);
  const document = useMemo(() => (call.state === 'done' && typeof call.result === 'string' ? parseXmlDocument(text) : null), [call.state, call.result, text]);
  if (call.state !== 'done') return <Unfinished call={call} />;
  if (document) return <XmlTree document={document} raw={text} />;
  return (
    <pre className="generic-content" data-testid="generic-content">
      {text}
    </pre>
  );
}

export const genericView: CardView = {
  kind: 'generic',
  subtitle: (call) => pathSubtitle(call) || (stringArg(call.args, 'pattern', 'query', 'url') ?? '').slice(0, 120),
  Body: GenericBody,
  isEmpty: (call) => isEmptyResult(call.result),
};
