import path from 'node:path';
import {
  AGENT_DEFAULT_PARALLEL,
  AGENT_MAX_DEPTH,
  AGENT_TOOL_NAME,
  agentArgsSchema,
  agentEchoSchema,
  agentEndingWords,
  agentSummaryLine,
  type AgentArgs,
  type AgentDefinition,
  type AgentEcho,
} from '../../../protocol/agents.ts';
import { ECHO_TEXT_LIMIT } from '../../../protocol/echo.ts';
import { errorMessage } from '../../../protocol/errors.ts';
import type { ModelAdapter } from '../../model/types.ts';
import type { PermissionGate } from '../../tools/permission-gate.ts';
import { declareEcho, defineTool, ToolError, type AnyTool, type ToolContext } from '../../tools/tool.ts';
import { callsChanges } from '../../tools/checkpoints/turn-changes.ts';
import type { AgentSession } from '../agent-session.ts';
import { turnChangesText } from './agent-changes.ts';
import { problemLine, readAgentCatalog, type AgentCatalog } from './agent-catalog.ts';
import { AgentTrust } from './agent-trust.ts';
import { AGENT_DEFAULT_MAX_STEPS, AGENT_DEFAULT_REPEATED_STEPS, type AgentOptions } from './agent-options.ts';
import { ChildGate } from './child-gate.ts';
import { ChildRuns, ChildWatch } from './child-watch.ts';
import { FileTurns, takingTurns } from './file-turns.ts';
import { Slots } from './slots.ts';

// The `agent` tool: a piece of work handed to a child session with a fresh context. The child is
// opened through the same front door as every session (with a narrower tool set, a model of its
// own and its parent's gate, seen through the child), runs its task to its end, and its final
// answer is what the parent's model reads, with a line of what it changed and cost. The child's
// session file lives in the parent's folder (agents/), linked to the parent and this call.

/** What the tool needs of the session it belongs to and of the door children come through. */
export interface AgentHost {
  workspace: string;
  options: AgentOptions;
  /** The session the tool belongs to, once it is open. */
  parent(): AgentSession;
  /** Opens a child through the front door with the parent's settings. */
  open(child: ChildOpening): Promise<{ session: AgentSession; close(reason?: string): Promise<void> }>;
  /** A model for an id (an agent's own, or the call's). */
  modelFor(id: string): ModelAdapter | Promise<ModelAdapter>;
}

export interface ChildOpening {
  sessionsRoot: string;
  model: ModelAdapter;
  gate: PermissionGate;
  tools: (tool: AnyTool) => boolean;
  adapt: (tool: AnyTool) => AnyTool;
  agentOf: { session: string; call_id: string; agent: string };
  instructions: string;
  effort?: AgentDefinition['effort'];
  maxSteps: number;
  /** The child may start agents of its own (its definition allows nesting and the depth limit is not reached). */
  nested: AgentOptions | null;
  sink: ChildWatch;
}

interface AgentResult {
  echo: AgentEcho;
  /** The whole answer, for the model. */
  answer: string;
}

/** The tool, and `ready`: its list of agents read (the door waits for it before the first request). */
export function agentTool(host: AgentHost): { tool: AnyTool; ready: () => Promise<unknown> } {
  const { options } = host;
  const depth = options.depth ?? 0;
  const slots = new Slots(options.parallel ?? AGENT_DEFAULT_PARALLEL);
  const turns = new FileTurns();
  const siblings = new ChildRuns();
  const trust = options.home ? new AgentTrust(options.home) : null;
  let catalog: AgentCatalog = { agents: [], problems: [] };
  const refresh = async (): Promise<AgentCatalog> => {
    catalog = await readAgentCatalog({ workspace: host.workspace, ...(options.home ? { home: options.home } : {}) });
    return catalog;
  };
  const model = {
    get description(): string {
      return describeAgents(catalog);
    },
    schema: agentArgsSchema,
    render: (result: AgentResult) => renderForModel(result),
    isError: (result: AgentResult) => result.echo.ending !== 'completed',
  };
  const tool = defineTool<AgentArgs, AgentResult>({
    name: AGENT_TOOL_NAME,
    model,
    // Starting an agent is admitted like a read: each of the child's own calls is judged by the gate.
    // One whose child may write is recorded around as a write is: rewinding the parent covers it.
    gate: { kind: 'read', mayChange: (args) => mayChange(args, catalog, host.parent()) },
    card: {
      describe: (args) => ({
        title: `Agent ${args.agent ?? 'general'}: ${firstLine(args.task)}`,
        subtitle: args.agent ?? 'general',
        detail: args.task,
      }),
      echo: declareEcho(agentEchoSchema, (result: AgentResult) => result.echo),
    },
    execute: async (args, ctx) => {
      const { problems, agents } = await refresh();
      const name = args.agent ?? 'general';
      const definition = agents.find((agent) => agent.name === name);
      if (!definition) {
        const bad = problems.filter((problem) => path.basename(problem.file, '.md') === name);
        const why =
          bad.length > 0
            ? ` Its file could not be read: ${bad.map((p) => problemLine(p, host.workspace)).join('; ')}.`
            : '';
        throw new ToolError(
          `No agent is named "${name}".${why} The agents are: ${agents.map((agent) => agent.name).join(', ')}.`,
        );
      }
      const parent = host.parent();
      const filter = childTools(definition, args, parent, depth);
      const childModel = await chooseModel(definition, args, host, parent);
      // A model made for this child alone is closed with it.
      const own = childModel === parent.modelAdapter ? null : childModel;
      try {
        await approveWorkspaceAgent(definition, ctx, host.workspace, trust);
        const release = await slots.take(ctx.signal);
        try {
          return await runChild({ host, ctx, args, definition, filter, model: childModel, turns, depth, siblings });
        } finally {
          release();
        }
      } finally {
        await own?.close?.();
      }
    },
  });
  return { tool, ready: refresh };
}

/** The tool's description: what it does, and each agent the model may name. */
function describeAgents(catalog: AgentCatalog): string {
  const lines = [
    'Hands a task to an agent: a fresh session with its own context that works on it alone and answers with its result. Only its final answer comes back to you, so use it for research, reviews and self-contained work that would fill your context.',
    'Several agent calls in one step run in parallel. Give each a complete task: it sees nothing of this conversation.',
    '',
    'Agents:',
    ...catalog.agents.map((agent) => `- ${agent.name}: ${agent.description}`),
  ];
  return lines.join('\n');
}

async function approveWorkspaceAgent(
  definition: AgentDefinition,
  ctx: ToolContext,
  workspace: string,
  trust: AgentTrust | null,
): Promise<void> {
  if (definition.origin !== 'workspace' || !definition.fingerprint) return;
  if (trust && (await trust.isApproved(workspace, definition))) return;
  const shown = path.relative(workspace, definition.file ?? '');
  const allowed = await ctx.requestApproval({
    title: `Run the agent "${definition.name}" defined by this workspace`,
    detail: `${shown} defines it:\n\n${definition.instructions || '(no instructions)'}\n\nIt runs with your permissions, asking as this session asks. Approve only an agent you trust; a change to its file asks again.`,
    scope: 'read',
  });
  if (!allowed)
    throw new ToolError(
      `The agent "${definition.name}" (${shown}) was not approved, so it did not run. It runs once the person approves it.`,
    );
  await trust?.approve(workspace, [definition]);
}

/** Whether the call's child may change files: not when its agent is read-only or the call names only reads. */
function mayChange(args: AgentArgs, catalog: AgentCatalog, parent: AgentSession): boolean {
  const definition = catalog.agents.find((agent) => agent.name === (args.agent ?? 'general'));
  if (definition?.permissionMode === 'read-only') return false;
  const named = args.tools ?? definition?.tools;
  return !named || named.some((name) => parent.registry.get(name)?.gate.kind !== 'read');
}

/** The child's tools: the parent's, minus `agent` unless nesting is allowed, narrowed by the definition and the call. */
function childTools(
  definition: AgentDefinition,
  args: AgentArgs,
  parent: AgentSession,
  depth: number,
): (tool: AnyTool) => boolean {
  const nesting = definition.nesting === true && depth + 1 < AGENT_MAX_DEPTH;
  const own = parent.registry.list().map((tool) => tool.name);
  // A child's plan would reach no person to approve it: plan_propose stays the parent's.
  const available = new Set(own.filter((name) => (name !== AGENT_TOOL_NAME || nesting) && name !== 'plan_propose'));
  const check = (names: readonly string[], whose: string): void => {
    const missing = names.filter((name) => !available.has(name) && !(name === AGENT_TOOL_NAME && !nesting));
    if (missing.length > 0)
      throw new ToolError(
        `${whose} names ${missing.length === 1 ? 'a tool' : 'tools'} that this session does not have: ${missing.join(', ')}. The tools are: ${[...available].join(', ')}.`,
      );
  };
  if (definition.tools)
    check(definition.tools, `The agent ${definition.name}${definition.file ? ` (${definition.file})` : ''}`);
  if (args.tools) check(args.tools, 'The call');
  const allowed = new Set(
    [...available].filter(
      (name) => (definition.tools ?? [...available]).includes(name) && (args.tools ?? [...available]).includes(name),
    ),
  );
  const readOnly = definition.permissionMode === 'read-only';
  return (tool) => allowed.has(tool.name) && (!readOnly || tool.gate.kind === 'read');
}

async function chooseModel(
  definition: AgentDefinition,
  args: AgentArgs,
  host: AgentHost,
  parent: AgentSession,
): Promise<ModelAdapter> {
  const id = args.model ?? definition.model ?? (definition.name === 'explore' ? host.options.exploreModel : undefined);
  if (!id || id === parent.modelAdapter.id) return parent.modelAdapter;
  try {
    return await host.modelFor(id);
  } catch (error) {
    throw new ToolError(`The agent ${definition.name} cannot run on the model ${id}: ${errorMessage(error)}`);
  }
}

interface ChildRun {
  host: AgentHost;
  ctx: ToolContext;
  args: AgentArgs;
  definition: AgentDefinition;
  filter: (tool: AnyTool) => boolean;
  model: ModelAdapter;
  turns: FileTurns;
  depth: number;
  /** The children of this session's calls that are running (their writes are not this one's). */
  siblings: ChildRuns;
}

async function runChild(run: ChildRun): Promise<AgentResult> {
  const { host, ctx, args, definition, model } = run;
  const { options } = host;
  const parent = host.parent();
  const started = Date.now();
  let stopChild = (_reason: string): void => undefined;
  const watch = new ChildWatch({
    agent: definition.name,
    startedAt: new Date(started).toISOString(),
    limits: {
      repeatedSteps: options.repeatedSteps ?? AGENT_DEFAULT_REPEATED_STEPS,
      ...(options.budget?.tokens !== undefined ? { tokens: options.budget.tokens } : {}),
      ...(options.budget?.cost !== undefined ? { cost: options.budget.cost } : {}),
    },
    stop: (reason) => stopChild(reason),
    report: (status) =>
      ctx.report({ text: statusLine(status.tool, status.steps), cut_bytes: 0, total_bytes: 0, agent: status }),
  });
  const nesting = definition.nesting === true && run.depth + 1 < AGENT_MAX_DEPTH;
  run.siblings.join(watch);
  const child = await host
    .open({
      sessionsRoot: path.join(parent.log.dir, 'agents'),
      model,
      gate: new ChildGate(parent.gate, {
        agent: definition.name,
        callId: ctx.callId,
        readOnly: definition.permissionMode === 'read-only',
      }),
      tools: run.filter,
      adapt: (tool) => takingTurns(tool, run.turns),
      agentOf: { session: parent.id, call_id: ctx.callId, agent: definition.name },
      instructions: definition.instructions,
      ...(definition.effort ? { effort: definition.effort } : {}),
      maxSteps: options.maxSteps ?? AGENT_DEFAULT_MAX_STEPS,
      nested: nesting ? { ...options, depth: run.depth + 1 } : null,
      sink: watch,
    })
    .catch((error: unknown) => {
      run.siblings.leave(watch);
      throw new ToolError(`The agent ${definition.name} could not start: ${errorMessage(error)}`);
    });
  const { session } = child;
  watch.session = session.id;
  stopChild = (reason) => void session.stop(reason);
  const onStop = (): void => stopChild(`Stopped: the session that started the agent was stopped.`);
  ctx.signal.addEventListener('abort', onStop, { once: true });
  let echo: AgentEcho;
  try {
    ctx.report({ text: 'starting', cut_bytes: 0, total_bytes: 0, agent: watch.current() });
    const sent = session.send(await taskOf(args.task, definition, parent, ctx.callId));
    if (!sent.ok) throw new ToolError(`The agent ${definition.name} could not take its task: ${sent.error}`);
    const outcome = await session.idle();
    const ending =
      watch.stoppedFor ?? (ctx.signal.aborted ? 'stopped' : outcome?.status === 'completed' ? 'completed' : 'failed');
    const failure = outcome?.status === 'failed' ? outcome.error : '';
    const answer = ending === 'completed' ? watch.lastWords : lastWords(watch.lastWords, watch.stopReason || failure);
    echo = {
      kind: 'agent',
      agent: definition.name,
      task: args.task,
      session: session.id,
      model: model.id,
      ending,
      answer,
      steps: watch.steps,
      input_tokens: watch.inputTokens,
      output_tokens: watch.outputTokens,
      ...(watch.cost !== undefined ? { cost: watch.cost } : {}),
      changed: await changedBy(watch, parent, run.siblings),
      duration_ms: Date.now() - started,
    };
  } finally {
    ctx.signal.removeEventListener('abort', onStop);
    run.siblings.leave(watch);
    await child.close();
  }
  // Where a child's end is told (a SubagentStop hook): its session file is closed and complete.
  await options.childEnded?.({
    parentSession: parent.id,
    callId: ctx.callId,
    session: session.id,
    file: session.file,
    echo,
  });
  return { echo: { ...echo, answer: echo.answer.slice(0, ECHO_TEXT_LIMIT) }, answer: echo.answer };
}

/** The task as the child gets it: a reviewer's carries the changes of the parent's turn so far. */
async function taskOf(
  task: string,
  definition: AgentDefinition,
  parent: AgentSession,
  callId: string,
): Promise<string> {
  if (!definition.reviewsTurn) return task;
  const changes = await turnChangesText(parent, callId).catch(
    (error: unknown) =>
      `The changes of this turn could not be read (${errorMessage(error)}): find them with the tools.`,
  );
  return changes === null ? task : `${task}\n\n${changes}`;
}

/**
 * The files the child changed: those its writes and patches name, and what changed around its other
 * changing calls (commands…) — less what a sibling running beside it wrote itself.
 */
async function changedBy(watch: ChildWatch, parent: AgentSession, siblings: ChildRuns): Promise<string[]> {
  const files = new Set(watch.changed);
  if (watch.spans.length > 0) {
    const store = await parent.checkpoints.store().catch(() => null);
    const theirs = siblings.writtenBesides(watch);
    for (const file of store ? await callsChanges(store, watch.spans).catch(() => []) : [])
      if (!theirs.has(file)) files.add(file);
  }
  return [...files].sort();
}

function lastWords(text: string, why: string): string {
  const said = text.trim() === '' ? 'It said nothing before it ended.' : `Its last words:\n${text}`;
  return `${why || 'It ended without an answer.'}\n${said}`;
}

/** What the parent's model reads: the answer, then one line of what the child did. */
function renderForModel(result: AgentResult): string {
  const { echo } = result;
  // No time: what the model reads of a call is the same whenever it ran.
  const { duration_ms: _time, ...untimed } = echo;
  const line = agentSummaryLine(untimed);
  const head = echo.ending === 'completed' ? '' : `The agent ${echo.agent} ${agentEndingWords(echo.ending)}. `;
  return `${head}${result.answer || '(The agent gave no answer.)'}\n\n[agent ${echo.agent}: ${line}]`;
}

function statusLine(tool: string | undefined, steps: number): string {
  return `${tool ?? 'thinking'} · step ${steps + 1}`;
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
