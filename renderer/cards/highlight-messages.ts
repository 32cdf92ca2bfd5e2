import type { HighlightedLines } from './highlight.ts';

// What the page and the highlighting worker say to each other.

export interface HighlightRequest {
  id: number;
  code: string;
  language: string;
  /** For a card not drawn yet: after the requests of drawn ones. */
  ahead?: boolean;
}

/** The card a request was made ahead for is drawn now; no reply. */
export interface HurryRequest {
  hurry: number;
}

/** Load the highlighter now, while the panel is idle, and these languages with it; no reply. */
export interface WarmRequest {
  warm: true;
  languages?: string[];
}

/** The card that asked has left the page: its request need not run; no reply. */
export interface CancelRequest {
  cancel: number;
}

export interface HighlightReply {
  id: number;
  lines: HighlightedLines | null;
}
