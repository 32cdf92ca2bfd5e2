import type { Element, ElementContent, Root, RootContent } from 'hast';
import { revealPieces } from './safe-text.ts';

// The same marks as SafeText for Markdown: a rehype step that turns each invisible, reordering or
// control character in the text of the rendered tree (prose, code, link text) into a marked span.

type Parent = Root | Element;

function reveal(parent: Parent): void {
  const children: RootContent[] = [];
  for (const child of parent.children) {
    if (child.type === 'text') {
      for (const piece of revealPieces(child.value)) {
        children.push(
          'text' in piece
            ? { type: 'text', value: piece.text }
            : {
                type: 'element',
                tagName: 'span',
                properties: { className: ['char-mark'], title: piece.title, dataTestid: 'char-mark' },
                children: [{ type: 'text', value: piece.mark }],
              },
        );
      }
    } else {
      if (child.type === 'element') reveal(child);
      children.push(child);
    }
  }
  parent.children = children as ElementContent[];
}

export function rehypeReveal() {
  return (tree: Root) => reveal(tree);
}
