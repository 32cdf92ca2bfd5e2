import { STATUS_CODES } from 'node:http';
import { webFetchEchoSchema, type WebFetchEcho } from '../../../protocol/echo.ts';
import { formatBytes } from '../../../protocol/format.ts';
import { webFetchArgsSchema, type WebFetchArgs } from '../../../protocol/tool-args.ts';
import {
  WEB_FETCH_MAX_BYTES,
  WEB_FETCH_MAX_REDIRECTS,
  webFetchResultSchema,
  type WebFetchResult,
} from '../../../protocol/tools.ts';
import { hostOfUrl } from '../permission-rules.ts';
import { declareEcho, defineTool, ToolError, type AnyTool, type ToolContext } from '../tool.ts';
import { httpsFetch, type FetchedPage } from './https-fetch.ts';
import { binaryRefusal, charsetOf, decodeText, mediaType, pageKind } from './page-content.ts';
import { makeReadable } from './readable-runner.ts';

// `web_fetch`: one page over https, its readable text as Markdown for the model (a text or JSON
// document as it came), and its title and host for the card. The gate judges the call by its host
// (net rules: `net(docs.python.org)`, `net(*.python.org)`); a redirect to another host is judged
// again, and may ask again. Private, loopback and link-local addresses are refused unless an allow
// rule the person wrote names the host, so a model cannot reach the panel's own port, a local
// service or a cloud metadata address by naming it. Long text is spilled like any tool's output.

export interface WebFetchOptions {
  /** Certificate authorities trusted instead of Node's own list (a test's local server). */
  ca?: string | Buffer;
  maxBytes?: number;
  maxRedirects?: number;
  /** How long one request may take, from connecting to its body's end. */
  timeoutMs?: number;
  /** How long making a page readable may take. */
  readableTimeLimitMs?: number;
}

export const WEB_FETCH_TIMEOUT_MS = 30_000;
const ERROR_QUOTE_CHARS = 1000;
const EXCERPT_CHARS = 300;

export function webFetchTool(options: WebFetchOptions = {}): AnyTool {
  const maxBytes = options.maxBytes ?? WEB_FETCH_MAX_BYTES;
  return defineTool<WebFetchArgs, WebFetchResult>({
    name: 'web_fetch',
    model: {
      description:
        'Fetch a web page (https only) and return its main text as Markdown, with its title; a text, Markdown or JSON document comes back as it is. ' +
        `Follows up to ${WEB_FETCH_MAX_REDIRECTS} redirects and reads at most ${formatBytes(WEB_FETCH_MAX_BYTES)}; images, PDFs and other binary files are refused. ` +
        'The person may be asked to allow each host. Local and private network addresses are refused unless the person allowed that host.',
      schema: webFetchArgsSchema,
      resultSchema: webFetchResultSchema,
      render: (result) => renderPage(result, maxBytes),
    },
    gate: {
      kind: 'net',
      ruleHost: (args) => hostOfUrl(args.url),
    },
    card: {
      describe: (args) => ({
        title: `Fetch a page from ${hostOfUrl(args.url) ?? args.url}`,
        subtitle: shortUrl(args.url),
        detail: args.url,
      }),
      echo: declareEcho(webFetchEchoSchema, (result: WebFetchResult) => echoOf(result)),
    },
    async execute(args, ctx) {
      const start = new URL(args.url);
      const page = await httpsFetch(start, {
        signal: ctx.signal,
        timeoutMs: options.timeoutMs ?? WEB_FETCH_TIMEOUT_MS,
        maxBytes,
        maxRedirects: options.maxRedirects ?? WEB_FETCH_MAX_REDIRECTS,
        ...(options.ca ? { ca: options.ca } : {}),
        checkRedirect: (next, from) => checkRedirect(ctx, next, from),
        privateAllowed: (url) => {
          const host = hostOfUrl(url.href);
          return host !== null && ctx.allowRuleFor({ host }) !== null;
        },
        refuseType: binaryRefusal,
      });
      if (page.status < 200 || page.status >= 300) throw new ToolError(statusFailure(page));
      return await pageResult(args.url, page, ctx.signal, options.readableTimeLimitMs);
    },
  });
}

/** A redirect to another host is judged as a call to it would be: rules, the mode, a question. */
async function checkRedirect(ctx: ToolContext, next: URL, from: URL): Promise<void> {
  const host = hostOfUrl(next.href);
  const fromHost = hostOfUrl(from.href);
  if (!host || host === fromHost) return;
  const decision = await ctx.permits(
    { host },
    {
      title: `Follow a redirect from ${fromHost ?? from.host} to ${host}`,
      detail: `${from.href}\n→ ${next.href}`,
      scope: 'net',
    },
  );
  if (!decision.allowed)
    throw new ToolError(
      `${from.href} redirects to ${next.href}, on another host, which was not followed: ${decision.reason}`,
    );
}

async function pageResult(
  url: string,
  page: FetchedPage,
  signal: AbortSignal,
  timeLimitMs: number | undefined,
): Promise<WebFetchResult> {
  const type = mediaType(page.contentType);
  const common = {
    url,
    final_url: page.url.href,
    redirects: page.redirects,
    status: page.status,
    content_type: type,
    bytes: page.body.length,
    cut: page.cut,
  };
  const kind = pageKind(type, page.body);
  if (kind === 'binary')
    throw new ToolError(
      `${page.url.href} holds binary data (its server names no type), which web_fetch does not read.`,
    );
  if (kind === 'text') return { ...common, format: 'text', text: decodeText(page.body, charsetOf(page.contentType)) };
  const readable = await makeReadable(
    { html: page.body, contentType: page.contentType, url: page.url.href },
    { signal, ...(timeLimitMs ? { timeLimitMs } : {}) },
  );
  return {
    ...common,
    ...(readable.title ? { title: readable.title } : {}),
    ...(readable.byline ? { byline: readable.byline } : {}),
    ...(readable.siteName ? { site_name: readable.siteName } : {}),
    ...(readable.excerpt ? { excerpt: readable.excerpt } : {}),
    format: readable.format,
    text: readable.markdown,
  };
}

/** A page that came back with an error status: the status, and the start of a text body. */
function statusFailure(page: FetchedPage): string {
  const said = `${page.url.href} answered ${page.status} ${STATUS_CODES[page.status] ?? ''}`.trimEnd();
  const type = mediaType(page.contentType);
  if (pageKind(type, page.body) !== 'text' || page.body.length === 0) return `${said}.`;
  const text = decodeText(page.body, charsetOf(page.contentType)).trim();
  const quote = text.length > ERROR_QUOTE_CHARS ? `${text.slice(0, ERROR_QUOTE_CHARS)}…` : text;
  return `${said}:\n${quote}`;
}

const FORMATS: Record<WebFetchResult['format'], string> = {
  article: 'The main text of the page, as Markdown',
  page: 'The whole page as Markdown (no main text was found)',
  text: 'The document as it came',
};

function renderPage(result: WebFetchResult, maxBytes: number): string {
  const lines: string[] = [];
  if (result.title) lines.push(`# ${result.title}`, '');
  const from = result.redirects > 0 ? ` (redirected from ${result.url})` : '';
  lines.push(`Source: ${result.final_url}${from}`);
  const about = [result.content_type || 'no content type', formatBytes(result.bytes)];
  if (result.byline) about.push(`by ${result.byline}`);
  lines.push(`${FORMATS[result.format]} · ${about.join(' · ')}`);
  if (result.cut)
    lines.push(
      `[The page is larger than ${formatBytes(maxBytes)}: only its first ${formatBytes(result.bytes)} were read, so this text ends early.]`,
    );
  lines.push('', result.text.trim() === '' ? '[The page has no text.]' : result.text);
  return lines.join('\n');
}

function echoOf(result: WebFetchResult): WebFetchEcho {
  const summary = (result.excerpt ?? result.text).replace(/\s+/g, ' ').trim();
  return {
    kind: 'web-fetch',
    url: result.url,
    final_url: result.final_url,
    host: hostOfUrl(result.final_url) ?? '',
    redirects: result.redirects,
    status: result.status,
    content_type: result.content_type,
    ...(result.title ? { title: result.title } : {}),
    ...(result.site_name ? { site_name: result.site_name } : {}),
    format: result.format,
    bytes: result.bytes,
    cut: result.cut,
    text_chars: result.text.length,
    excerpt: summary.length > EXCERPT_CHARS ? `${summary.slice(0, EXCERPT_CHARS - 1)}…` : summary,
  };
}

/** The card's label: the host and path, without the scheme, at most 80 characters. */
function shortUrl(text: string): string {
  const short = text.replace(/^https:\/\//i, '');
  return short.length > 80 ? `${short.slice(0, 79)}…` : short;
}
