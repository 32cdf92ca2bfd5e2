import type { StatusEvent } from '../../protocol/events.ts';
import type { LengthCount } from '../model/token-bounds.ts';
import type { ChatMessage, ToolSpec } from '../model/types.ts';
import type { RequestShape } from './compaction.ts';

// One count of the model context for the meter and for compaction. The tokenizer's estimate of a
// request is all there is before the provider answers, and providers count differently (another
// tokenizer, the tools' schemas as they frame them): once a step ends, the provider's figure for
// that request says by how much, and every later estimate for the same model is scaled by it. So
// the meter's figure does not jump between the provider's count and the estimate, and compaction
// starts, and keeps its tail, by the figure the person reads.
//
// The tokenizer's tables cost tens of MiB and up to a second and a half of CPU to load, so while a
// request's ceiling by length (model/token-bounds.ts) stays below the lines that matter — where the
// panel starts to speak of compaction, the threshold, the window — the meter shows the count by
// length and compaction knows it is not due, without them. A step's figure whose request was not
// tokenized waits (`pending`) until the tokenizer is next needed, and then scales as it would have;
// meanwhile a ceiling for its model allows for whatever learning it may do (`most`).

/**
 * A provider figure further than this from the estimate is not a count of the same request (a
 * server that reports no usage, or made-up figures): it is not used.
 */
const MIN_RATIO = 0.5;
const MAX_RATIO = 2;

interface Scale {
  model: string;
  ratio: number;
}

interface Pending {
  model: string;
  request: RequestShape;
  /** The provider's figure for it. */
  input: number;
  /** Its count by length's ceiling. */
  ceiling: number;
  /** How often each of its messages and tool declarations is in it, gathered when first needed. */
  parts: { messages: Map<ChatMessage, number>; tools: Map<ToolSpec, number> } | null;
}

export interface CountOptions {
  /** The estimate counted by length, its ceiling never below it; absent: the estimate is always made. */
  length?: (request: RequestShape) => LengthCount | undefined;
  /** Whether the estimate costs only its new text now (the tokenizer loaded): then it is always made. */
  ready?: () => boolean;
  /** Told when a count by length came near the first line: the estimate will soon be needed. */
  soon?: () => void;
}

/** From this share of the first line on, a count by length tells `soon`. */
const SOON_SHARE = 0.75;

/** The meter's figure for a request, and the tokenizer's estimate when it was made. */
export interface Measured {
  tokens: number;
  /** Absent when the figure is by length. */
  estimated?: number;
}

export class ContextCount {
  private readonly estimate: (request: RequestShape) => number;
  private readonly length: (request: RequestShape) => LengthCount | undefined;
  private readonly ready: () => boolean;
  private readonly soon: () => void;
  private scale: Scale | null = null;
  /** The last step's figure while its request's estimate is not made. */
  private pending: Pending | null = null;
  /** The provider's last figure against the count by length: what the meter shows by length. */
  private lengthScale: Scale | null = null;

  /** `history`: a resumed session's events; its last step's figures scale the estimates from the start. */
  constructor(
    estimate: (request: RequestShape) => number,
    history: readonly StatusEvent[] = [],
    options: CountOptions = {},
  ) {
    this.estimate = estimate;
    this.length = options.length ?? (() => undefined);
    this.ready = options.ready ?? (() => false);
    this.soon = options.soon ?? (() => undefined);
    for (let index = history.length - 1; index >= 0; index -= 1) {
      const event = history[index];
      if (event?.type !== 'step_usage' || event.estimated_tokens === undefined) continue;
      this.learn(event.model, event.estimated_tokens, event.usage.input_tokens);
      break;
    }
  }

  /** The tokenizer's own estimate of a request. */
  estimated(request: RequestShape): number {
    const pending = this.pending;
    if (pending !== null) {
      this.pending = null;
      this.learn(pending.model, this.estimate(pending.request), pending.input);
    }
    return this.estimate(request);
  }

  /** An estimate for `model`, in the terms of that provider's last figure (unchanged before there is one). */
  scaled(estimated: number, model: string): number {
    return this.scale?.model === model ? Math.round(estimated * this.scale.ratio) : estimated;
  }

  /** The request's tokens as the meter shows them and compaction measures them. */
  of(request: RequestShape, model: string): number {
    return this.scaled(this.estimated(request), model);
  }

  /**
   * The request counted by length in the terms of `of`: a ceiling `of` never passes, and about what
   * it would say; undefined without a count by length.
   */
  byLength(request: RequestShape, model: string): LengthCount | undefined {
    const length = this.length(request);
    if (length === undefined) return undefined;
    const { ceiling, likely } = length;
    const most = Math.ceil(this.most(request, model, ceiling));
    const scale = this.lengthScale?.model === model ? this.lengthScale.ratio : 1;
    return { ceiling: most, likely: Math.min(most, Math.round(likely * scale)) };
  }

  /**
   * What the meter shows for a request: the estimate when the tokenizer is loaded or the ceiling by
   * length reaches `near` (the first line that matters), else the count by length (telling `soon`
   * from three quarters of the line on).
   */
  measure(request: RequestShape, model: string, near: number | undefined): Measured {
    const length = this.ready() ? undefined : this.byLength(request, model);
    if (length !== undefined && (near === undefined || length.ceiling < near)) {
      if (near !== undefined && length.ceiling >= near * SOON_SHARE) this.soon();
      return { tokens: length.likely };
    }
    const estimated = this.estimated(request);
    return { tokens: this.scaled(estimated, model), estimated };
  }

  /** The provider counted `input` tokens for a request of `model` the tokenizer estimated at `estimated`. */
  learn(model: string, estimated: number, input: number): void {
    if (estimated <= 0) return;
    const ratio = input / estimated;
    if (ratio >= MIN_RATIO && ratio <= MAX_RATIO) this.scale = { model, ratio };
  }

  /**
   * The provider counted `input` tokens for `request`, of `model`, which the meter measured as
   * `measured`: learnt now if it was estimated, else when the estimate is next made.
   */
  learnStep(model: string, request: RequestShape, measured: Measured, input: number): void {
    if (measured.estimated !== undefined) {
      this.pending = null;
      this.learn(model, measured.estimated, input);
      return;
    }
    const length = this.length(request);
    this.pending = { model, request, input, ceiling: length?.ceiling ?? Number.POSITIVE_INFINITY, parts: null };
    const likely = length?.likely ?? 0;
    const ratio = likely > 0 ? input / likely : 0;
    if (ratio >= MIN_RATIO && ratio <= MAX_RATIO) this.lengthScale = { model, ratio };
  }

  /**
   * The most `of` may say of a request whose count by length is at most `ceiling`. The scale is the
   * present one, unless the pending figure changes it when learnt. For another model's figure, that
   * leaves this model's estimates unscaled. For this model's, the figure is either learnt — then
   * the shared part of the two requests is counted as the provider counted the earlier one, `input`,
   * and what is new at most twice its ceiling — or not used, because it is over twice the
   * estimate (then the present scale, at most two, gives less than that same sum) or under half of
   * it, which a ceiling of the earlier request under twice `input` rules out.
   */
  private most(request: RequestShape, model: string, ceiling: number): number {
    const now = this.scale?.model === model ? this.scale.ratio : 1;
    const pending = this.pending;
    if (pending === null) return ceiling * now;
    if (pending.model !== model) return ceiling * Math.max(now, 1);
    const learnt = pending.input + MAX_RATIO * this.newCeiling(request, pending);
    return pending.ceiling > MAX_RATIO * pending.input ? Math.max(learnt, ceiling * now) : learnt;
  }

  /** The ceiling of what `request` has that the pending figure's request had not (framing of its own included). */
  private newCeiling(request: RequestShape, pending: Pending): number {
    pending.parts ??= { messages: tally(pending.request.messages), tools: tally(pending.request.tools) };
    const added = {
      system: request.system === pending.request.system ? '' : request.system,
      messages: beyond(request.messages, pending.parts.messages),
      tools: beyond(request.tools, pending.parts.tools),
      ...(request.imageTokens ? { imageTokens: request.imageTokens } : {}),
    };
    return this.length(added)?.ceiling ?? Number.POSITIVE_INFINITY;
  }
}

function tally<T>(items: readonly T[]): Map<T, number> {
  const counts = new Map<T, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

/** The items of `list` beyond those `earlier` counted (the same object as often as it was there is not new). */
function beyond<T>(list: readonly T[], earlier: ReadonlyMap<T, number>): T[] {
  const left = new Map(earlier);
  return list.filter((item) => {
    const count = left.get(item) ?? 0;
    if (count > 0) left.set(item, count - 1);
    return count === 0;
  });
}
