// Marks the query's occurrences in the rows the transcript has on screen, with the CSS Custom
// Highlight API: no element is added to (or removed from) the cards, so React's DOM is left alone.
// Where the API is missing (jsdom), only the current row's outline shows the hit.

const MATCH = 'find-match';
const CURRENT = 'find-current';

interface HighlightRegistryLike {
  set(name: string, highlight: unknown): void;
  delete(name: string): void;
}

function registry(): { highlights: HighlightRegistryLike; make: (ranges: Range[]) => unknown } | null {
  const css = (globalThis as { CSS?: { highlights?: HighlightRegistryLike } }).CSS;
  const HighlightClass = (globalThis as { Highlight?: new (...ranges: Range[]) => { priority: number } }).Highlight;
  if (!css?.highlights || !HighlightClass) return null;
  // Above the code's token colours (token-highlights.ts), which are highlights too.
  const make = (ranges: Range[]) => Object.assign(new HighlightClass(...ranges), { priority: 1 });
  return { highlights: css.highlights, make };
}

/** Where `needle` occurs in the row's text, also across elements (a highlighted `foo-bar` is three spans). */
function rangesIn(root: Element, needle: string): Range[] {
  const nodes: { node: Text; start: number }[] = [];
  let text = '';
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push({ node: node as Text, start: text.length });
    text += (node.nodeValue ?? '').toLocaleLowerCase();
  }
  const locate = (offset: number, end: boolean): { node: Text; offset: number } | null => {
    for (let i = nodes.length - 1; i >= 0; i--) {
      const entry = nodes[i];
      if (entry && (end ? entry.start < offset : entry.start <= offset))
        return { node: entry.node, offset: offset - entry.start };
    }
    return null;
  };
  const ranges: Range[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    const from = locate(at, false);
    const to = locate(at + needle.length, true);
    if (!from || !to) continue;
    const range = document.createRange();
    range.setStart(from.node, from.offset);
    range.setEnd(to.node, to.offset);
    ranges.push(range);
  }
  return ranges;
}

/** Highlights `query` in the rows under `root`; those of the row keyed `currentKey` stand out. */
export function highlightFind(root: Element | null, query: string, currentKey: string | null): void {
  const api = registry();
  if (!api) return;
  const needle = query.trim().toLocaleLowerCase();
  if (!root || needle === '') {
    clearFindHighlight();
    return;
  }
  const matches: Range[] = [];
  const current: Range[] = [];
  for (const row of root.querySelectorAll('[data-row-key]')) {
    const ranges = rangesIn(row, needle);
    if (row.getAttribute('data-row-key') === currentKey) current.push(...ranges);
    else matches.push(...ranges);
  }
  api.highlights.set(MATCH, api.make(matches));
  api.highlights.set(CURRENT, api.make(current));
}

export function clearFindHighlight(): void {
  const api = registry();
  api?.highlights.delete(MATCH);
  api?.highlights.delete(CURRENT);
}
