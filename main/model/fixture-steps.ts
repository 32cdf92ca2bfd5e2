import { isRecord } from '../../protocol/json.ts';
import type { FixtureScript, FixtureStep } from './fixture-script.ts';

/**
 * Which step of a script answers each request: the next of the script's own steps, or, for a
 * request that belongs to one of its streams, the next step of that stream.
 */
export class ScriptSteps {
  private current: FixtureScript;
  private cursor = 0;
  private streamCursors = new Map<number, number>();

  constructor(script: FixtureScript) {
    this.current = script;
  }

  get script(): FixtureScript {
    return this.current;
  }

  /** Replaces the script and starts from its first step. */
  load(script: FixtureScript): void {
    this.current = script;
    this.cursor = 0;
    this.streamCursors = new Map();
  }

  /** Takes the step that answers a request with this body; undefined once its steps are spent. */
  take(body: Record<string, unknown>): FixtureStep | undefined {
    const stream = requestStream(this.current, body);
    if (stream >= 0) {
      const at = this.streamCursors.get(stream) ?? 0;
      const step = this.current.streams[stream]?.steps[at];
      if (step !== undefined) this.streamCursors.set(stream, at + 1);
      return step;
    }
    const step = this.current.steps[this.cursor];
    if (step !== undefined) this.cursor += 1;
    return step;
  }

  /** Steps not yet taken, the streams' included. */
  remaining(): number {
    return (
      this.current.steps.length -
      this.cursor +
      this.current.streams.reduce(
        (sum, stream, index) => sum + stream.steps.length - (this.streamCursors.get(index) ?? 0),
        0,
      )
    );
  }
}

/**
 * The stream a request belongs to: the first whose `match` is in the text of its user messages
 * (strings and text blocks, never tool results, which may quote another stream's words); -1: none.
 */
export function requestStream(script: FixtureScript, body: Record<string, unknown>): number {
  if (script.streams.length === 0) return -1;
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const texts: string[] = [];
  for (const message of messages) {
    if (!isRecord(message) || message.role !== 'user') continue;
    if (typeof message.content === 'string') texts.push(message.content);
    else if (Array.isArray(message.content))
      for (const block of message.content)
        if (isRecord(block) && block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
  }
  const text = texts.join('\n');
  return script.streams.findIndex((stream) => text.includes(stream.match));
}
