import type { HighlightToken } from './highlight.ts';

// A line of code coloured without an element per token: each run of one colour is a range over the
// line's one text node, kept in a CSS Custom Highlight of that colour (`::highlight(tc3)`), so a
// 30-line card is 90 elements instead of 700 and its colours cost no style or layout work. Where
// the API is missing (jsdom, an older browser) CodeLine draws a span per token instead.

interface HighlightApi {
  registry: HighlightRegistry;
  range: (node: Text, start: number, end: number) => AbstractRange;
}

const COLOUR = /^#[0-9a-fA-F]{3,8}$/;

let api: HighlightApi | null | undefined;

function highlightApi(): HighlightApi | null {
  if (api !== undefined) return api;
  // jsdom and browsers before the API have neither.
  if (typeof Highlight !== 'function' || typeof CSS === 'undefined' || !('highlights' in CSS)) return (api = null);
  // A static range is not moved by the page's other DOM changes (a live one is, at a cost to each
  // of them); the line's text node never changes while it is painted, and its ranges leave with it.
  const range =
    typeof StaticRange === 'function'
      ? (node: Text, start: number, end: number) =>
          new StaticRange({ startContainer: node, startOffset: start, endContainer: node, endOffset: end })
      : (node: Text, start: number, end: number) => {
          const live = document.createRange();
          live.setStart(node, start);
          live.setEnd(node, end);
          return live;
        };
  api = { registry: CSS.highlights, range };
  return api;
}

/** Whether lines can be coloured with highlights here (else with a span per token). */
export function canPaintTokens(): boolean {
  return highlightApi() !== null;
}

const byColours = new Map<string, Highlight | null>();
let sheet: CSSStyleSheet | null = null;

/** The highlight of a token's colours (light and dark), made and given its rules on first use. */
function highlightOf(token: HighlightToken, target: HighlightApi): Highlight | null {
  const light = token.htmlStyle?.['--shiki-light'];
  const dark = token.htmlStyle?.['--shiki-dark'];
  if (!light || !dark) return null;
  const key = `${light} ${dark}`;
  const known = byColours.get(key);
  if (known !== undefined) return known;
  let made: Highlight | null = null;
  if (COLOUR.test(light) && COLOUR.test(dark)) {
    if (!sheet) {
      const element = document.createElement('style');
      element.dataset['tokenHighlights'] = '';
      document.head.append(element);
      sheet = element.sheet;
    }
    const name = `tc${byColours.size}`;
    try {
      sheet?.insertRule(`.line-text::highlight(${name}){color:${light}}`, sheet.cssRules.length);
      sheet?.insertRule(
        `:root[data-theme='dark'] .line-text::highlight(${name}){color:${dark}}`,
        sheet.cssRules.length,
      );
      made = new Highlight();
      target.registry.set(name, made);
    } catch {
      made = null;
    }
  }
  byColours.set(key, made);
  return made;
}

/**
 * Colours `node` (a line's text, exactly the tokens' contents one after the other) run by run.
 * Returns what takes the colours off again, for when the line leaves or its tokens change.
 */
export function paintTokens(node: Text, tokens: readonly HighlightToken[]): () => void {
  const target = highlightApi();
  if (!target) return () => undefined;
  const added: [Highlight, AbstractRange][] = [];
  let offset = 0;
  for (const token of tokens) {
    const end = offset + token.content.length;
    const highlight = end > offset ? highlightOf(token, target) : null;
    if (highlight) {
      const range = target.range(node, offset, end);
      highlight.add(range);
      added.push([highlight, range]);
    }
    offset = end;
  }
  return () => {
    for (const [highlight, range] of added) highlight.delete(range);
  };
}
