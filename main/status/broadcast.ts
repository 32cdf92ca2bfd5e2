// Fan-out of values to any number of listeners: panel events (status events among them) to every
// window and socket. A listener that throws is logged and never stops the others.

export type Listener<T> = (value: T) => void;

export class Broadcast<T> {
  private readonly listeners = new Set<Listener<T>>();
  private readonly label: string;

  /** `label` names the listeners in the log line of a failure, e.g. "status". */
  constructor(label: string) {
    this.label = label;
  }

  subscribe(listener: Listener<T>): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  publish(value: T): void {
    for (const listener of this.listeners) {
      try {
        listener(value);
      } catch (error) {
        console.error(`${this.label} listener failed:`, error);
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
