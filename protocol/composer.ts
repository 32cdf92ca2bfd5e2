// What the composer asks the panel for: the person's own slash commands and the workspace's files
// for @-mentions. Plain types and limits, shared by main and the renderer.

/** A slash command the person wrote as a Markdown file. */
export interface UserCommand {
  /** Typed as `/name`: the file name without `.md`. */
  name: string;
  /** From the front matter's `description:`, else the body's first line. */
  description: string;
  /** The Markdown after the front matter; `$ARGUMENTS` stands for what follows the command. */
  body: string;
  /**
   * `workspace`: `.aethercodex/commands/` of the workspace (wins over a user command of the same
   * name); `skill`: a skill (SKILL.md) the command asks the model to load and follow.
   */
  source: 'workspace' | 'user' | 'skill' | 'mcp';
  /** From the front matter's `argument-hint:`, shown after the name in the menu. */
  argument_hint?: string;
  /**
   * An MCP server's prompt (`/mcp__server__prompt`; `/server:prompt` is accepted too): the text
   * comes from the server when it is sent.
   */
  prompt?: McpPromptRef;
}

/** An MCP server's prompt as a slash command: which server and prompt, and the arguments it takes, in order. */
export interface McpPromptRef {
  server: string;
  name: string;
  arguments: { name: string; description: string; required: boolean }[];
}

export interface UserCommandList {
  commands: UserCommand[];
  /** Files that could not be read as commands, each with why (the rest still load). */
  problems: string[];
}

export type MentionKind = 'file' | 'dir';

export interface FileMatch {
  /** Relative to the workspace root, `/`-separated; a folder's path has no trailing slash. */
  path: string;
  kind: MentionKind;
  /** Indexes into `path` of the characters the query matched, for highlighting. */
  indexes: number[];
}

export interface FileMatches {
  matches: FileMatch[];
  /** How many entries the index holds (files and folders). */
  indexed: number;
  /** True when the walk stopped at the index's limit: some files cannot be found by name. */
  capped: boolean;
}

/** A resource an MCP server offers, as `@` offers it (besides the workspace's files). */
export interface McpResourceMatch {
  server: string;
  uri: string;
  /** Its title, else its name. */
  name: string;
  description: string;
  mime_type?: string;
}

/** The most text one `@` resource adds to a message. */
export const MAX_RESOURCE_TEXT = 256 * 1024;

/** What `@` offers at most per query. */
export const MENTION_MATCH_LIMIT = 50;
/** How many files and folders one message may mention. */
export const MAX_MENTIONS = 20;

/** A mention as typed: `@path` up to the next white space; `@"a path"` for a path with spaces. */
export function mentionToken(path: string): string {
  return /\s/.test(path) ? `@"${path}"` : `@${path}`;
}

/** The image types a message can carry, as the model APIs take them. */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];
/** The largest image one message may carry (it travels whole over the panel's socket). */
export const MAX_IMAGE_BYTES = 2.5 * 1024 * 1024;
/** How many images one message may carry. */
export const MAX_IMAGES = 8;

/** An image attached to a message: kept once in the session's folder, named by its hash. */
export interface ImageRef {
  sha256: string;
  media_type: ImageMediaType;
  bytes: number;
}

export function isImageMediaType(value: string): value is ImageMediaType {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(value);
}

/** Why an image cannot be attached, or null when it can. */
export function imageRefusal(mediaType: string, bytes: number, name = 'The image'): string | null {
  if (!isImageMediaType(mediaType))
    return `${name} is ${mediaType || 'of an unknown type'}; attach a PNG, JPEG, GIF or WebP image.`;
  if (bytes > MAX_IMAGE_BYTES)
    return `${name} is ${(bytes / 1024 / 1024).toFixed(1)} MiB; an attached image may be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MiB. Crop it, or save it as JPEG or WebP, and attach it again.`;
  return null;
}

/** The image type its first bytes say, or null for anything else. */
export function sniffImageType(data: Uint8Array): ImageMediaType | null {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => data[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  const ascii = (from: number, to: number) => String.fromCharCode(...data.subarray(from, to));
  if (data.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}
