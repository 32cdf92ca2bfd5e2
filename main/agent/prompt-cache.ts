import { debuglog } from 'node:util';
import type { ModelInfo } from '../../protocol/models.ts';
import { modelInfo } from '../model/model-info.ts';
import type { ChatMessage, PromptCacheRequest, ToolSpec } from '../model/types.ts';
import { agingBoundary } from './aging.ts';

// A session's prompt cache: the key its requests carry, and a watch over their prefix. A provider
// reads a request's prefix from its cache only while it is byte-identical to what an earlier
// request sent; each request here is compared with the one before it, and a change anywhere but
// at its end is named — the aged part grew, the context was compacted, the system prompt, the
// tools or the model changed — in the debug log (`NODE_DEBUG=aether`). A change the watch cannot
// name is logged as unexplained: a bug that costs the person money.

export type PrefixCause = 'aging' | 'compaction' | 'replaced' | 'system prompt' | 'tools' | 'model' | 'unexplained';

export interface PrefixChange {
  cause: PrefixCause;
  /** Which request of this session's process made it, from 1. */
  request: number;
  /** The first message of the request that differs from the previous request's (-1: before the messages). */
  at: number;
  /** Messages in the new request. */
  messages: number;
  detail: string;
}

export interface ObservedRequest {
  model: string;
  system: string;
  tools: readonly ToolSpec[];
  /** The session's messages, before aging. */
  messages: readonly ChatMessage[];
  /** The messages as sent (aged). */
  sent: readonly ChatMessage[];
}

/** A model's figures with cache writes at the price of the lifetime asked for: an hour's cost twice the input price. */
export function cachePriced(
  lookup: (id: string) => ModelInfo = (id) => modelInfo(id),
  ttl: '5m' | '1h',
): (id: string) => ModelInfo {
  if (ttl === '5m') return lookup;
  return (id) => {
    const info = lookup(id);
    const prices = info.prices;
    return prices?.cache_write === undefined ? info : { ...info, prices: { ...prices, cache_write: prices.input * 2 } };
  };
}

type Observed = Omit<ObservedRequest, 'tools'> & { tools: string; boundary: number };

const debug = debuglog('aether');
/** Changes kept for a look (tests, the status view); the log has them all. */
const KEPT_CHANGES = 100;

export class PromptCache {
  readonly key: string;
  readonly ttl: '5m' | '1h';
  /** The latest prefix changes, oldest first. */
  readonly changes: PrefixChange[] = [];
  private previous: Observed | undefined;
  /** A compaction replaced the context since the last request. */
  private compaction = false;
  private requests = 0;
  private readonly log: (line: string) => void;

  constructor(key: string, options: { ttl?: '5m' | '1h'; log?: (line: string) => void } = {}) {
    this.key = key;
    this.ttl = options.ttl ?? '5m';
    this.log = options.log ?? ((line) => debug('%s', line));
  }

  /** The context was compacted: the next request's prefix changes for that reason. */
  compacted(): void {
    this.compaction = true;
  }

  /** What a request asks of the provider's cache. */
  request(): PromptCacheRequest {
    return { key: this.key, ...(this.ttl === '1h' ? { ttl: this.ttl } : {}) };
  }

  /** Compares the request about to be sent with the previous one; returns the change it makes to the prefix, if any. */
  observe(request: ObservedRequest): PrefixChange | null {
    const tools = JSON.stringify(request.tools);
    const boundary = agingBoundary(request.messages);
    const previous = this.previous;
    const compaction = this.compaction;
    this.compaction = false;
    this.requests += 1;
    this.previous = { ...request, messages: [...request.messages], sent: [...request.sent], tools, boundary };
    if (previous === undefined) return null;
    const found = prefixChange(previous, { ...request, tools, boundary }, compaction);
    if (found === null) return null;
    const change = { ...found, request: this.requests };
    this.changes.push(change);
    if (this.changes.length > KEPT_CHANGES) this.changes.shift();
    this.log(
      `request ${change.request}: prompt prefix changed at message ${change.at} of ${change.messages} (${change.cause}): ${change.detail}; ` +
        'the provider reads its cache up to there and writes the rest again.',
    );
    return change;
  }
}

/** The first index at which `next` stops repeating `before`, or -1 when `before` is all a prefix of it. */
function firstDifference(before: readonly ChatMessage[], next: readonly ChatMessage[]): number {
  for (let index = 0; index < before.length; index += 1) {
    const a = before[index];
    const b = next[index];
    if (a === b) continue;
    if (b === undefined || JSON.stringify(a) !== JSON.stringify(b)) return index;
  }
  return -1;
}

function prefixChange(before: Observed, next: Observed, compaction: boolean): Omit<PrefixChange, 'request'> | null {
  const messages = next.sent.length;
  if (before.model !== next.model)
    return { cause: 'model', at: -1, messages, detail: `the model changed from ${before.model} to ${next.model}` };
  if (before.system !== next.system)
    return { cause: 'system prompt', at: -1, messages, detail: 'the system prompt changed' };
  if (before.tools !== next.tools)
    return { cause: 'tools', at: -1, messages, detail: 'the tools offered changed (an MCP server’s list, say)' };
  const at = firstDifference(before.sent, next.sent);
  if (at < 0) return null;
  const rawAt = firstDifference(before.messages, next.messages);
  if (rawAt >= 0) {
    return compaction
      ? {
          cause: 'compaction',
          at,
          messages,
          detail: 'the context was compacted: a summary replaced the older messages',
        }
      : { cause: 'replaced', at, messages, detail: 'the conversation was replaced from there' };
  }
  if (next.boundary > before.boundary)
    return {
      cause: 'aging',
      at,
      messages,
      detail: `old tool results and images before message ${next.boundary} were aged in one block`,
    };
  return { cause: 'unexplained', at, messages, detail: 'a message already sent was sent differently' };
}
