import { useState } from 'react';
import type { XmlDocument } from '../xml/parse.ts';
import { projectXml, quotedValue, type XmlLine } from '../xml/project.ts';

// A generic result that is one well-formed XML document, as an indented tree of elements and
// attributes (the readable-XML contract). Collapsed, each top-level child keeps its first lines;
// the raw text stays one click away. Names, values and text are display-escaped by the parser.

function Line({ line }: { line: XmlLine }) {
  const indent = { paddingLeft: `${line.depth * 2}ch` };
  switch (line.kind) {
    case 'text':
      return (
        <div className="xml-line xml-text" style={indent}>
          {line.text}
        </div>
      );
    case 'more':
      return (
        <div className="xml-line xml-more" style={indent}>
          … {line.hiddenLines} more {line.hiddenLines === 1 ? 'line' : 'lines'}
        </div>
      );
    case 'element':
      return (
        <div className="xml-line" style={indent}>
          <span className="xml-name">{line.name}</span>
          {line.attributes.map((attribute, index) => (
            <span key={index} className="xml-attribute">
              {' '}
              <span className="xml-attribute-name">{attribute.name}</span>=
              <span className="xml-attribute-value">{quotedValue(attribute.value)}</span>
            </span>
          ))}
          {line.text !== undefined ? <span className="xml-inline-text">: {line.text}</span> : null}
        </div>
      );
  }
}

export function XmlTree({ document, raw }: { document: XmlDocument; raw: string }) {
  const [collapsed, setCollapsed] = useState(true);
  const [showRaw, setShowRaw] = useState(false);
  const projection = projectXml(document, { collapsed });
  const collapsible = collapsed
    ? projection.hiddenLines > 0
    : projectXml(document, { collapsed: true }).hiddenLines > 0;
  return (
    <div className="xml">
      {showRaw ? (
        <pre className="generic-content" data-testid="generic-content">
          {raw}
        </pre>
      ) : (
        <div className="code xml-tree" role="region" aria-label="XML document" data-testid="xml-tree">
          {projection.lines.map((line, index) => (
            <Line key={index} line={line} />
          ))}
        </div>
      )}
      <div className="xml-buttons">
        {collapsible && !showRaw ? (
          <button
            type="button"
            className="link-button"
            aria-expanded={!collapsed}
            data-testid="xml-toggle"
            onClick={() => setCollapsed(!collapsed)}
          >
            {collapsed ? `Expand (${projection.hiddenLines} more lines)` : 'Collapse'}
          </button>
        ) : null}
        <button
          type="button"
          className="link-button"
          aria-pressed={showRaw}
          data-testid="xml-raw"
          onClick={() => setShowRaw(!showRaw)}
        >
          {showRaw ? 'Show as tree' : 'Show raw text'}
        </button>
      </div>
    </div>
  );
}
