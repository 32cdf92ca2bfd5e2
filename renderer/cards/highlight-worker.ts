import { highlight, loadLanguage, prepareHighlighter } from './highlight.ts';
import type {
  CancelRequest,
  HighlightReply,
  HighlightRequest,
  HurryRequest,
  WarmRequest,
} from './highlight-messages.ts';
import { createHighlightQueue } from './highlight-queue.ts';

// Shiki off the page's thread: a long file's tokens are worked out here while the card shows plain
// text, so scrolling and typing never wait for the highlighter. Only each token's text and colours
// come back, which keeps the copy into the page small. Requests run one at a time, in the order
// asked; one whose card left the page before its turn is cancelled and never runs.

const queue = createHighlightQueue<Omit<HighlightRequest, 'id'>>(
  async (id, { code, language }) => {
    const lines = await highlight(code, language);
    const reply: HighlightReply = {
      id,
      lines: lines
        ? lines.map((line) => line.map(({ content, htmlStyle }) => (htmlStyle ? { content, htmlStyle } : { content })))
        : null,
    };
    self.postMessage(reply);
  },
  undefined,
  // A request waits for its grammar on the list, where a cancel still reaches it.
  async ({ language }) => {
    await loadLanguage(language);
  },
);

// The page's own types describe `self`; in a dedicated worker it posts to the page that started it.
self.addEventListener(
  'message',
  (event: MessageEvent<HighlightRequest | WarmRequest | CancelRequest | HurryRequest>) => {
    const message = event.data;
    if ('warm' in message) void prepareHighlighter(message.languages);
    else if ('cancel' in message) queue.cancel(message.cancel);
    else if ('hurry' in message) queue.hurry(message.hurry);
    else queue.add(message.id, { code: message.code, language: message.language }, message.ahead === true);
  },
);
