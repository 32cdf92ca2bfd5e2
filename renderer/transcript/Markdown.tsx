import { memo, type ComponentProps } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { useActions } from '../actions.ts';

// Assistant text as Markdown (GFM). Raw HTML in the text is shown as the characters it is, never
// parsed; links open through the panel (only https:, after the app or the page asks); images stay
// links, so a message cannot make the panel fetch anything.

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

function Link({ href, children }: ComponentProps<'a'>) {
  const actions = useActions();
  const external = typeof href === 'string' && href.startsWith('https://');
  return (
    <a
      href={href}
      title={href}
      rel="noreferrer noopener"
      onClick={(event) => {
        event.preventDefault();
        if (external) void actions.openLink(href);
      }}
    >
      {children}
    </a>
  );
}

const components: Components = {
  a: Link,
  img: ({ src, alt }) => (
    <span className="md-image">
      [image: {alt || 'untitled'}
      {typeof src === 'string' ? ` — ${src}` : ''}]
    </span>
  ),
};

const plugins = [remarkGfm, remarkHtmlAsText];

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={plugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
