import type { ComponentType } from 'react';
import type { ToolCallView } from '../store/transcript-types.ts';

// What a card view is: the header's subtitle, the body, and when a finished call has nothing to
// show. The frame (ToolCard) owns the header, the approvals, the `✓ ok` rule and the full content.

export interface CardBodyProps {
  call: ToolCallView;
}

export interface CardView {
  /** Names the view in the DOM (`data-view`), for styles and tests. */
  kind: string;
  subtitle(call: ToolCallView): string;
  Body: ComponentType<CardBodyProps>;
  /** A successful call for which this returns true is shown as the minimal `✓ ok`. */
  isEmpty(call: ToolCallView): boolean;
  /** A running call shows a Stop button, which cancels that call alone (Esc stops the turn). */
  stoppable?: boolean;
}
