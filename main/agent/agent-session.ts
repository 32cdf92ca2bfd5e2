import type { CommandPreviewView } from '../../protocol/sandbox.ts';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { OpenedSession, Result, SessionSummary, ToolContent } from '../../protocol/api.ts';
import type { ApprovalAnswer, ReasoningEffort, StatusEvent } from '../../protocol/events.ts';
import type { ReviewChoice } from '../../protocol/review.ts';
import type { ChatMessage, ModelAdapter } from '../model/types.ts';
import { openedOf } from '../session/catalog.ts';
import { PAGE_BYTES, SessionPages } from '../session/event-pages.ts';
import { titleOf } from '../session/replay.ts';
import { SessionLog } from '../session/session-log.ts';
import { SessionSink } from '../session/session-sink.ts';
import type { StatusSink } from '../status/sink.ts';
import { SessionCheckpoints } from '../tools/checkpoints/call-checkpoints.ts';
import { defaultCallHooks } from '../tools/default-call-hooks.ts';
import { toolUseHook } from '../tools/hooks/tool-use-hook.ts';
import { builtinTools } from '../tools/index.ts';
import { DEFAULT_RULES, PermissionGate } from '../tools/permission-gate.ts';
import { ToolRegistry } from '../tools/registry.ts';
import { ProjectInstructions } from './instructions.ts';
import { hookedTurnStart, LifecycleHooks } from './lifecycle-hooks.ts';
import type { ContextBudget } from './compaction.ts';
import { contextBudget, lengthCount } from './context-budget.ts';
import { ContextCount } from './context-count.ts';
import { deniedKinds } from './permissions.ts';
import { systemPrompt } from './system-prompt.ts';
import { toolSpecsOf } from './tool-specs.ts';
import type { StoredImage } from '../session/session-images.ts';
import { contextLater, ModelContext } from './resumed-context.ts';
import { cachePriced, PromptCache } from './prompt-cache.ts';
import { SessionCompactor, type CompactionResult } from './session-compactor.ts';
import { runTurn, TurnStop, type TurnOutcome, type UserInput } from './turn.ts';
import { UsageMeter } from './usage-meter.ts';
import { todosOf, type TodoItem } from '../../protocol/todos.ts';
import { reopenedQueue } from './reopened-queue.ts';
import type { QueueState } from '../../protocol/queue.ts';
import { PLAN_APPROVED_MESSAGE } from '../../protocol/plan.ts';
import type { AgentSessionOptions, SessionHistory } from './agent-session-options.ts';
import { WaitingList, type SendMode, type SendOutcome } from './session-waiting.ts';
import { SessionNotes } from './session-notes.ts';
import { SessionQuestions } from './session-questions.ts';

export type { AgentSessionOptions } from './agent-session-options.ts';
export type { SendMode, SendOutcome } from './session-waiting.ts';

/**
 * AgentSession — one conversation with the model in one workspace, host-agnostic (Electron, the
 * web host and the CLI all wrap it). It owns the session log, the tool registry, the permission
 * gate and the queue of messages sent while a turn runs.
 *
 *   const session = await AgentSession.start({ root, workspace, model, sink })   // a new session
 *   const session = await AgentSession.resume({ root, id, workspace, model, sink }) // go on with one
 *
 *   session.send(text, …, how?) → Result<{ turn_id, queued }>: starts a turn, or, while one runs, steers it
 *                                 (delivered after the current step's tool calls, as a user message before
 *                                 the next model step, in the same turn) or, with `how.mode: 'queue'`,
 *                                 queues it as the next turn (session-waiting.ts; durable `queue` events)
 *   session.stop(reason?)       → Promise<Result<void>>: cancels the model stream and every running tool,
 *                                 holds the waiting messages, resolves once the turn has ended (failed: `reason`)
 *   session.editQueued / removeQueued / moveQueued / sendQueued: the waiting messages, until they go out
 *   session.cancelCall(id)      → Result<void>: stops one running tool call (Stop on its card); the
 *                                 model gets its cancelled result and the turn goes on
 *   session.approve(id, answer) → Result<void>: answers a pending tool_approval_requested
 *   session.toolContent(id)     → Result<ToolContent>: exactly what the model received for a call
 *   session.compact(focus?)     → compacts the model context now, between turns (its compaction or
 *                                 compaction_failed event); before each model step it happens by
 *                                 itself past the threshold
 *   session.idle()              → Promise<TurnOutcome | null>: the outcome of the last turn, once none runs
 *   session.summary()           → SessionSummary for the session list
 *   session.setModel(m) / setEffort(e): apply from the next model step on
 *   session.close()             → stops, waits, closes the file
 *
 * Every status event goes to `sink` with its seq and time, durable ones after they are on disk.
 * Approvals: pass `gate` for a gate of your own (the CLI's headless gate), or `rules` to get a
 * gate whose `ask` is answered through `approve()`.
 */

export class AgentSession {
  readonly log: SessionLog;
  readonly registry: ToolRegistry;
  readonly gate: PermissionGate;
  /** Snapshots of the workspace before each call that may change it, kept in the session's folder. */
  readonly checkpoints: SessionCheckpoints;
  /**
   * For a resumed session: what it held when it was reopened, repairs included, for the panel to
   * draw: its newest page of events (`older` counts those before it, read back through reopenedPages).
   */
  readonly reopened: OpenedSession | null;
  /** For a resumed session: where its events are in the file, so the panel can page through them. */
  readonly reopenedPages: SessionPages | null;
  /** Its questions to the person about calls, and their previews (session-questions.ts). */
  private readonly questions: SessionQuestions;
  private readonly sink: SessionSink;
  /** The caller's sink, past the session log: for when the log itself cannot be written. */
  private readonly forward: StatusSink;
  private readonly modelContext: ModelContext;
  private readonly callIds: Set<string>;
  private readonly workspace: string;
  private readonly maxSteps: number;
  /** Compacts the context on request and before a model step past the threshold. */
  private readonly compactor: SessionCompactor;
  /** The context meter and the session's cost (step_usage events). */
  readonly meter: UsageMeter;
  /** Its requests' cache key and the watch over their prefix (prompt-cache.ts). */
  readonly promptCache: PromptCache;
  /** AGENTS.md and the like: what was sent, and what to send next (instructions.ts). */
  private readonly instructions: ProjectInstructions;
  /** The hooks of the session's moments (SessionStart, UserPromptSubmit, Stop…); null without hooks. */
  readonly lifecycle: LifecycleHooks | null;
  private model: ModelAdapter;
  private effort: ReasoningEffort;
  private readonly instructionsText: string | undefined;
  private title: string;
  private updatedAt: string;
  /** The todo list and the approved plan, told to the model as context notes (session-notes.ts). */
  private readonly notes: SessionNotes;
  /** Messages sent while a turn runs: steers for its next safe point, and the turns that follow it. */
  private readonly waiting: WaitingList;
  private current: { turnId: string; controller: AbortController } | null = null;
  private running: Promise<TurnOutcome | null> = Promise.resolve(null);

  private constructor(log: SessionLog, options: AgentSessionOptions, history: SessionHistory) {
    this.log = log;
    this.reopened = history.reopened;
    this.reopenedPages = history.pages ?? null;
    this.model = options.model;
    this.effort = options.effort ?? 'off';
    this.instructionsText = options.instructions;
    this.maxSteps = options.maxSteps ?? 50;
    this.modelContext = new ModelContext(history.messages, history.buildContext ?? null, log.dir);
    this.title = history.title;
    this.updatedAt = history.updatedAt;
    this.callIds = new Set(
      history.events.flatMap((event) =>
        event.type === 'assistant_message' ? event.tool_calls.map((call) => call.call_id) : [],
      ),
    );
    this.promptCache = new PromptCache(log.id, options.promptCacheTtl ? { ttl: options.promptCacheTtl } : {});
    const tracking: StatusSink = {
      emit: (event) => {
        if (event.at) this.updatedAt = event.at;
        if (event.type === 'compaction') {
          this.notes.compacted();
          this.promptCache.compacted();
        }
        return options.sink.emit(event);
      },
    };
    this.forward = tracking;
    this.sink = new SessionSink(log, tracking, options.now ? { now: options.now } : {});
    const hookScope = {
      sessionId: log.id,
      transcriptPath: log.file,
      sink: this.sink,
      // Read when a hook runs: the mode may change meanwhile (the gate is made just below).
      sandbox: () => this.gate.sandbox,
    };
    // A nested agent runs its parent's hooks on its calls; its end is its parent's SubagentStop.
    this.lifecycle =
      options.hooks && !options.agentOf
        ? new LifecycleHooks(options.hooks, hookScope, history.reopened !== null)
        : null;
    this.questions = new SessionQuestions({
      workspace: options.workspace,
      gate: (approvals) => options.gate ?? new PermissionGate(options.rules ?? DEFAULT_RULES, approvals),
      emit: (event) => this.emitQuietly(event),
      notify: (message) => void this.lifecycle?.notify(message, this.current?.turnId).catch(() => undefined),
    });
    this.gate = this.questions.gate;
    this.checkpoints = new SessionCheckpoints({
      folder: path.join(log.dir, 'checkpoints'),
      workspace: options.workspace,
      ...(options.checkpoints ? { settings: options.checkpoints } : {}),
      ...(options.checkpointsWithin ? { within: options.checkpointsWithin } : {}),
    });
    this.registry = new ToolRegistry({
      workspace: options.workspace,
      sessionDir: log.dir,
      sink: this.sink,
      gate: this.gate,
      hooks: defaultCallHooks({
        checkpoints: this.checkpoints,
        before: options.hooks ? [toolUseHook(options.hooks, hookScope)] : [],
      }),
      store: log,
      readableRoots: [log.dir, ...(options.readableRoots ?? [])],
    });
    this.notes = new SessionNotes(this.sink, history.events);
    // The session's own tools first: run_code's declarations are of the tools registered before it.
    this.registry.register(
      ...this.notes.tools().filter(options.ownTools ?? (() => true)),
      ...(options.tools ?? builtinTools()),
    );
    this.waiting = new WaitingList(this.sink, history.queue, {
      running: () => this.current?.turnId ?? null,
      start: (inputs, reserved) => this.startTurn(inputs, reserved),
    });
    this.workspace = options.workspace;
    this.instructions = new ProjectInstructions(options.workspace, { history: history.events });
    // The window the context meter shows (the registry, the settings' overrides, the server's word).
    const measured: ContextBudget =
      options.budget ??
      contextBudget({
        window: (id) => this.meter.info(id).context_window,
        ...(options.compactAt ? { threshold: options.compactAt } : {}),
      });
    // The meter and compaction count alike: the estimate, in the terms of the provider's last figure.
    const count = new ContextCount(measured.estimate, history.events, lengthCount(measured));
    const lookup = cachePriced(options.modelInfo, this.promptCache.ttl);
    this.meter = new UsageMeter(this.sink, lookup, history.events, count, () => measured.threshold());
    const budget: ContextBudget = {
      ...measured,
      estimate: (request) => count.of(request, this.model.id),
      byLength: (request) => count.byLength(request, this.model.id),
    };
    const parts = { budget, sink: this.sink, messages: this.modelContext.messages, registry: this.registry };
    const lifecycle = this.lifecycle;
    this.compactor = new SessionCompactor({
      ...parts,
      model: () => this.model,
      ...(lifecycle
        ? { beforeCompaction: (how, signal) => lifecycle.preCompact(how.trigger, how.focus, how.turnId, signal) }
        : {}),
    });
  }

  static async start(options: AgentSessionOptions & { root: string }): Promise<AgentSession> {
    const log = await SessionLog.create({
      root: options.root,
      workspace: options.workspace,
      model: options.model.id,
      ...(options.now ? { now: options.now } : {}),
      ...(options.agentOf ? { agentOf: options.agentOf } : {}),
      ...(options.asAgent ? { asAgent: options.asAgent } : {}),
    });
    return new AgentSession(log, options, {
      messages: [],
      events: [],
      title: '',
      updatedAt: log.header.created_at,
      reopened: null,
    });
  }

  /** Reopens a session: its repairs are written first, its context is the one the model had. */
  static async resume(options: AgentSessionOptions & { root: string; id: string }): Promise<AgentSession> {
    // Only the newest page of events is kept (and sent): every event would stay in memory for life.
    const read = { newestPage: PAGE_BYTES, ...(options.now ? { now: options.now } : {}) };
    const { log, replay } = await SessionLog.resume(options.root, options.id, read);
    const pages = new SessionPages(replay);
    const later = contextLater(replay);
    const queue = await reopenedQueue(later.events, log.dir);
    const opened = pages.first(openedOf(replay, { resumed: true }));
    const todos = todosOf(later.events);
    const history = {
      ...later,
      title: replay.title,
      updatedAt: replay.updatedAt,
      reopened: {
        ...opened,
        ...(queue.state.items.length > 0 ? { queue: queue.state } : {}),
        ...(todos.length > 0 ? { todos } : {}),
      },
      pages,
      queue,
    };
    return new AgentSession(log, options, history);
  }

  get id(): string {
    return this.log.id;
  }

  get file(): string {
    return this.log.file;
  }

  get busy(): boolean {
    return this.current !== null;
  }

  /** The system prompt the next model step gets (it names the kinds the gate denies right now). */
  get systemPrompt(): string {
    return systemPrompt({
      workspace: this.workspace,
      tools: this.registry.list(),
      denied: deniedKinds(this.gate),
      ...(this.gate.mode === 'plan' ? { planning: true } : {}),
      ...(this.instructionsText ? { instructions: this.instructionsText } : {}),
    });
  }

  /** The model the next step goes to. */
  get modelAdapter(): ModelAdapter {
    return this.model;
  }

  /** A copy of the model context as it stands. */
  context(): ChatMessage[] {
    return structuredClone(this.modelContext.now());
  }

  summary(): SessionSummary {
    const { header } = this.log;
    return {
      id: header.id,
      title: this.title,
      workspace: header.workspace,
      created_at: header.created_at,
      updated_at: this.updatedAt,
      model: this.model.id,
      ...(header.parent ? { parent: header.parent } : {}),
    };
  }

  setModel(model: ModelAdapter): void {
    this.model = model;
  }

  setEffort(effort: ReasoningEffort): void {
    this.effort = effort;
  }

  /**
   * `mentions`: workspace paths mentioned with `@` (a folder ends in `/`); each is read for the model.
   * `images`: already kept in the session's folder (`session-images.ts`).
   */
  send(
    text: string,
    mentions?: readonly string[],
    images?: readonly StoredImage[],
    how: { mode?: SendMode } = {},
  ): Result<SendOutcome> {
    if (text.trim().length === 0) return { ok: false, error: 'The message is empty. Type what you want done.' };
    const input: UserInput = {
      text,
      ...(mentions && mentions.length > 0 ? { mentions } : {}),
      ...(images && images.length > 0 ? { images } : {}),
    };
    if (this.title === '') this.title = titleOf(text);
    return this.waiting.send(input, how.mode);
  }

  /** Stops the running turn; the messages still waiting stay, held until `sendQueued`. */
  async stop(reason?: string): Promise<Result<void>> {
    this.waiting.stopping();
    this.current?.controller.abort(reason === undefined ? undefined : new TurnStop(reason));
    await this.running;
    return { ok: true, value: undefined };
  }

  /** The todo list as it stands. */
  todoList(): TodoItem[] {
    return this.notes.todoList();
  }

  /** The person's todo list (ticked, added to, items removed): saved now, told to the model at its next step. */
  setTodos(todos: unknown): Promise<Result<TodoItem[]>> {
    return this.notes.setTodos(todos);
  }

  /**
   * Approve and start: the plan (as its card shows it) becomes a durable context note, its todos the
   * list, and a turn starts to carry it out — in the mode the host switched to first.
   */
  approvePlan(callId: string, plan: string, todos: TodoItem[]): Result<SendOutcome> {
    if (this.current)
      return { ok: false, error: 'A turn is running: stop it (Esc) or wait before you approve the plan.' };
    this.notes.approvePlan(callId, plan, todos);
    return this.send(PLAN_APPROVED_MESSAGE);
  }

  /** Keep planning: the proposal's card is answered (a durable `plan_kept`); the model is told nothing. */
  async keepPlanning(callId: string): Promise<Result<void>> {
    if (this.log.get(callId)?.name !== 'plan_propose')
      return { ok: false, error: 'No plan was proposed by this call in the open session.' };
    return this.notes.keepPlanning(callId);
  }

  /** The messages waiting, and whether they are held. */
  queue(): QueueState {
    return this.waiting.state();
  }

  /** Resolves once the queue's last change is on disk (rejects with the write's failure). */
  queueSaved(): Promise<void> {
    return this.waiting.saved();
  }

  editQueued(id: string, text: string): Result<void> {
    return this.waiting.edit(id, text);
  }

  removeQueued(id: string): Result<void> {
    return this.waiting.remove(id);
  }

  moveQueued(id: string, to: number): Result<void> {
    return this.waiting.move(id, to);
  }

  /** Send now: a held queue goes out again, its first message as the next turn (at once when none runs). */
  sendQueued(): Result<void> {
    return this.waiting.sendNow();
  }

  /** Holds the waiting messages: none goes out until `sendQueued`. */
  holdQueued(): Result<void> {
    return this.waiting.hold();
  }

  /** Stops one running tool call; the model receives its cancelled result and the turn goes on. */
  cancelCall(callId: string): Result<void> {
    if (this.registry.cancel(callId)) return { ok: true, value: undefined };
    return { ok: false, error: 'This call is not running any more; it may have finished already.' };
  }

  /** Runs a waiting command over a copy of the workspace in the sandbox: what it would change (Preview). */
  previewCall(callId: string): Promise<Result<CommandPreviewView>> {
    return this.questions.preview(callId);
  }

  /** Applies the call's preview and lets it return the preview's result without running again. */
  keepPreview(callId: string): Promise<Result<void>> {
    return this.questions.keepPreview(callId);
  }

  approve(callId: string, answer: ApprovalAnswer, review?: ReviewChoice): Result<void> {
    return this.questions.answer(callId, answer, review);
  }

  toolContent(callId: string): Result<ToolContent> {
    const content = this.log.get(callId);
    if (content) return { ok: true, value: content };
    return {
      ok: false,
      error: 'No result is recorded for this call in the open session: open its session again to see it.',
    };
  }

  /** Resolves once no turn runs (queued follow-ups included), with the last turn's outcome. */
  async idle(): Promise<TurnOutcome | null> {
    for (;;) {
      const running = this.running;
      const outcome = await running;
      if (running === this.running) return outcome;
    }
  }

  /** Writes an event that happened outside a turn (a code rewind) to the session, and tells the panel. */
  record(event: StatusEvent): Promise<void> {
    return this.sink.emit(event);
  }

  async close(reason?: string): Promise<void> {
    await this.stop(reason);
    await this.checkpoints.close();
    await this.log.close();
  }

  /** Compacts the model context now, between turns; a message sent meanwhile starts its turn after it. */
  compact(focus?: string): Promise<CompactionResult> {
    if (this.current) {
      return Promise.resolve({
        ok: false,
        error: 'A turn is running. Compact once it has finished, or stop it first.',
      });
    }
    const turnId = `turn-${randomUUID()}`;
    const controller = new AbortController();
    this.current = { turnId, controller };
    const how = { trigger: 'manual' as const, ...(focus?.trim() ? { focus } : {}) };
    const run = () => this.compactor.run(controller.signal, how, this.systemPrompt);
    const compaction = this.modelContext.loaded().then(run);
    this.running = compaction.then(() => {
      this.current = null;
      return this.waiting.startNext(turnId) ? this.running : null;
    });
    return compaction;
  }

  private startTurn(texts: UserInput[], reserved?: string): string {
    const turnId = reserved ?? `turn-${randomUUID()}`;
    const controller = new AbortController();
    this.current = { turnId, controller };
    this.running = this.runOne(turnId, controller, texts);
    return turnId;
  }

  private async runOne(turnId: string, controller: AbortController, texts: UserInput[]): Promise<TurnOutcome | null> {
    let outcome: TurnOutcome;
    const system = this.systemPrompt;
    const registry = this.registry;
    const { lifecycle } = this;
    try {
      const started = lifecycle
        ? await hookedTurnStart(
            lifecycle,
            this.instructions,
            turnId,
            texts.map((input) => input.text).join('\n\n'),
            controller.signal,
          )
        : { instructions: this.instructions };
      if ('blocked' in started) {
        this.waiting.blocked(texts);
        return await this.blockedTurn(turnId, started.blocked);
      }
      outcome = await runTurn(
        {
          turnId,
          model: this.model,
          registry: this.registry,
          sink: this.sink,
          system,
          // Read at each step: an MCP server's new tool list reaches the next request of this turn.
          get tools() {
            return toolSpecsOf(registry.list());
          },
          effort: this.effort,
          messages: await this.modelContext.loaded(),
          signal: controller.signal,
          maxSteps: this.maxSteps,
          callIds: this.callIds,
          newCallId: () => `call-${randomUUID()}`,
          takeQueued: () => this.waiting.steers(),
          recordReasoning: (blocks) => this.log.appendReasoning(blocks),
          beforeStep: async () => {
            await this.compactor.ifDue(turnId, system, controller.signal);
            await this.notes.tell(turnId, this.modelContext.messages);
          },
          endsTurn: () => this.notes.endsTurn(),
          meter: this.meter.forTurn(turnId, () => this.model.id),
          promptCache: this.promptCache,
          instructions: started.instructions,
          ...(lifecycle
            ? {
                beforeStop: () => lifecycle.beforeStop(turnId, controller.signal),
                steerSubmitted: (input: UserInput) =>
                  this.waiting.submitted(input, (prompt) =>
                    lifecycle.promptSubmitted(turnId, prompt, controller.signal),
                  ),
              }
            : {}),
        },
        texts,
      );
    } catch (error) {
      // The session file could not be written: stop what still runs of the turn (other calls of
      // the step), and the panel still hears that the turn ended.
      controller.abort();
      const message = `The turn stopped because the session could not be saved: ${(error as Error).message}`;
      outcome = { status: 'failed', usage: { input_tokens: 0, output_tokens: 0 }, error: message, aborted: false };
      Promise.resolve(this.forward.emit({ type: 'turn_failed', turn_id: turnId, error: message })).catch(
        () => undefined,
      );
    }
    this.current = null;
    // A steer that came as the turn ended, or the next queued message, starts the next turn.
    return this.waiting.startNext() ? this.running : outcome;
  }

  /** A prompt a UserPromptSubmit hook blocked: it never reaches the model, and the turn ends saying why. */
  private async blockedTurn(turnId: string, reason: string): Promise<TurnOutcome | null> {
    await this.sink.emit({ type: 'turn_failed', turn_id: turnId, error: reason });
    this.current = null;
    if (this.waiting.startNext()) return this.running;
    return { status: 'failed', usage: { input_tokens: 0, output_tokens: 0 }, error: reason, aborted: false };
  }

  private emitQuietly(event: StatusEvent): void {
    this.sink.emit(event).catch((error: unknown) => {
      console.error(`Could not record ${event.type} in ${this.log.file}: ${(error as Error).message}`);
    });
  }
}
