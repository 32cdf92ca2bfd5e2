import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { ToolContent } from '../../protocol/api.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import type { ReasoningBlock } from '../model/types.ts';
import { isLiveOnly, type EmitOptions } from '../status/sink.ts';
import type { ToolContentStore } from '../tools/content-store.ts';
import type { ToolImage } from '../tools/tool.ts';
import { AppendWriter, type WriteDamage } from './append-writer.ts';
import { readSessionFile, type ReadOptions, type SessionReplay } from './replay.ts';
import { writeSessionImage } from './session-images.ts';
import { SessionLock } from './session-lock.ts';
import {
  SESSION_FORMAT_VERSION,
  serializeRecord,
  type HeaderRecord,
  type SessionRecord,
  type ToolContentRecord,
} from './records.ts';

// One session on disk: `<root>/<id>.jsonl`, append-only, every line fsynced before the caller
// hears back (a nested Code Mode call's lines: with its program's result), and `<root>/<id>/` for the session's own files (spilled tool output). Only one
// process writes a session at a time: it holds `<root>/<id>.lock` from open to close, and another
// process that tries gets SessionLockedError naming the holder (and may still read the file).
// It is also the registry's ToolContentStore: `get(callId)` answers from memory, and the records
// it wrote let a reopened session answer the same after a restart.

const ID_PATTERN = /^[A-Za-z0-9][\w.-]*$/;

export function isSessionId(id: string): boolean {
  return ID_PATTERN.test(id) && !id.endsWith('.jsonl');
}

export function sessionFileOf(root: string, id: string): string {
  return path.join(root, `${id}.jsonl`);
}

export function sessionDirOf(root: string, id: string): string {
  return path.join(root, id);
}

/** Held by the one process that writes the session (see session-lock.ts). */
export function sessionLockOf(root: string, id: string): string {
  return path.join(root, `${id}.lock`);
}

/** Sorts by creation time: `20250102-030405-a1b2c3`. */
export function newSessionId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

export function assertSessionId(id: string): void {
  if (!isSessionId(id))
    throw new Error(
      `"${id}" is not a session id. Session ids look like 20250102-030405-a1b2c3; list them with \`aether sessions\`.`,
    );
}

export interface CreateSessionOptions {
  root: string;
  /** The workspace root, real path. */
  workspace: string;
  model: string;
  id?: string;
  now?: () => Date;
  /** A child session an `agent` call started: its parent session and that call. */
  agentOf?: HeaderRecord['agent_of'];
  /** The agent the session runs as. */
  asAgent?: string;
}

export class SessionLog implements ToolContentStore {
  readonly header: HeaderRecord;
  readonly file: string;
  /** The session's own folder: spilled output goes here. */
  readonly dir: string;
  /** The highest seq written so far. */
  readonly lastSeq: number;
  private readonly writer: AppendWriter;
  private readonly lock: SessionLock;
  private readonly contents: Map<string, ToolContentRecord>;

  private constructor(
    header: HeaderRecord,
    file: string,
    dir: string,
    opened: { writer: AppendWriter; lock: SessionLock },
    contents: Map<string, ToolContentRecord>,
    lastSeq: number,
  ) {
    this.header = header;
    this.file = file;
    this.dir = dir;
    this.writer = opened.writer;
    this.lock = opened.lock;
    this.contents = contents;
    this.lastSeq = lastSeq;
  }

  get id(): string {
    return this.header.id;
  }

  /** What the last failed write left behind; null once a write succeeds again. */
  get writeDamage(): WriteDamage | null {
    return this.writer.damage;
  }

  static async create(options: CreateSessionOptions): Promise<SessionLog> {
    const now = options.now ?? (() => new Date());
    const id = options.id ?? newSessionId(now());
    assertSessionId(id);
    const root = path.resolve(options.root);
    await mkdir(root, { recursive: true, mode: 0o700 });
    const dir = sessionDirOf(root, id);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = sessionFileOf(root, id);
    const header: HeaderRecord = {
      kind: 'header',
      version: SESSION_FORMAT_VERSION,
      id,
      workspace: options.workspace,
      created_at: now().toISOString(),
      model: options.model,
      ...(options.agentOf ? { agent_of: options.agentOf } : {}),
      ...(options.asAgent ? { as_agent: options.asAgent } : {}),
    };
    const opened = await withLock(root, id, async () => {
      const writer = await AppendWriter.open(file, { exclusive: true });
      await writer.append(serializeRecord(header)).catch(async (error: unknown) => {
        await writer.close();
        throw error;
      });
      return { writer };
    });
    return new SessionLog(header, file, dir, opened, new Map(), 0);
  }

  /**
   * Reopens a session to go on with it. A torn last line is cut off (its bytes kept in
   * `<file>.corrupt`), and the repair records of the replay are written before anything new.
   */
  static async resume(
    root: string,
    id: string,
    options: Pick<ReadOptions, 'now' | 'newestPage'> = {},
  ): Promise<{ log: SessionLog; replay: SessionReplay }> {
    assertSessionId(id);
    const folder = path.resolve(root);
    const file = sessionFileOf(folder, id);
    // The lock comes first: repairs written beside another process's running turn would end it.
    const opened = await withLock(folder, id, async () => {
      // Only the page the panel is sent needs echoes of today's shape (event-pages.ts).
      const replay = await readSessionFile(file, { ...options, upgradeWhenShown: true });
      if (replay.torn) await cutTornTail(file, replay.torn.offset, replay.torn.bytes);
      await mkdir(sessionDirOf(folder, id), { recursive: true, mode: 0o700 });
      const writer = await AppendWriter.open(file);
      if (replay.repairs.length > 0) {
        await writer.append(replay.repairs.map(serializeRecord).join('')).catch(async (error: unknown) => {
          await writer.close();
          throw error;
        });
      }
      return { writer, replay };
    });
    const { replay } = opened;
    const dir = sessionDirOf(folder, id);
    const log = new SessionLog(replay.header, file, dir, opened, new Map(replay.contents), replay.lastSeq);
    return { log, replay };
  }

  /**
   * Writes one durable event (already stamped with seq and time) and waits for the disk. A nested
   * Code Mode call's record is written without a flush of its own: its program's result, written
   * after it, makes it durable.
   */
  /** `gather`: the event may wait a moment for others to share its write and fsync (append-writer.ts). */
  appendEvent(event: StatusEvent, options: EmitOptions = {}): Promise<void> {
    if (isLiveOnly(event))
      return Promise.reject(new Error(`${event.type} is a live-only event and is never written to a session.`));
    return this.append({ kind: 'event', event }, event.type !== 'tool_code_dispatch', options.gather === true);
  }

  /** The reasoning blocks of the assistant_message about to be written. */
  async appendReasoning(blocks: ReasoningBlock[]): Promise<void> {
    await this.append({ kind: 'reasoning', blocks });
  }

  /**
   * A result's images go to the session's folder while the record is appended: the record stays in
   * the same synchronous stretch as the call's completion (one fsync). An image lost to a crash
   * in between reaches the model as a note saying it could not be read.
   */
  async put(record: ToolContent & { parent_call_id?: string }, images: readonly ToolImage[] = []): Promise<void> {
    const entry: ToolContentRecord = { kind: 'tool_content', ...record };
    this.contents.set(record.call_id, entry);
    const appended = this.append(entry, record.parent_call_id === undefined);
    if (images.length === 0) return appended;
    await Promise.all([appended, ...images.map((image) => writeSessionImage(this.dir, image))]);
  }

  get(callId: string): ToolContent | undefined {
    const record = this.contents.get(callId);
    if (!record) return undefined;
    const { call_id, name, content, is_error, images } = record;
    return { call_id, name, content, is_error, ...(images ? { images } : {}) };
  }

  private append(record: SessionRecord, sync = true, gather = false): Promise<void> {
    return this.writer.append(serializeRecord(record), { sync, gather });
  }

  async close(): Promise<void> {
    try {
      await this.writer.close();
    } finally {
      await this.lock.release();
    }
  }
}

/** Runs `open` holding the session's lock; the lock is given back if it fails. */
async function withLock<T extends { writer: AppendWriter }>(
  root: string,
  id: string,
  open: () => Promise<T>,
): Promise<T & { lock: SessionLock }> {
  const lock = await SessionLock.acquire(sessionLockOf(root, id), id);
  try {
    return { ...(await open()), lock };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** Keeps the torn bytes beside the file, then cuts the file back to its last whole line. */
async function cutTornTail(file: string, offset: number, bytes: Buffer): Promise<void> {
  // One torn line per sidecar line, in case a session is cut more than once.
  await appendFile(`${file}.corrupt`, Buffer.concat([bytes, Buffer.from('\n')]), { mode: 0o600 });
  const handle = await open(file, 'r+');
  try {
    await handle.truncate(offset);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
