import type { XmlAttribute, XmlDocument, XmlElement, XmlNode } from './parse.ts';

// The lines a card shows for an XML tree: an indented tree of element names with their
// attributes, and text content. Expanded, every line. Collapsed, the root, then each top-level
// child's first lines within a budget and a count of what it hides, so every child keeps some
// context however long its siblings are.

export type XmlLine =
  | {
      kind: 'element';
      depth: number;
      name: string;
      attributes: XmlAttribute[];
      /** Children of the element (elements and text blocks). */
      childCount: number;
      /** The element's only content when it is one line of text, shown on the element's line. */
      text?: string;
    }
  | { kind: 'text'; depth: number; text: string }
  /** Stands for lines the collapsed view leaves out, at the depth of what they belong to. */
  | { kind: 'more'; depth: number; hiddenLines: number };

export interface XmlProjection {
  lines: XmlLine[];
  /** Lines of the expanded view. */
  totalLines: number;
  /** Lines of the expanded view this projection leaves out (0 when expanded or nothing to cut). */
  hiddenLines: number;
  /** Children of the root: the collapsed view keeps lines of every one of them. */
  topLevelChildren: number;
}

export const COLLAPSED_LINES_PER_CHILD = 3;

export interface ProjectionOptions {
  collapsed: boolean;
  /** Lines kept of each top-level child when collapsed. */
  linesPerChild?: number;
}

export function projectXml(document: XmlDocument, options: ProjectionOptions): XmlProjection {
  const { root } = document;
  const lines: XmlLine[] = [];
  const budget = Math.max(1, options.linesPerChild ?? COLLAPSED_LINES_PER_CHILD);
  const inline = inlineText(root);
  lines.push(elementLine(root, 0, inline));
  let totalLines = 1;
  if (inline === undefined) {
    for (const child of root.children) {
      const childLines = nodeLines(child, 1);
      totalLines += childLines.length;
      if (!options.collapsed || childLines.length <= budget) {
        lines.push(...childLines);
      } else {
        lines.push(...childLines.slice(0, budget), { kind: 'more', depth: 2, hiddenLines: childLines.length - budget });
      }
    }
  }
  const shown = lines.reduce((count, line) => count + (line.kind === 'more' ? 0 : 1), 0);
  return {
    lines,
    totalLines,
    hiddenLines: totalLines - shown,
    topLevelChildren: inline === undefined ? root.children.length : 1,
  };
}

function nodeLines(node: XmlNode, depth: number): XmlLine[] {
  if (node.kind === 'text') return textLines(node.text).map((text) => ({ kind: 'text', depth, text }));
  const lines: XmlLine[] = [];
  appendElement(node, depth, lines);
  return lines;
}

/** Depth is bounded by the parser's limit, so recursion here is bounded too. */
function appendElement(element: XmlElement, depth: number, lines: XmlLine[]): void {
  const inline = inlineText(element);
  lines.push(elementLine(element, depth, inline));
  if (inline !== undefined) return;
  for (const child of element.children) {
    if (child.kind === 'element') appendElement(child, depth + 1, lines);
    else for (const text of textLines(child.text)) lines.push({ kind: 'text', depth: depth + 1, text });
  }
}

function elementLine(element: XmlElement, depth: number, text: string | undefined): XmlLine {
  return {
    kind: 'element',
    depth,
    name: element.name,
    attributes: element.attributes,
    childCount: element.children.length,
    ...(text !== undefined ? { text } : {}),
  };
}

/** The one line of text an element holds and nothing else, if that is what it holds. */
function inlineText(element: XmlElement): string | undefined {
  const [only, ...rest] = element.children;
  if (!only || rest.length > 0 || only.kind !== 'text') return undefined;
  const lines = textLines(only.text);
  return lines.length === 1 ? lines[0] : undefined;
}

/**
 * A text block as lines: trailing spaces and blank lines at either end dropped, and the
 * indentation common to all lines removed (it is the document's, not the content's).
 */
export function textLines(text: string): string[] {
  const lines = text.split('\n').map((line) => line.trimEnd());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  let common = Number.POSITIVE_INFINITY;
  for (const line of lines) if (line !== '') common = Math.min(common, /^[ \t]*/.exec(line)![0].length);
  return common > 0 && common !== Number.POSITIVE_INFINITY ? lines.map((line) => line.slice(common)) : lines;
}

/** A line as plain text, indented two spaces per level: for copying, tests and plain renderers. */
export function xmlLineText(line: XmlLine): string {
  const indent = '  '.repeat(line.depth);
  switch (line.kind) {
    case 'text':
      return `${indent}${line.text}`;
    case 'more':
      return `${indent}… ${line.hiddenLines} more line${line.hiddenLines === 1 ? '' : 's'}`;
    case 'element': {
      const attributes = line.attributes
        .map((attribute) => ` ${attribute.name}=${quotedValue(attribute.value)}`)
        .join('');
      return `${indent}${line.name}${attributes}${line.text !== undefined ? `: ${line.text}` : ''}`;
    }
  }
}

/** An attribute value in double quotes, its own quotes escaped so it cannot pass for more attributes. */
export function quotedValue(value: string): string {
  return `"${value.replaceAll('"', '&quot;')}"`;
}
