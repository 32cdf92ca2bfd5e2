import type { ToolContent } from '../../protocol/api.ts';
import type { ToolImage } from './tool.ts';

// The complete model-facing content of every call, retrievable by call id: the card's
// "show what the model received" reads from here. The session log implements it durably.

export interface ToolContentStore {
  /** `images`: the bytes of the images `record.images` names, to keep with it. */
  put(record: ToolContent & { parent_call_id?: string }, images?: readonly ToolImage[]): void | Promise<void>;
  get(callId: string): ToolContent | undefined;
}

export class MemoryContentStore implements ToolContentStore {
  private readonly records = new Map<string, ToolContent>();

  put(record: ToolContent): void {
    this.records.set(record.call_id, record);
  }

  get(callId: string): ToolContent | undefined {
    return this.records.get(callId);
  }
}
