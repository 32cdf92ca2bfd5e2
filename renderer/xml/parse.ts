import { SaxesParser } from 'saxes';
import { errorMessage } from '../../protocol/errors.ts';
import { escapeForDisplay, escapeInline } from './escape.ts';

// Strict XML for cards (the readable-XML contract): a result or context message renders as a tree
// only when its whole text, surrounding whitespace aside, is exactly one well-formed document.
// Anything that could hide or transform the input beyond a conservative tree view is refused and
// the card shows the raw text: a DOCTYPE (so no entity declarations: no billion laughs, no external
// entities), comments, processing instructions (the XML declaration included), undefined entities,
// text around the root, malformed markup, too large or too deep. Pure: no DOM, no Node built-ins.

export interface XmlAttribute {
  name: string;
  /** Display-escaped, on one line: tab and newline escaped too (see escape.ts). */
  value: string;
}

export interface XmlElement {
  kind: 'element';
  /** Display-escaped, prefix included as written (`ns:name`). */
  name: string;
  attributes: XmlAttribute[];
  /** Whitespace-only text between elements is dropped; adjacent text and CDATA are merged. */
  children: XmlNode[];
}

export interface XmlText {
  kind: 'text';
  /** Display-escaped; line breaks kept. */
  text: string;
}

export type XmlNode = XmlElement | XmlText;

export interface XmlDocument {
  root: XmlElement;
  /** Elements in the whole document, the root included. */
  elementCount: number;
}

export type XmlRefusal =
  | 'empty'
  | 'too-large'
  | 'too-deep'
  | 'declaration'
  | 'doctype'
  | 'comment'
  | 'processing-instruction'
  | 'undefined-entity'
  | 'text-outside-root'
  | 'malformed';

export type XmlParseResult = { ok: true; document: XmlDocument } | { ok: false; refusal: XmlRefusal; detail?: string };

export interface XmlLimits {
  /** UTF-8 bytes of the trimmed text. */
  maxBytes: number;
  /** Nesting depth of elements, the root at depth 1. */
  maxDepth: number;
}

export const XML_LIMITS: XmlLimits = { maxBytes: 5 * 1024 * 1024, maxDepth: 256 };

/** The tree of a text that is exactly one well-formed XML document, or null: show the raw text. */
export function parseXmlDocument(text: string, limits: XmlLimits = XML_LIMITS): XmlDocument | null {
  const parsed = parseXml(text, limits);
  return parsed.ok ? parsed.document : null;
}

/** As parseXmlDocument, saying why a text was refused. */
export function parseXml(text: string, limits: XmlLimits = XML_LIMITS): XmlParseResult {
  const source = trimXmlWhitespace(text);
  if (source.length === 0) return refuse('empty');
  if (exceedsUtf8Bytes(source, limits.maxBytes)) return refuse('too-large');
  // Everything allowed starts with the root's start tag: looking at two characters refuses a
  // declaration, a DOCTYPE (and the entities it would declare), a comment or text before parsing.
  if (source[0] !== '<') return refuse('text-outside-root');
  if (source[1] === '?') return refuse(source.startsWith('<?xml') ? 'declaration' : 'processing-instruction');
  if (source[1] === '!')
    return refuse(source.startsWith('<!--') ? 'comment' : source.startsWith('<!DOCTYPE') ? 'doctype' : 'malformed');

  const builder = new TreeBuilder(limits.maxDepth);
  // XML 1.1 character rules: a character reference to a C0 control parses (and is re-escaped for
  // display) instead of refusing the document; literal control characters stay refused.
  const parser = new SaxesParser({ xmlns: false, position: false, defaultXMLVersion: '1.1', forceXMLVersion: true });
  parser.on('opentag', (tag) => builder.open(tag.name, tag.attributes));
  parser.on('closetag', () => builder.close());
  parser.on('text', (chunk) => builder.text(chunk));
  parser.on('cdata', (chunk) => builder.text(chunk));
  parser.on('doctype', () => stop('doctype'));
  parser.on('comment', () => stop('comment'));
  parser.on('processinginstruction', () => stop('processing-instruction'));
  parser.on('xmldecl', () => stop('declaration'));
  try {
    parser.write(source).close();
  } catch (error) {
    if (error instanceof Refused) return refuse(error.refusal);
    const detail = errorMessage(error);
    if (/undefined entity/.test(detail)) return refuse('undefined-entity', detail);
    if (/outside of root|only one root/.test(detail)) return refuse('text-outside-root', detail);
    return refuse('malformed', detail);
  }
  const root = builder.finish();
  return root ? { ok: true, document: { root, elementCount: builder.elementCount } } : refuse('malformed');
}

class Refused extends Error {
  readonly refusal: XmlRefusal;

  constructor(refusal: XmlRefusal) {
    super(refusal);
    this.refusal = refusal;
  }
}

/** Thrown from a parser callback: saxes stops at once, so nothing after it is read. */
function stop(refusal: XmlRefusal): never {
  throw new Refused(refusal);
}

function refuse(refusal: XmlRefusal, detail?: string): XmlParseResult {
  return { ok: false, refusal, ...(detail ? { detail } : {}) };
}

interface OpenElement {
  element: XmlElement;
  /** Raw text since the last child element, merged before escaping (escaping never splits a pair). */
  pending: string;
}

/** Builds the tree iteratively: depth is bounded by the limit, never by the call stack. */
class TreeBuilder {
  private readonly stack: OpenElement[] = [];
  private readonly maxDepth: number;
  private root: XmlElement | null = null;
  elementCount = 0;

  constructor(maxDepth: number) {
    this.maxDepth = maxDepth;
  }

  open(name: string, attributes: Record<string, string>): void {
    if (this.stack.length >= this.maxDepth) stop('too-deep');
    const element: XmlElement = {
      kind: 'element',
      name: escapeForDisplay(name),
      attributes: Object.entries(attributes).map(([key, value]) => ({
        name: escapeForDisplay(key),
        value: escapeInline(value),
      })),
      children: [],
    };
    const parent = this.stack.at(-1);
    if (parent) {
      flushText(parent);
      parent.element.children.push(element);
    } else {
      this.root = element;
    }
    this.elementCount += 1;
    this.stack.push({ element, pending: '' });
  }

  close(): void {
    const closing = this.stack.pop();
    if (closing) flushText(closing);
  }

  text(chunk: string): void {
    const current = this.stack.at(-1);
    if (current) current.pending += chunk;
    // Text outside the root: saxes refuses non-whitespace itself; whitespace cannot occur (trimmed).
    else if (chunk.trim() !== '') stop('text-outside-root');
  }

  finish(): XmlElement | null {
    return this.stack.length === 0 ? this.root : null;
  }
}

function flushText(open: OpenElement): void {
  const raw = open.pending;
  open.pending = '';
  if (raw.trim() === '') return;
  open.element.children.push({ kind: 'text', text: escapeForDisplay(raw) });
}

/** XML whitespace only (space, tab, CR, LF): other characters around the document are refused. */
function trimXmlWhitespace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isXmlSpace(text.charCodeAt(start))) start += 1;
  while (end > start && isXmlSpace(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(start, end);
}

function isXmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** Whether the UTF-8 encoding of `text` is over `max` bytes, without encoding it. */
function exceedsUtf8Bytes(text: string, max: number): boolean {
  if (text.length > max) return true;
  if (text.length * 3 <= max) return false;
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
    if (bytes > max) return true;
  }
  return false;
}
