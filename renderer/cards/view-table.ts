import type { ToolCallView } from '../store/transcript-types.ts';
import type { CardView } from './view.ts';

// The table of card views by echo kind (protocol/echo.ts). registry.ts fills it with the built-in
// views; a view that shows other calls' echoes (Code Mode's trace) looks kinds up here too.

const VIEWS = new Map<string, CardView>();
let fallback: CardView | null = null;

/** Registers the view of an echo kind (a new tool's card); the returned function takes it back. */
export function registerCardView(kind: string, view: CardView): () => void {
  if (VIEWS.has(kind)) throw new Error(`A card view for echo kind "${kind}" is already registered.`);
  VIEWS.set(kind, view);
  return () => {
    if (VIEWS.get(kind) === view) VIEWS.delete(kind);
  };
}

/** The view for a kind without one of its own: the generic card. */
export function setFallbackView(view: CardView): void {
  fallback = view;
}

/** The echo kind that picks a call's card: declared when it started, else its echo's, else `text`. */
export function cardKindOf(call: Pick<ToolCallView, 'echo_kind' | 'echo'>): string {
  return call.echo_kind ?? call.echo?.kind ?? 'text';
}

export function cardViewFor(call: Pick<ToolCallView, 'echo_kind' | 'echo'>): CardView {
  const view = VIEWS.get(cardKindOf(call)) ?? fallback;
  if (!view) throw new Error('No card views are registered: import renderer/cards/registry.ts first.');
  return view;
}

/** The done-card rule: a successful, finished call whose view has nothing to show. */
export function showsDone(call: ToolCallView, view: CardView = cardViewFor(call)): boolean {
  return call.state === 'done' && !call.is_error && view.isEmpty(call);
}
