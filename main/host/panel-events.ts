import type { PanelEventName, PanelEvents } from '../../protocol/api.ts';
import { Broadcast, type Listener } from '../status/broadcast.ts';

// The panel's events as one tagged message, the same shape the web socket sends:
// `{ event: 'status', payload }` or `{ event: 'session:changed', payload }`.

export type PanelEventMessage = { [E in PanelEventName]: { event: E; payload: PanelEvents[E] } }[PanelEventName];
export type PanelEventListener = Listener<PanelEventMessage>;

export interface PanelEventSource {
  subscribe(listener: PanelEventListener): () => void;
}

/** Fan-out to every window or socket. A failing listener never stops the others. */
export class PanelEventHub extends Broadcast<PanelEventMessage> implements PanelEventSource {
  constructor() {
    super('panel event');
  }
}
