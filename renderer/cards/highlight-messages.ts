import type { HighlightedLines } from './highlight.ts';

// What the page and the highlighting worker say to each other.

export interface HighlightRequest {
  id: number;
  code: string;
  language: string;
}

/** Load the highlighter now, while the panel is idle; no reply. */
export interface WarmRequest {
  warm: true;
}

export interface HighlightReply {
  id: number;
  lines: HighlightedLines | null;
}
