// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseXml, parseXmlDocument, type XmlElement } from './parse.ts';

const element = (name: string, attributes: Record<string, string>, children: XmlElement['children']): XmlElement => ({
  kind: 'element',
  name,
  attributes: Object.entries(attributes).map(([key, value]) => ({ name: key, value })),
  children,
});
const text = (value: string) => ({ kind: 'text' as const, text: value });

describe('parseXmlDocument: well-formed documents', () => {
  it('builds the tree of elements, attributes and text, dropping indentation between elements', () => {
    const document = parseXmlDocument(`
      <result status="ok">
        <file path="src/a.ts" lines="12">first</file>
        <file path="src/b.ts"/>
      </result>
    `);
    expect(document).toEqual({
      root: element('result', { status: 'ok' }, [
        element('file', { path: 'src/a.ts', lines: '12' }, [text('first')]),
        element('file', { path: 'src/b.ts' }, []),
      ]),
      elementCount: 3,
    });
  });

  it('expands predefined entities and character references, and merges CDATA with its text', () => {
    const document = parseXmlDocument(`<a q="&quot;x&quot; &amp; y">1 &lt; 2 <![CDATA[<raw> & ]]>done&#x21;</a>`);
    expect(document?.root).toEqual(element('a', { q: '"x" & y' }, [text('1 < 2 <raw> & done!')]));
  });

  it('keeps mixed content inside the root in order', () => {
    const document = parseXmlDocument(`<p>Hello <b>world</b>, again</p>`);
    expect(document?.root.children).toEqual([text('Hello '), element('b', {}, [text('world')]), text(', again')]);
  });

  it('keeps prefixed names as written, without resolving namespaces', () => {
    const document = parseXmlDocument(`<x:doc xmlns:x="urn:x" y:attr="1"><x:item/></x:doc>`);
    expect(document?.root).toEqual(
      element('x:doc', { 'xmlns:x': 'urn:x', 'y:attr': '1' }, [element('x:item', {}, [])]),
    );
  });

  it('accepts nesting up to the depth limit', () => {
    const depth = 256;
    const document = parseXmlDocument('<n>'.repeat(depth) + '</n>'.repeat(depth));
    expect(document?.elementCount).toBe(depth);
  });
});

describe('parseXmlDocument: fallbacks to raw text', () => {
  const cases: [string, string, string][] = [
    ['empty text', '  \n ', 'empty'],
    ['text before the root', 'Result: <a/>', 'text-outside-root'],
    ['text after the root', '<a/> trailing words', 'text-outside-root'],
    ['two roots', '<a/><b/>', 'text-outside-root'],
    ['an XML declaration', '<?xml version="1.0"?><a/>', 'declaration'],
    ['a processing instruction before the root', '<?style sheet?><a/>', 'processing-instruction'],
    ['a processing instruction inside the root', '<a><?style sheet?></a>', 'processing-instruction'],
    ['a DOCTYPE', '<!DOCTYPE a><a/>', 'doctype'],
    ['a comment before the root', '<!-- note --><a/>', 'comment'],
    ['a comment inside the root', '<a><!-- note --></a>', 'comment'],
    ['an undefined entity', '<a>&nbsp;</a>', 'undefined-entity'],
    ['an unclosed element', '<a><b></a>', 'malformed'],
    ['an unterminated document', '<a><b/>', 'malformed'],
    ['a duplicate attribute', '<a x="1" x="2"/>', 'malformed'],
    ['an unquoted attribute', '<a x=1/>', 'malformed'],
    ['a literal control character', '<a>\u0001</a>', 'malformed'],
    ['a byte order mark before the root', '\ufeff<a/>', 'text-outside-root'],
    ['HTML-like markup', '<br>', 'malformed'],
  ];

  for (const [what, source, refusal] of cases) {
    it(`refuses ${what}`, () => {
      expect(parseXml(source)).toMatchObject({ ok: false, refusal });
      expect(parseXmlDocument(source)).toBeNull();
    });
  }
});

describe('parseXmlDocument: hostile documents', () => {
  const laughs = [
    '<?xml version="1.0"?>',
    '<!DOCTYPE lolz [',
    ' <!ENTITY lol "lol">',
    ...Array.from({ length: 9 }, (_, level) => ` <!ENTITY lol${level + 1} "${`&lol${level || ''};`.repeat(10)}">`),
    ']>',
    '<lolz>&lol9;</lolz>',
  ].join('\n');

  it('refuses billion laughs at the declaration, before any entity is declared', () => {
    expect(parseXml(laughs)).toEqual({ ok: false, refusal: 'declaration' });
  });

  it('refuses billion laughs without a declaration at the DOCTYPE', () => {
    expect(parseXml(laughs.replace('<?xml version="1.0"?>\n', ''))).toEqual({ ok: false, refusal: 'doctype' });
  });

  it('refuses a DOCTYPE from its first characters, reading nothing of its body', () => {
    // A parser that read the internal subset would fail on the control character first.
    expect(parseXml('<!DOCTYPE x [\u0001<!ENTITY e "e">]><x>&e;</x>')).toEqual({ ok: false, refusal: 'doctype' });
  });

  it('refuses external entities: the DOCTYPE that would declare them is refused', () => {
    expect(parseXml('<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><foo>&xxe;</foo>')).toEqual({
      ok: false,
      refusal: 'doctype',
    });
  });

  it('never expands an entity that was not declared', () => {
    expect(parseXml('<foo>&xxe;&lol9;</foo>')).toMatchObject({ ok: false, refusal: 'undefined-entity' });
  });

  it('refuses 100 000-deep nesting at the depth limit', () => {
    const deep = '<a>'.repeat(100_000) + '</a>'.repeat(100_000);
    expect(parseXml(deep)).toEqual({ ok: false, refusal: 'too-deep' });
  });

  it('refuses one level past the depth limit', () => {
    expect(parseXml('<n>'.repeat(257) + '</n>'.repeat(257))).toEqual({ ok: false, refusal: 'too-deep' });
  });

  it('refuses a document over 5 MiB', () => {
    const big = `<a>${'x'.repeat(5 * 1024 * 1024)}</a>`;
    expect(parseXml(big)).toEqual({ ok: false, refusal: 'too-large' });
  });

  it('counts the size in UTF-8 bytes', () => {
    const chars = Math.floor((5 * 1024 * 1024) / 3) + 10;
    expect(parseXml(`<a>${'€'.repeat(chars)}</a>`)).toEqual({ ok: false, refusal: 'too-large' });
    expect(parseXml(`<a>${'x'.repeat(chars)}</a>`).ok).toBe(true);
  });
});

describe('parseXmlDocument: display escaping after parsing', () => {
  it('re-escapes a control character that a character reference produced in text', () => {
    const document = parseXmlDocument('<out>&#x1b;[2J&#x1b;]0;title&#x7;</out>');
    expect(document?.root.children).toEqual([text('&#x1b;[2J&#x1b;]0;title&#x7;')]);
  });

  it('re-escapes bidi overrides and isolates that character references produced', () => {
    const document = parseXmlDocument('<file name="invoice&#x202e;fdp.exe">&#x2067;admin&#x2069; &#x202d;x</file>');
    expect(document?.root).toEqual(
      element('file', { name: 'invoice&#x202e;fdp.exe' }, [text('&#x2067;admin&#x2069; &#x202d;x')]),
    );
  });

  it('re-escapes literal bidi characters too', () => {
    const document = parseXmlDocument('<a b="\u202e">\u2066x</a>');
    expect(document?.root).toEqual(element('a', { b: '&#x202e;' }, [text('&#x2066;x')]));
  });

  it('keeps an attribute value on one line', () => {
    const document = parseXmlDocument('<a b="one&#10;two&#9;three"/>');
    expect(document?.root.attributes).toEqual([{ name: 'b', value: 'one&#xa;two&#x9;three' }]);
  });
});
