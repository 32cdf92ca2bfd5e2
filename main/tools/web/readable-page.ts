import { isProbablyReaderable, Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';
import TurndownService from 'turndown';

// An HTML page as Markdown a model reads well: jsdom parses it (no scripts run, nothing else is
// loaded, its console is silent), Readability finds the main text as Firefox's Reader View does,
// and turndown writes it as Markdown. A page with no main text — an index, a short page, one
// Readability's quick check (isProbablyReaderable) finds no article in — is converted whole, less its scripts, styles and forms; so is one too large for
// Readability to judge in reasonable time (it slows down sharply with the element count under
// jsdom). Runs in a worker thread (readable-runner.ts).

/** Beyond this many elements, the page is converted whole without looking for its main text. */
export const READABLE_MAX_ELEMENTS = 6000;

export interface PageSource {
  html: Uint8Array;
  /** The page's Content-Type header: its charset, if any, decides how the bytes are read. */
  contentType: string;
  /** The page's own URL: relative links are made absolute against it. */
  url: string;
}

export interface ReadablePage {
  /** `article`: Readability found the main text; `page`: the whole page was converted. */
  format: 'article' | 'page';
  markdown: string;
  title?: string;
  byline?: string;
  siteName?: string;
  /** The article's description, or its first paragraph. */
  excerpt?: string;
}

export function readablePage(source: PageSource): ReadablePage {
  const dom = parse(source);
  try {
    const { document } = dom.window;
    const title = document.title.trim();
    // Readability makes the article's links absolute; the whole page's are made so here.
    for (const link of document.querySelectorAll('a[href]')) link.setAttribute('href', link.href ?? '');
    for (const image of document.querySelectorAll('img[src]')) image.setAttribute('src', image.src ?? '');
    const whole = document.body?.innerHTML ?? '';
    // jsdom's document is a DOM Document; its declaration here (jsdom.d.ts) names only what this file uses.
    // Classes are kept for turndown, which names a code block's language from `language-…`.
    const readable = document as unknown as ConstructorParameters<typeof Readability>[0];
    const judged = document.getElementsByTagName('*').length <= READABLE_MAX_ELEMENTS && isProbablyReaderable(readable);
    const article = judged ? new Readability(readable, { keepClasses: true }).parse() : null;
    if (article?.content) {
      const markdown = toMarkdown(article.content);
      return {
        format: 'article',
        markdown,
        ...present('title', article.title?.trim() || title),
        ...present('byline', article.byline?.trim()),
        ...present('siteName', article.siteName?.trim()),
        ...present('excerpt', article.excerpt?.replace(/\s+/g, ' ').trim()),
      };
    }
    return { format: 'page', markdown: toMarkdown(whole), ...present('title', title) };
  } finally {
    dom.window.close();
  }
}

function parse(source: PageSource): JSDOM {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(source.contentType)?.[1];
  const options = { url: source.url, virtualConsole: new VirtualConsole() };
  try {
    return new JSDOM(source.html, { ...options, contentType: charset ? `text/html; charset=${charset}` : 'text/html' });
  } catch {
    // A charset jsdom does not know: the bytes are sniffed as a browser would (BOM, <meta charset>).
    return new JSDOM(source.html, { ...options, contentType: 'text/html' });
  }
}

interface TurndownNode {
  nodeName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<TurndownNode>;
}

let service: TurndownService | null = null;

function toMarkdown(html: string): string {
  service ??= markdownService();
  return service
    .turndown(html)
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function markdownService(): TurndownService {
  const turndown = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  turndown.remove(['script', 'style', 'noscript', 'template', 'iframe', 'form', 'button', 'select', 'svg', 'canvas']);
  // An image inlined as data: would be kilobytes of base64 to the model: its alt text stands in.
  turndown.addRule('inlineImages', {
    filter: (node: TurndownNode) => node.nodeName === 'IMG' && /^data:/i.test(node.getAttribute('src') ?? ''),
    replacement: (_content: string, node: TurndownNode) => {
      const alt = node.getAttribute('alt')?.trim();
      return alt ? `[image: ${alt}]` : '';
    },
  });
  turndown.addRule('tables', { filter: 'table', replacement: (_content: string, node: TurndownNode) => table(node) });
  return turndown;
}

/** A table as a Markdown table of its cells' text (its first row as the header). */
function table(node: TurndownNode): string {
  const rows = Array.from(node.querySelectorAll('tr'), (row) =>
    Array.from(row.querySelectorAll('th, td'), (cell) =>
      (cell.textContent ?? '').replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|'),
    ),
  ).filter((cells) => cells.length > 0);
  const width = Math.max(0, ...rows.map((cells) => cells.length));
  if (width === 0) return '';
  const line = (cells: string[]): string =>
    `| ${Array.from({ length: width }, (_, index) => cells[index] ?? '').join(' | ')} |`;
  const [head = [], ...body] = rows;
  return `\n\n${[line(head), line(Array<string>(width).fill('---')), ...body.map(line)].join('\n')}\n\n`;
}

function present<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value ? { [key]: value } : {}) as { [P in K]?: string };
}
