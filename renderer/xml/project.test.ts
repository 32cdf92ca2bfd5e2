// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseXmlDocument, type XmlDocument } from './parse.ts';
import { projectXml, textLines, xmlLineText, type ProjectionOptions } from './project.ts';

function parsed(source: string): XmlDocument {
  const document = parseXmlDocument(source);
  if (!document) throw new Error(`not XML: ${source}`);
  return document;
}

function shown(source: string, options: ProjectionOptions): string[] {
  return projectXml(parsed(source), options).lines.map(xmlLineText);
}

const RESULT = `
<results query="todo">
  <match path="src/a.ts" line="3">// TODO one</match>
  <match path="src/b.ts" line="9">
    first line
      indented line
    last line
    more
    and more
  </match>
  <summary><files>2</files><matches>2</matches></summary>
</results>`;

describe('projectXml expanded', () => {
  it('shows every line: element names with attributes, one-line text inline, blocks of text indented below', () => {
    expect(shown(RESULT, { collapsed: false })).toEqual([
      'results query="todo"',
      '  match path="src/a.ts" line="3": // TODO one',
      '  match path="src/b.ts" line="9"',
      '    first line',
      '      indented line',
      '    last line',
      '    more',
      '    and more',
      '  summary',
      '    files: 2',
      '    matches: 2',
    ]);
  });

  it('hides nothing and counts the top-level children', () => {
    expect(projectXml(parsed(RESULT), { collapsed: false })).toMatchObject({
      totalLines: 11,
      hiddenLines: 0,
      topLevelChildren: 3,
    });
  });

  it('gives element lines their structure for styled rendering', () => {
    const [root, first] = projectXml(parsed(RESULT), { collapsed: false }).lines;
    expect(root).toEqual({
      kind: 'element',
      depth: 0,
      name: 'results',
      attributes: [{ name: 'query', value: 'todo' }],
      childCount: 3,
    });
    expect(first).toEqual({
      kind: 'element',
      depth: 1,
      name: 'match',
      attributes: [
        { name: 'path', value: 'src/a.ts' },
        { name: 'line', value: '3' },
      ],
      childCount: 1,
      text: '// TODO one',
    });
  });
});

describe('projectXml collapsed', () => {
  it('keeps the first lines of every top-level child and counts what each one hides', () => {
    expect(shown(RESULT, { collapsed: true, linesPerChild: 2 })).toEqual([
      'results query="todo"',
      '  match path="src/a.ts" line="3": // TODO one',
      '  match path="src/b.ts" line="9"',
      '    first line',
      '    … 4 more lines',
      '  summary',
      '    files: 2',
      '    … 1 more line',
    ]);
  });

  it('reports the lines it hides and the child count', () => {
    expect(projectXml(parsed(RESULT), { collapsed: true, linesPerChild: 2 })).toMatchObject({
      totalLines: 11,
      hiddenLines: 5,
      topLevelChildren: 3,
    });
  });

  it('keeps context for every child even when one child is huge', () => {
    const huge = Array.from({ length: 5000 }, (_, index) => `<row n="${index}"/>`).join('');
    const lines = shown(`<out><big>${huge}</big><small>tail</small></out>`, { collapsed: true });
    expect(lines).toEqual(['out', '  big', '    row n="0"', '    row n="1"', '    … 4998 more lines', '  small: tail']);
  });

  it('is the expanded view when every child fits its budget', () => {
    const source = '<a><b>1</b><c x="y"/></a>';
    expect(shown(source, { collapsed: true })).toEqual(shown(source, { collapsed: false }));
  });

  it('shows a root that holds one line of text on one line', () => {
    expect(projectXml(parsed('<message level="info">build passed</message>'), { collapsed: true })).toMatchObject({
      lines: [{ kind: 'element', depth: 0, name: 'message', text: 'build passed' }],
      totalLines: 1,
      hiddenLines: 0,
    });
  });
});

describe('line text', () => {
  it('quotes attribute values and escapes their quotes', () => {
    expect(shown(`<a title='say "hi"'/>`, { collapsed: false })).toEqual(['a title="say &quot;hi&quot;"']);
  });

  it('shows re-escaped characters as references, never the characters themselves', () => {
    const lines = shown('<log>&#x1b;[31mred&#x1b;[0m&#x202e;</log>', { collapsed: false });
    expect(lines).toEqual(['log: &#x1b;[31mred&#x1b;[0m&#x202e;']);
  });

  it('removes the indentation common to a block of text and its blank edges', () => {
    expect(textLines('\n    a\n      b\n\n    c   \n  ')).toEqual(['a', '  b', '', 'c']);
  });
});
