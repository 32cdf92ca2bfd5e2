import { isEmptyResult, pathSubtitle, resultText, stringArg } from './decode.ts';
import { Unfinished } from './parts.tsx';
import type { CardBodyProps, CardView } from './view.ts';

// The fallback card: the raw final content as text (the echo of a generic tool is a string).

function GenericBody({ call }: CardBodyProps) {
  if (call.state !== 'done') return <Unfinished call={call} />;
  return (
    <pre className="generic-content" data-testid="generic-content">
      {resultText(call.result)}
    </pre>
  );
}

export const genericView: CardView = {
  kind: 'generic',
  subtitle: (call) => pathSubtitle(call) || (stringArg(call.args, 'pattern', 'query', 'url') ?? '').slice(0, 120),
  Body: GenericBody,
  isEmpty: (call) => isEmptyResult(call.result),
};
