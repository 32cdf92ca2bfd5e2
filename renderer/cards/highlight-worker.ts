import { highlight, prepareHighlighter } from './highlight.ts';
import type { HighlightReply, HighlightRequest, WarmRequest } from './highlight-messages.ts';

// Shiki off the page's thread: a long file's tokens are worked out here while the card shows plain
// text, so scrolling and typing never wait for the highlighter. Only each token's text and colours
// come back, which keeps the copy into the page small.

// The page's own types describe `self`; in a dedicated worker it posts to the page that started it.
self.addEventListener('message', (event: MessageEvent<HighlightRequest | WarmRequest>) => {
  if ('warm' in event.data) {
    void prepareHighlighter();
    return;
  }
  const { id, code, language } = event.data;
  void highlight(code, language).then((lines) => {
    const reply: HighlightReply = {
      id,
      lines: lines
        ? lines.map((line) => line.map(({ content, htmlStyle }) => (htmlStyle ? { content, htmlStyle } : { content })))
        : null,
    };
    self.postMessage(reply);
  });
});
