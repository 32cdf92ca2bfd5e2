import { memo, type ComponentProps, type SyntheticEvent } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { useActions } from '../actions.ts';
import { rehypeReveal } from '../text/rehype-reveal.ts';
import { revealText } from '../text/safe-text.ts';
import { CodeBlock } from './CodeBlock.tsx';

// Assistant text as Markdown (GFM). Raw HTML in the text is shown as the characters it is, never
// parsed; invisible and bidi characters are shown as marks; links open through the panel (only
// https:, after the app or the page asks); images stay links, so a message cannot make the panel
// fetch anything.

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

const components: Components = {
  a: Link,
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  img: ({ src, alt }) => (
    <span className="md-image">
      [image: {alt || 'untitled'}
      {typeof src === 'string' ? ` — ${src}` : ''}]
    </span>
  ),
};

const plugins = [remarkGfm, remarkHtmlAsText];
const rehypePlugins = [rehypeReveal];

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={plugins} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
