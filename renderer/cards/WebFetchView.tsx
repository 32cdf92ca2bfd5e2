import { webFetchEchoSchema, type WebFetchEcho } from '../../protocol/echo.ts';
import { formatBytes } from '../../protocol/format.ts';
import { SafeText } from '../text/SafeText.tsx';
import { decodeEcho } from './echo.ts';
import { TextBody, Unfinished } from './parts.tsx';
import type { CardBodyProps, CardView } from './view.ts';

// A page web_fetch read: its title, the host it came from with its type and size, and the page's
// own summary (or the start of its text). The text itself went to the model; the card says how
// much, whether the page was cut at the size limit, and where redirects ended. The URL is shown as
// text, never as a link the card would open.

const FORMATS: Record<WebFetchEcho['format'], string> = {
  article: 'main text',
  page: 'whole page',
  text: 'as sent',
};

/** `docs.python.org · text/html · 84.2 KiB · main text → 12 345 characters`. */
export function webFetchFacts(echo: WebFetchEcho): string[] {
  const facts = [echo.host, echo.content_type || 'no type', formatBytes(echo.bytes)];
  if (echo.cut) facts.push('cut at the size limit');
  if (echo.redirects > 0) facts.push(`${echo.redirects} ${echo.redirects === 1 ? 'redirect' : 'redirects'}`);
  facts.push(`${FORMATS[echo.format]} → ${echo.text_chars.toLocaleString('en-US')} characters`);
  return facts;
}

function WebFetchBody({ call }: CardBodyProps) {
  const echo = decodeEcho(call.echo, webFetchEchoSchema);
  if (!echo) return call.state === 'done' ? <TextBody call={call} /> : <Unfinished call={call} />;
  return (
    <div className="web-fetch" data-testid="web-fetch">
      <p className="web-fetch-title" data-testid="web-fetch-title">
        <SafeText text={echo.title ?? echo.final_url} />
      </p>
      <p className="web-fetch-facts" data-testid="web-fetch-facts">
        <SafeText text={webFetchFacts(echo).join(' · ')} />
      </p>
      {echo.title || echo.redirects > 0 ? (
        <p className="web-fetch-url" data-testid="web-fetch-url">
          <SafeText text={echo.final_url} />
        </p>
      ) : null}
      {echo.excerpt ? (
        <p className="web-fetch-excerpt" data-testid="web-fetch-excerpt">
          <SafeText text={echo.excerpt} />
        </p>
      ) : null}
    </div>
  );
}

export const webFetchView: CardView = {
  name: 'web-fetch',
  Body: WebFetchBody,
  isEmpty: () => false,
  stoppable: true,
};
