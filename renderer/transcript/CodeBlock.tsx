import { isValidElement, useState, type CSSProperties, type ReactNode } from 'react';
import { copyText } from '../clipboard.ts';
import { languageForFence } from '../cards/highlight.ts';
import { useHighlight } from '../cards/use-highlight.ts';
import { useScrollFocus } from '../cards/use-scroll-focus.ts';
import { SafeText } from '../text/SafeText.tsx';

// A fenced code block in an answer: a header with its language and a Copy button, the code as plain
// text at once and in colour once the highlighter has it.

interface CodeChild {
  className?: string;
  children?: ReactNode;
}

/** The fence's tag and text from the `<code>` react-markdown puts inside `<pre>`. */
export function fenceOf(children: ReactNode): { tag: string; code: string } {
  const child = Array.isArray(children) ? children[0] : children;
  if (!isValidElement<CodeChild>(child)) return { tag: '', code: String(children ?? '') };
  const tag = /(?:^|\s)language-(\S+)/.exec(child.props.className ?? '')?.[1] ?? '';
  const text = child.props.children;
  const code = Array.isArray(text) ? text.join('') : String(text ?? '');
  return { tag, code: code.endsWith('\n') ? code.slice(0, -1) : code };
}

function CopyButton({ code }: { code: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const onClick = () => {
    void copyText(code).then((ok) => {
      setCopied(ok);
      setTimeout(() => setCopied(null), 1500);
    });
  };
  return (
    <button
      type="button"
      className="icon-button code-copy"
      data-testid="code-copy"
      title="Copy the code"
      onClick={onClick}
    >
      {copied === null ? 'Copy' : copied ? 'Copied' : 'Copy failed'}
    </button>
  );
}

export function CodeBlock({ children }: { children?: ReactNode }) {
  const { tag, code } = fenceOf(children);
  const language = tag === '' ? null : languageForFence(tag);
  const tokens = useHighlight(code, language);
  const lines = code.split('\n');
  const scroll = useScrollFocus(code);
  return (
    <figure className="md-code" data-testid="md-code" data-language={language ?? ''}>
      <figcaption className="md-code-header">
        <span className="md-code-language" data-testid="md-code-language">
          {tag === '' ? 'text' : <SafeText text={tag} />}
        </span>
        <CopyButton code={code} />
      </figcaption>
      <pre
        ref={scroll.ref}
        data-highlighted={tokens ? 'true' : 'false'}
        tabIndex={scroll.tabIndex}
        {...(scroll.tabIndex === undefined ? {} : { role: 'region', 'aria-label': `Code${tag ? `, ${tag}` : ''}` })}
      >
        <code>
          {lines.map((line, index) => (
            <span className="md-code-line" key={index}>
              {tokens?.[index] ? (
                tokens[index].map((token, i) => (
                  <span key={i} style={token.htmlStyle as CSSProperties | undefined}>
                    <SafeText text={token.content} />
                  </span>
                ))
              ) : (
                <SafeText text={line} />
              )}
              {index < lines.length - 1 ? '\n' : null}
            </span>
          ))}
        </code>
      </pre>
    </figure>
  );
}
