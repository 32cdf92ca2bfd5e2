import { memo, type ComponentProps, type SyntheticEvent } from 'react';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { useActions } from '../actions.ts';
import { FileLink } from '../files/FileLink.tsx';
import { rehypeFileLinks } from '../files/rehype-file-links.ts';
import { rehypeReveal } from '../text/rehype-reveal.ts';
import { revealText } from '../text/safe-text.ts';
import { CodeBlock } from './CodeBlock.tsx';

// Assistant text as Markdown (GFM). Raw HTML in the text is shown as the characters it is, never
// parsed; invisible and bidi characters are shown as marks; links open through the panel (only
// https:, after the app or the page asks); images stay links, so a message cannot make the panel
// fetch anything. Paths of workspace files are links that open the file (FileLink).

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/** Turns every raw-HTML node into plain text, so it is displayed instead of dropped or parsed. */
export function remarkHtmlAsText() {
  const walk = (node: MdNode): void => {
    if (node.type === 'html') node.type = 'text';
    node.children?.forEach(walk);
  };
  return (tree: MdNode) => walk(tree);
}

/**
 * A link written by the model. It has no `href`, so the browser offers no way of its own to open it
 * (middle click, Ctrl/Cmd/Shift+click, "Open in new tab", dragging it to the tab bar): click,
 * middle click and Enter all go to openLink, which opens only https: links, after the person confirms.
 */
function Link({ href, children }: ComponentProps<'a'>) {
  const actions = useActions();
  const url = typeof href === 'string' ? href : '';
  const open = (event: SyntheticEvent) => {
    event.preventDefault();
    if (url !== '') void actions.openLink(url);
  };
  return (
    <a
      role="link"
      tabIndex={0}
      className="md-link"
      title={revealText(url)}
      onClick={open}
      onAuxClick={(event) => {
        if (event.button === 1) open(event);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') open(event);
      }}
    >
      {children}
    </a>
  );
}

/** A path the answer names (rehype-file-links.ts): a link to the file once it is known to exist. */
function Span({ children, node: _node, ...props }: ComponentProps<'span'> & ExtraProps) {
  const data = props as { 'data-path'?: string; 'data-line'?: string };
  const path = data['data-path'];
  if (path === undefined) return <span {...props}>{children}</span>;
  const line = data['data-line'] === undefined ? undefined : Number(data['data-line']);
  return (
    <FileLink path={path} line={line}>
      {children}
    </FileLink>
  );
}

const components: Components = {
  a: Link,
  span: Span,
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  img: ({ src, alt }) => (
    <span className="md-image">
      [image: {alt || 'untitled'}
      {typeof src === 'string' ? ` — ${src}` : ''}]
    </span>
  ),
};

const plugins = [remarkGfm, remarkHtmlAsText];
const rehypePlugins = [rehypeFileLinks, rehypeReveal];

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={plugins} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
