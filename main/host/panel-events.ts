import type { PanelEventName, PanelEvents } from '../../protocol/api.ts';

// The panel's events as one tagged message, the same shape the web socket sends:
// `{ event: 'status', payload }` or `{ event: 'session:changed', payload }`.

export type PanelEventMessage = { [E in PanelEventName]: { event: E; payload: PanelEvents[E] } }[PanelEventName];
export type PanelEventListener = (message: PanelEventMessage) => void;

export interface PanelEventSource {
  subscribe(listener: PanelEventListener): () => void;
}

/** Fan-out to every window or socket. A failing listener never stops the others. */
export class PanelEventHub implements PanelEventSource {
  private readonly listeners = new Set<PanelEventListener>();

  subscribe(listener: PanelEventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  publish(message: PanelEventMessage): void {
    for (const listener of this.listeners) {
      try {
        listener(message);
      } catch (error) {
        console.error('panel event listener failed:', error);
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
