import type { ComponentType } from 'react';
import type { ToolCallView } from '../store/transcript-types.ts';

// What a card view is: the body for one echo kind, and when a finished call has nothing to show.
// The frame (ToolCard) owns the header (its subtitle is the call's own description), the
// approvals, the `✓ ok` rule and the full content.

export interface CardBodyProps {
  call: ToolCallView;
}

export interface CardView {
  /** Names the view in the DOM (`data-view`), for styles and tests. */
  name: string;
  Body: ComponentType<CardBodyProps>;
  /** A successful call for which this returns true is shown as the minimal `✓ ok`. */
  isEmpty(call: ToolCallView): boolean;
  /** A running call shows a Stop button, which cancels that call alone (Esc stops the turn). */
  stoppable?: boolean;
  /** The line the subtitle's file link opens the file at (a read's first line); absent: its start. */
  fileLine?(call: ToolCallView): number | undefined;
  /** Words after the subtitle that tell this call from another with the same one (a read's lines). */
  subtitleNote?(call: ToolCallView): string | undefined;
  /**
   * The tool's own name says nothing its subtitle does not (an MCP tool's `mcp__server__tool` beside
   * `server › tool`): the header shows the subtitle alone, as its title.
   */
  titledBySubtitle?: boolean;
  /**
   * The code the body colours when drawn, with its language: a group highlights it ahead, while
   * the card is not drawn yet, so the card shows its colours from its first frame.
   */
  codeToColour?(call: ToolCallView): { code: string; language: string } | null;
}
