import { open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ContextMessageEvent, StatusEvent } from '../../protocol/events.ts';
import type { ChatMessage } from '../model/types.ts';

// Project instructions, sent as context messages. The files at the workspace root —
// AGENTS.md, CLAUDE.md, .aethercodex/instructions.md — go to the model at the start of the first
// turn; a nested AGENTS.md goes the first time a tool call works in its folder (or below it), so a
// monorepo's package rules reach the model when it works there and cost nothing elsewhere. Each is
// one small XML document naming its source. Before every turn the files already sent are read
// again: an edited file is sent again (status="changed"), a deleted one is withdrawn
// (status="removed"), and one a compaction took out of the model's context is sent again. What was
// sent is recorded as a context_message event, and a resumed session starts from those records,
// so it sends exactly what the first run did and nothing twice.

export const ROOT_INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md', '.aethercodex/instructions.md'] as const;
export const NESTED_INSTRUCTION_FILE = 'AGENTS.md';
/** Bytes of one instruction file the model receives; the rest is left out with a notice. */
export const INSTRUCTION_LIMIT_BYTES = 32 * 1024;

/** A context message about to be sent: the event's fields without the turn. */
export type InstructionMessage = Omit<ContextMessageEvent, 'type' | 'turn_id' | 'seq' | 'at'>;

interface InstructionFile {
  source: string;
  content: string;
  bytes: number;
  truncated: boolean;
}

export interface ProjectInstructionsOptions {
  limitBytes?: number;
  /** Context messages already sent in this session (a resumed one), oldest first. */
  history?: readonly StatusEvent[];
}

export class ProjectInstructions {
  private readonly workspace: string;
  private readonly limitBytes: number;
  /** Source → the document last sent for it (absent once it was withdrawn). */
  private readonly sent = new Map<string, string>();

  constructor(workspace: string, options: ProjectInstructionsOptions = {}) {
    this.workspace = workspace;
    this.limitBytes = options.limitBytes ?? INSTRUCTION_LIMIT_BYTES;
    for (const event of options.history ?? []) {
      if (event.type !== 'context_message') continue;
      if (event.change === 'removed') this.sent.delete(event.source);
      else this.sent.set(event.source, event.text);
    }
  }

  /**
   * Before a turn: the root files, and every file sent before, if new, edited, gone, or no longer
   * in `context` (the model context as it stands: a compaction may have summarised it away).
   */
  async atTurnStart(context: readonly ChatMessage[]): Promise<InstructionMessage[]> {
    const sources = [...new Set<string>([...ROOT_INSTRUCTION_FILES, ...this.sent.keys()])];
    // A compaction may carry a document inside its summary message (compaction.ts keeps them verbatim).
    const users = context.flatMap((message) => (message.role === 'user' ? [message.content] : []));
    for (const [source, document] of this.sent) {
      if (!users.some((text) => text.includes(document))) this.sent.delete(source);
    }
    const messages: InstructionMessage[] = [];
    for (const source of sources) {
      const message = await this.check(source);
      if (message) messages.push(message);
    }
    return messages;
  }

  /** After tool calls: the nested AGENTS.md files of the folders they worked in, not sent yet. */
  async forCalls(calls: readonly { args: unknown }[]): Promise<InstructionMessage[]> {
    // A step's calls often work in the same folders: each folder's AGENTS.md is looked for once,
    // and the lookups run side by side.
    const targets = new Set(calls.flatMap((call) => workedPaths(call.args)));
    const found = new Map<string, Promise<boolean>>();
    const lists = await Promise.all([...targets].map((target) => this.nestedSources(target, found)));
    const sources = new Set(lists.flat());
    const messages: InstructionMessage[] = [];
    for (const source of [...sources].sort(byDepth)) {
      if (this.sent.has(source)) continue;
      const message = await this.check(source);
      if (message) messages.push(message);
    }
    return messages;
  }

  /** The message a source needs now (first sending, an edit, a removal), or null. */
  private async check(source: string): Promise<InstructionMessage | null> {
    const file = await readInstructionFile(this.workspace, source, this.limitBytes);
    const before = this.sent.get(source);
    if (!file) {
      if (before === undefined) return null;
      this.sent.delete(source);
      return { source, change: 'removed', text: removedDocument(source) };
    }
    const document = instructionsDocument(file, before === undefined ? 'loaded' : 'changed');
    // An unchanged file keeps its first document: compare the content the model has, not the wrapper.
    if (before !== undefined && contentOf(before) === contentOf(document)) return null;
    this.sent.set(source, document);
    return {
      source,
      change: before === undefined ? 'loaded' : 'changed',
      text: document,
      ...(file.truncated ? { truncated: { bytes: file.bytes, limit: this.limitBytes } } : {}),
    };
  }

  /**
   * AGENTS.md files between the workspace root (not included) and the folder of `target`; `found`
   * keeps each candidate's lookup for the other targets of the same calls.
   */
  private async nestedSources(target: string, found: Map<string, Promise<boolean>>): Promise<string[]> {
    const absolute = path.resolve(this.workspace, target);
    const relative = path.relative(this.workspace, absolute);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return [];
    const info = await stat(absolute).catch(() => null);
    const folder = info?.isDirectory() ? relative : path.dirname(relative);
    const parts = folder === '.' ? [] : folder.split(path.sep);
    const candidates = parts.map((_, at) => [...parts.slice(0, at + 1), NESTED_INSTRUCTION_FILE].join('/'));
    const isFile = await Promise.all(
      candidates.map((source) => {
        let lookup = found.get(source);
        if (lookup === undefined) {
          lookup = stat(path.join(this.workspace, source)).then(
            (info) => info.isFile(),
            () => false,
          );
          found.set(source, lookup);
        }
        return lookup;
      }),
    );
    return candidates.filter((_, at) => isFile[at]);
  }
}

/** The string arguments a call works in: `path` (files, folders) and `cwd` (commands). */
function workedPaths(args: unknown): string[] {
  if (typeof args !== 'object' || args === null) return [];
  const record = args as Record<string, unknown>;
  return [record.path, record.cwd].filter((value): value is string => typeof value === 'string' && value !== '');
}

function byDepth(a: string, b: string): number {
  return a.split('/').length - b.split('/').length || a.localeCompare(b);
}

/**
 * Reads at most `limit` bytes, cut back to the last whole line; null when there is no such file, it
 * is empty, or it resolves outside the workspace (a cloned repository's `AGENTS.md` linked to a key
 * file must not send that file to the model).
 */
export async function readInstructionFile(
  workspace: string,
  source: string,
  limit: number,
): Promise<InstructionFile | null> {
  let handle;
  try {
    const real = await realpath(path.join(workspace, ...source.split('/')));
    const inside = path.relative(await realpath(workspace), real);
    if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) return null;
    handle = await open(real, 'r');
  } catch {
    return null;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size === 0) return null;
    const buffer = Buffer.alloc(Math.min(info.size, limit));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const truncated = info.size > bytesRead;
    let head = buffer.subarray(0, bytesRead);
    if (truncated) {
      const lastNewline = head.lastIndexOf(0x0a);
      if (lastNewline > 0) head = head.subarray(0, lastNewline + 1);
    }
    // A cut inside a multi-byte character decodes to U+FFFD: drop it rather than send a broken one.
    const content = head.toString('utf8').replace(/\uFFFD$/, '');
    if (content.trim() === '') return null;
    return { source, content, bytes: info.size, truncated };
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

function attribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/**
 * The XML document the model receives. The file's text goes in as written, so the model reads it
 * as the person wrote it; the panel shows a tree when the whole is well-formed XML, else the raw text.
 */
export function instructionsDocument(file: InstructionFile, change: 'loaded' | 'changed'): string {
  const status = change === 'changed' ? ' status="changed"' : '';
  const body = file.content.replace(/\s+$/, '');
  const notice = file.truncated
    ? `\n[Cut: ${file.source} is ${file.bytes} bytes; only its first ${Buffer.byteLength(file.content)} are here. Read the rest with read_file if you need it.]`
    : '';
  const replaces = change === 'changed' ? `[${file.source} was edited: this replaces its earlier instructions.]\n` : '';
  return `<instructions source="${attribute(file.source)}"${status}>\n${replaces}${body}${notice}\n</instructions>`;
}

function removedDocument(source: string): string {
  return `<instructions source="${attribute(source)}" status="removed">${source} was deleted: its earlier instructions no longer apply.</instructions>`;
}

/** The document without its opening tag and the edit line: what the file said. */
function contentOf(document: string): string {
  return document
    .replace(/^<instructions[^>]*>\n/, '')
    .replace(/^\[[^\]\n]* was edited: this replaces its earlier instructions\.\]\n/, '');
}
