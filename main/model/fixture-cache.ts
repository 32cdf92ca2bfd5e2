import { createHash } from 'node:crypto';
import { isRecord } from '../../protocol/json.ts';
import { countTextTokens } from './token-estimate.ts';
import type { Wire } from './fixture-wire.ts';

// The fixture server's prompt cache: it counts each request's input tokens itself and splits them
// into cache reads, cache writes and the rest by the rules each provider publishes, keeping the
// prefixes it has seen, so a test or a bench measures the product's real hit rate.
//
// Anthropic (explicit breakpoints): the prefix is tools → system → messages, cut into content
// blocks. A block carrying `cache_control` is a breakpoint; a request reads the longest prefix
// ending at a breakpoint or at one of the 20 blocks before it that an earlier request wrote, and
// writes each breakpoint's prefix (the tokens up to its last breakpoint beyond what it read). A
// prefix under the minimum (1 024 tokens; 2 048 for Haiku models) is never cached. Changing
// `tool_choice` or the thinking setting starts the messages' part afresh.
//
// OpenAI (automatic): a request of 1 024 tokens or more reads the longest prefix it shares with an
// earlier request of the same model and `prompt_cache_key`, counted from 1 024 tokens in steps of
// 128, and reports it as `cached_tokens`; nothing is billed as a write.
//
// Entries never expire here (the providers keep them 5 minutes to an hour after their last use).

export interface CacheAccount {
  /** Every input token of the request. */
  input_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

/** What a piece of the request counts: its text, or a fixed cost for an image. */
const IMAGE_TOKENS = 1_600;
const BLOCK_OVERHEAD_TOKENS = 3;
const ANTHROPIC_LOOKBACK = 20;
const OPENAI_MINIMUM = 1_024;
const OPENAI_STEP = 128;
/** Earlier OpenAI requests a new one is compared with, per model and key. */
const OPENAI_KEPT = 64;

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The piece as the cache sees it: its JSON without the markers that only ask for caching. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (key, inner: unknown) => (key === 'cache_control' ? undefined : inner));
}

/** The tokens a block's texts count; an image counts a fixed cost whatever its bytes. */
function pieceTokens(value: unknown): number {
  if (typeof value === 'string') return countTextTokens(value);
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + pieceTokens(item), 0);
  if (!isRecord(value)) return 0;
  if (value.type === 'image' || value.type === 'image_url' || value.type === 'input_image') return IMAGE_TOKENS;
  let sum = 0;
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'type' || key === 'cache_control' || key === 'signature') continue;
    sum += pieceTokens(inner);
  }
  return sum;
}

interface Piece {
  text: string;
  tokens: number;
  breakpoint: boolean;
}

/** Tokens of pieces already counted: each request repeats most of the previous one. */
const counted = new Map<string, number>();
const COUNTED_KEPT = 20_000;

function piece(value: unknown): Piece {
  const text = canonical(value);
  let tokens = counted.get(text);
  if (tokens === undefined) {
    tokens = BLOCK_OVERHEAD_TOKENS + pieceTokens(value);
    if (counted.size >= COUNTED_KEPT) counted.clear();
    counted.set(text, tokens);
  }
  return {
    text,
    tokens,
    breakpoint: isRecord(value) && isRecord(value.cache_control),
  };
}

function blocksOf(content: unknown): unknown[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

/** Anthropic's prefix order: tools, system, then each message's blocks (a role change counts as its own piece). */
function anthropicPieces(body: Record<string, unknown>): Piece[] {
  const pieces: Piece[] = [];
  for (const tool of Array.isArray(body.tools) ? body.tools : []) pieces.push(piece(tool));
  for (const block of blocksOf(body.system)) pieces.push(piece(block));
  pieces.push({
    text: canonical({ tool_choice: body.tool_choice, thinking: body.thinking }),
    tokens: 0,
    breakpoint: false,
  });
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (!isRecord(message)) continue;
    pieces.push({ text: `role:${String(message.role)}`, tokens: BLOCK_OVERHEAD_TOKENS, breakpoint: false });
    for (const block of blocksOf(message.content)) pieces.push(piece(block));
  }
  return pieces;
}

/** OpenAI's order: tools, then the messages, each whole. */
function openaiPieces(body: Record<string, unknown>): Piece[] {
  const pieces: Piece[] = [];
  if (Array.isArray(body.tools)) pieces.push(piece(body.tools));
  const messages = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : [];
  if (typeof body.instructions === 'string') pieces.push(piece({ role: 'system', content: body.instructions }));
  for (const message of messages) pieces.push(piece(message));
  return pieces;
}

/** Each piece's running hash and running tokens. */
function chain(pieces: readonly Piece[], salt: string): { hashes: string[]; totals: number[] } {
  const hashes: string[] = [];
  const totals: number[] = [];
  let hash = digest(salt);
  let total = 0;
  for (const item of pieces) {
    hash = digest(`${hash}\n${item.text}`);
    total += item.tokens;
    hashes.push(hash);
    totals.push(total);
  }
  return { hashes, totals };
}

function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a.charCodeAt(index) === b.charCodeAt(index)) index += 1;
  return index;
}

export class FixturePromptCache {
  /** Anthropic: the prefixes written, by hash, per model and key. */
  private readonly written = new Set<string>();
  /** OpenAI: earlier requests' pieces, per model and key. */
  private readonly seen = new Map<string, Piece[][]>();

  account(wire: Wire, body: Record<string, unknown>, headers: Record<string, unknown>): CacheAccount {
    const model = typeof body.model === 'string' ? body.model : '';
    if (wire === 'anthropic') return this.anthropic(body, `${model}\n${String(headers['x-api-key'] ?? '')}`, model);
    const key = typeof body.prompt_cache_key === 'string' ? body.prompt_cache_key : '';
    return this.openai(body, `${model}\n${key}`);
  }

  private anthropic(body: Record<string, unknown>, scope: string, model: string): CacheAccount {
    const pieces = anthropicPieces(body);
    const { hashes, totals } = chain(pieces, scope);
    const input = totals.at(-1) ?? 0;
    const minimum = /haiku/i.test(model) ? 2_048 : 1_024;
    let read = 0;
    let lastBreakpoint = -1;
    pieces.forEach((item, index) => {
      if (!item.breakpoint) return;
      lastBreakpoint = index;
      for (let back = index; back >= 0 && back > index - ANTHROPIC_LOOKBACK; back -= 1) {
        if (this.written.has(hashes[back] ?? '')) {
          read = Math.max(read, totals[back] ?? 0);
          break;
        }
      }
    });
    let write = 0;
    if (lastBreakpoint >= 0) {
      const end = totals[lastBreakpoint] ?? 0;
      if (end >= minimum) write = Math.max(0, end - read);
      pieces.forEach((item, index) => {
        if (item.breakpoint && (totals[index] ?? 0) >= minimum) this.written.add(hashes[index] ?? '');
      });
    }
    return { input_tokens: input, cache_read_tokens: read, cache_write_tokens: write };
  }

  private openai(body: Record<string, unknown>, scope: string): CacheAccount {
    const pieces = openaiPieces(body);
    const input = pieces.reduce((sum, item) => sum + item.tokens, 0);
    const earlier = this.seen.get(scope) ?? [];
    let shared = 0;
    for (const other of earlier) shared = Math.max(shared, sharedTokens(pieces, other));
    const read = input < OPENAI_MINIMUM || shared < OPENAI_MINIMUM ? 0 : stepDown(Math.min(shared, input));
    earlier.push(pieces);
    if (earlier.length > OPENAI_KEPT) earlier.shift();
    this.seen.set(scope, earlier);
    return { input_tokens: input, cache_read_tokens: read, cache_write_tokens: 0 };
  }
}

/** 1 024 tokens, then whole steps of 128. */
function stepDown(tokens: number): number {
  return OPENAI_MINIMUM + Math.floor((tokens - OPENAI_MINIMUM) / OPENAI_STEP) * OPENAI_STEP;
}

/** The tokens two requests share from their start: whole equal pieces, then the equal start of the first that differs. */
function sharedTokens(a: readonly Piece[], b: readonly Piece[]): number {
  let tokens = 0;
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    const x = a[index];
    const y = b[index];
    if (x === undefined || y === undefined) break;
    if (x.text === y.text) {
      tokens += x.tokens;
      continue;
    }
    const common = commonPrefixLength(x.text, y.text);
    return tokens + (common === 0 ? 0 : countTextTokens(x.text.slice(0, common)));
  }
  return tokens;
}
