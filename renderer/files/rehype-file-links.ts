import type { Element, ElementContent, Root, RootContent } from 'hast';
import { findFileRefs, wholeFileRef } from './file-refs.ts';

// File references in an answer's Markdown: each path in the prose, and each inline code span that is
// one path (`src/app.ts:12`), becomes a `span.file-ref` that Markdown.tsx draws as a FileLink —
// a link once the panel knows the file exists, the same text otherwise. Code blocks and the text of
// links the model wrote are left alone.

type Parent = Root | Element;

function fileRef(path: string, line: number | undefined, children: ElementContent[]): Element {
  return {
    type: 'element',
    tagName: 'span',
    properties: { className: ['file-ref'], dataPath: path, ...(line === undefined ? {} : { dataLine: String(line) }) },
    children,
  };
}

function splitText(value: string): RootContent[] {
  const refs = findFileRefs(value);
  if (refs.length === 0) return [{ type: 'text', value }];
  const pieces: RootContent[] = [];
  let at = 0;
  for (const ref of refs) {
    if (ref.start > at) pieces.push({ type: 'text', value: value.slice(at, ref.start) });
    pieces.push(fileRef(ref.path, ref.line, [{ type: 'text', value: value.slice(ref.start, ref.end) }]));
    at = ref.end;
  }
  if (at < value.length) pieces.push({ type: 'text', value: value.slice(at) });
  return pieces;
}

function textOf(element: Element): string | null {
  return element.children.length === 1 && element.children[0]?.type === 'text' ? element.children[0].value : null;
}

function link(parent: Parent): void {
  const children: RootContent[] = [];
  for (const child of parent.children) {
    if (child.type === 'text') {
      children.push(...splitText(child.value));
    } else if (child.type === 'element' && child.tagName === 'code') {
      const text = textOf(child);
      const ref = text === null ? null : wholeFileRef(text);
      children.push(ref ? fileRef(ref.path, ref.line, [child]) : child);
    } else {
      // A code block's text is code, and a link already goes somewhere.
      if (child.type === 'element' && child.tagName !== 'pre' && child.tagName !== 'a') link(child);
      children.push(child);
    }
  }
  parent.children = children as ElementContent[];
}

export function rehypeFileLinks() {
  return (tree: Root) => link(tree);
}
