import type { CallDescription } from '../../protocol/echo.ts';
import type { ToolStartedEvent } from '../../protocol/events.ts';
import type { StatusSink } from '../status/sink.ts';
import { describeChecked, echoKindOf } from './call-echo.ts';
import type { ToolCall } from './call-context.ts';
import type { Follower, SignalFollowers } from './signal-followers.ts';
import type { ArgsCheck, DescribeContext, ToolDefinition } from './tool.ts';

// How a call starts, as the panel sees it: its description, made once and only when something shows
// it, and its tool_started event, emitted once. With a store the registry writes that event before
// the call runs; without one it goes out while the call runs (right after an MCP request has left,
// so the panel's bookkeeping overlaps the server's work), but always before anything else of the
// call does: its approval question, its progress, its completion.
//
// The call's own controller follows the outer signal (the turn's Stop) from the first moment the
// call could wait on something a Stop must cut short: its approval question, or its execution.

type Tool = ToolDefinition<unknown, unknown>;

export class CallStart {
  private readonly sink: StatusSink;
  private readonly context: DescribeContext;
  private readonly call: ToolCall;
  private readonly tool: Tool | undefined;
  private readonly checked: ArgsCheck<unknown> | undefined;
  private description: CallDescription | undefined;
  private described = false;
  private announced = false;
  /** The sink's promise for tool_started, awaited with the completion (a failed emit fails the call as before). */
  private emitting: Promise<void> | undefined;
  /** The call's own controller: Stop on its card, and the outer signal it follows, abort it. */
  readonly own = new AbortController();
  private followers: SignalFollowers | null = null;
  private follower: Follower | null = null;

  constructor(
    sink: StatusSink,
    context: DescribeContext,
    call: ToolCall,
    tool: Tool | undefined,
    checked?: ArgsCheck<unknown>,
  ) {
    this.sink = sink;
    this.context = context;
    this.call = call;
    this.tool = tool;
    this.checked = checked;
  }

  /** The call's description; undefined when the tool is unknown, has none, or refused the arguments. */
  describe(): CallDescription | undefined {
    if (!this.described) {
      this.described = true;
      const { tool, checked } = this;
      this.description = tool && checked?.ok ? describeChecked(tool, checked.args, this.context) : undefined;
    }
    return this.description;
  }

  /** Emits tool_started for a top-level call, once; what the sink returns for it. */
  announce(): void | Promise<void> {
    if (this.announced || this.call.parent) return;
    this.announced = true;
    const { call, tool } = this;
    const description = this.describe();
    const event: ToolStartedEvent = { type: 'tool_started', call_id: call.callId, name: call.name, args: call.args };
    if (call.turnId) event.turn_id = call.turnId;
    if (description) event.description = description;
    if (tool) event.echo_kind = echoKindOf(tool);
    let emitted: void | Promise<void>;
    try {
      emitted = this.sink.emit(event);
    } catch (error) {
      // A sink that throws at once fails the call the same way, never a tool left running unwatched.
      emitted = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    if (emitted) {
      // Handled here so a failure waits for the completion instead of surfacing as unhandled.
      emitted.catch(() => undefined);
      this.emitting = emitted;
    }
    return emitted;
  }

  /** What is still on its way to the sink of the start (undefined: nothing). */
  get pending(): Promise<void> | undefined {
    return this.emitting;
  }

  /**
   * From now on, `own` aborts when the call's outer signal does (at once if it already has). A
   * turn's top-level call leaves the listener on the turn's signal for its next call; the turn
   * releases it when it ends (ToolRegistry.releaseTurn).
   */
  follow(followers: SignalFollowers): void {
    const { signal, turnId, parent } = this.call;
    if (this.followers || !signal) return;
    this.followers = followers;
    this.follower = followers.follow(signal, this.own, turnId !== undefined && parent === undefined);
  }

  /** Stops following the outer signal (the call is over). */
  stopFollowing(): void {
    this.followers?.unfollow(this.follower);
    this.follower = null;
  }

  /** The call's id (the registry finds a running call by it). */
  get callId(): string {
    return this.call.callId;
  }

  /** The outer signal has already been aborted (a Stop before the call could start). */
  get stopped(): boolean {
    return this.call.signal?.aborted === true;
  }
}
