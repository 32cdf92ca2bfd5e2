import type { ToolCheckpoint } from '../../../protocol/events.ts';
import type { ToolKind } from '../tool.ts';
import { CheckpointStore, DEFAULT_CHECKPOINT_SETTINGS, type CheckpointSettings } from './checkpoint-store.ts';

// The registry's pre-execution checkpoint: before a call that may change the workspace, the
// workspace is recorded, and the call runs only once that checkpoint is safely stored. Reads and
// remote commands (ssh_exec changes another machine) take none; commands, writes, Code Mode and
// tools of unknown effect (MCP tools not marked read-only are `exec`) do. Nested calls of a
// `run_code` call are covered by the checkpoint of their outer call, which is their card.

/** Kinds whose calls may change the workspace. */
export const CHANGING_KINDS: ReadonlySet<ToolKind> = new Set<ToolKind>(['write', 'exec', 'code']);

export interface CallCheckpoints {
  /**
   * Records the workspace before the call; null when none is needed (a read), `{ id: '', off: true }`
   * when checkpoints are off. Throws when one fails.
   */
  before(call: CheckpointedCall): Promise<ToolCheckpoint | null>;
  /**
   * Records the workspace once the call whose checkpoint `before` returned has ended, so a later
   * rewind can tell the call's changes from the person's. Never throws: without this record the
   * call's changes are only shown as the person's in a rewind's conflict check.
   */
  after?(call: { callId: string; name: string; checkpoint: ToolCheckpoint }): Promise<void>;
}

export interface CheckpointedCall {
  callId: string;
  name: string;
  kind: ToolKind;
  /**
   * The real paths of all the call may change, when the gate knows them (write_file, patch_file):
   * while the workspace's first whole record is not finished, those files alone are recorded
   * before it runs, and it does not wait for a scan of every file.
   */
  touches?: readonly string[];
}

export interface SessionCheckpointOptions {
  /** The session's checkpoint folder (inside its session folder, so it goes with the session). */
  folder: string;
  workspace: string;
  /** Read at each call, so a settings change applies to the next one. */
  settings?: () => CheckpointSettings & { enabled: boolean };
  /**
   * A session nested in a call of another (an agent's child): its calls are recorded in that
   * session's store, known as `<that call's id>/<own call id>`, so rewinding the outer session and
   * its Changes card cover what the nested one changed. The outer session owns the store.
   */
  within?: { checkpoints: SessionCheckpoints; callId: string };
}

/** A session's checkpoints, its store opened at the first call that needs one. */
export class SessionCheckpoints implements CallCheckpoints {
  private readonly options: SessionCheckpointOptions;
  private opened: Promise<CheckpointStore> | undefined;

  constructor(options: SessionCheckpointOptions) {
    this.options = options;
  }

  /** The store, every record in it finished (what a rewind and the Changes card read). */
  async store(): Promise<CheckpointStore> {
    const store = await this.opening();
    await store.settled();
    return store;
  }

  /** The store as it is, records of known changes perhaps still waiting for their whole record. */
  private opening(): Promise<CheckpointStore> {
    if (this.options.within) return this.options.within.checkpoints.opening();
    const settings = this.settings();
    this.opened ??= CheckpointStore.open(this.options.folder, this.options.workspace, settings).catch(
      (error: NodeJS.ErrnoException) => {
        throw new Error(
          `The checkpoint store at ${this.options.folder} could not be opened (${error.code ?? error.message}). ` +
            'Check that this folder can be written, or turn checkpoints off in Settings.',
        );
      },
    );
    // A failed open is not kept: the next call tries again (the disk may have been freed).
    this.opened.catch(() => (this.opened = undefined));
    return this.opened;
  }

  /** Once every record is finished, stops the store's watch of the workspace (the session is closing). */
  async close(): Promise<void> {
    if (this.options.within) return;
    const store = await this.opened?.catch(() => null);
    if (!store) return;
    await store.settled();
    store.close();
  }

  async before(call: CheckpointedCall, nested = false): Promise<ToolCheckpoint | null> {
    const { within } = this.options;
    if (within) return within.checkpoints.before({ ...call, callId: `${within.callId}/${call.callId}` }, true);
    const settings = this.settings();
    if (!CHANGING_KINDS.has(call.kind)) return null;
    // Off: the call runs, and its completion says it has no checkpoint (its card cannot rewind the code).
    if (!settings.enabled) return { id: '', off: true };
    const store = await this.opening();
    store.settings = { maxStorageBytes: settings.maxStorageBytes, maxFileBytes: settings.maxFileBytes };
    const label = `before ${call.name}`;
    const checkpoint =
      (call.touches && (await store.recordTouching(label, call.callId, call.touches))) ??
      (await store.record(label, call.callId)).checkpoint;
    const restorable = checkpoint.not_restorable.length > 0 ? { not_restorable: checkpoint.not_restorable } : {};
    // The notices are the outer session's to show, on its own next card.
    if (nested) return { id: checkpoint.id, ...restorable };
    // Pruned by this record, or by one since the last card (after a call, a rewind's): this card tells.
    const pruned = store.takePruned();
    const pruneNotice = pruned.length === 0 ? null : store.prunedNotice(pruned);
    // A rewind a crash interrupted was finished when the store opened: the first card says so.
    const notice = [store.recoveryNotice, pruneNotice].filter((text) => text != null).join(' ') || undefined;
    const prunedCalls = pruned.flatMap((entry) => (entry.closes === undefined && entry.call_id ? [entry.call_id] : []));
    store.recoveryNotice = null;
    return {
      id: checkpoint.id,
      ...restorable,
      ...(notice === undefined ? {} : { notice }),
      ...(pruned.length === 0 ? {} : { pruned: pruned.map((entry) => entry.id), pruned_calls: prunedCalls }),
    };
  }

  async after(call: { callId: string; name: string; checkpoint: ToolCheckpoint }): Promise<void> {
    if (call.checkpoint.off) return;
    try {
      const store = await this.opening();
      await store.recordAfterCall(call.checkpoint.id, `after ${call.name}`);
    } catch {
      // The conflict check then counts this call's changes as someone else's: it asks more, loses nothing.
    }
  }

  private settings(): CheckpointSettings & { enabled: boolean } {
    return this.options.settings?.() ?? { ...DEFAULT_CHECKPOINT_SETTINGS, enabled: true };
  }
}
