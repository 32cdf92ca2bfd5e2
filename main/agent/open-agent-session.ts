import path from 'node:path';
import type { ReasoningEffort } from '../../protocol/events.ts';
import { createModelAdapter, type ModelAdapter, type ModelAdapterOptions } from '../model/index.ts';
import { ModelDirectory } from '../model/model-directory.ts';
import type { StatusSink } from '../status/sink.ts';
import type { SessionCheckpoints } from '../tools/checkpoints/call-checkpoints.ts';
import type { CheckpointSettings } from '../tools/checkpoints/checkpoint-store.ts';
import type { CommandEnvPolicy } from '../tools/exec/command-env.ts';
import { SessionHooks } from '../tools/hooks/session-hooks.ts';
import { skillTool } from '../tools/skills/skill-tool.ts';
import { discoverSkills, type SkillSet } from '../tools/skills/skills.ts';
import type { McpServerConfig } from '../tools/mcp/mcp-config.ts';
import type { McpSecretStore } from '../tools/mcp/mcp-secrets.ts';
import type { PermissionGate } from '../tools/permission-gate.ts';
import { ProcessTable, type ProcessLimits } from '../tools/processes/process-table.ts';
import type { AnyTool } from '../tools/tool.ts';
import { AgentSession } from './agent-session.ts';
import { headlessGate } from './permissions.ts';
import { applyPermissions, kindRules, type SessionPermissions } from './session-permissions.ts';
import { SessionToolset } from './session-toolset.ts';
import { endLeftProcessesOnce, sweepWorkspaceOnce } from './start-sweep.ts';
import type { AgentOptions, ChildEnded } from './agents/agent-options.ts';
import { installAgentTool } from './agents/agent-door.ts';
import { asAgentOptions } from './agents/as-agent.ts';
import { repairChildSessions } from './agents/child-sessions.ts';
import { peekSession } from '../session/catalog.ts';

export interface OpenAgentSessionOptions {
  /** The workspace root, real path (workspaceRoot in workspace-files.ts resolves a folder a person named). */
  workspace: string;
  /** Where session folders are kept. */
  sessionsRoot: string;
  /** The id of a session to go on with; without it a new session starts. */
  resume?: string;
  /**
   * The model the session runs on: an adapter the host made (with its own keys and catalog), or an
   * id made into one here with the environment's keys and `modelOptions`, and closed with the session.
   */
  model: ModelAdapter | string;
  modelOptions?: ModelAdapterOptions;
  /** Where every status event goes (the panel, the CLI printer, a test recorder). */
  sink: StatusSink;
  /** The gate's rules; ignored when `gate` is given. Default: the `ask` mode. */
  permissions?: SessionPermissions;
  /** Nobody can answer a question (`aether run`): `ask` is refused with the flag that would allow it. */
  headless?: boolean;
  /** A gate of the caller's: a parent session's, so a nested session asks and is granted as its parent. */
  gate?: PermissionGate;
  effort?: ReasoningEffort;
  /** exec's environment policy, read at each call; default: the built-in policy. */
  commandEnv?: () => Promise<CommandEnvPolicy>;
  /** The largest file write_file and patch_file read whole, in bytes, read at each call; default 64 MiB. */
  maxEditBytes?: () => number | Promise<number>;
  /** The fraction of the window past which the next request compacts first, read before each step; null: off. */
  compactAt?: () => number | null;
  /** How long Anthropic keeps the cached prefix (settings' `prompt_cache_ttl`). */
  promptCacheTtl?: '5m' | '1h';
  /** Checkpoints on or off and their storage bound, read before each changing call. */
  checkpoints?: () => CheckpointSettings & { enabled: boolean };
  /**
   * Where the tools come from. A host that keeps its MCP servers across sessions passes its
   * toolset (and closes it itself); otherwise one is made for this session from `mcp` (no MCP
   * servers without it) and closed with it.
   */
  toolset?: SessionToolset;
  /** The folder of the person's mcp.json, where its secrets are kept, and servers besides its own, for a toolset made here. */
  mcp?: {
    home: string;
    secrets?: McpSecretStore;
    extra?: readonly McpServerConfig[];
    /** How a remote server's OAuth sign-in opens the person's browser. */
    signIn?: { open(url: URL): Promise<void> };
  };
  /** Only the tools it keeps are registered (a nested session's narrower set); default: every tool. */
  tools?: (tool: AnyTool) => boolean;
  /** Windows and prices for the context meter; default: a directory of this session's own. */
  models?: ModelDirectory;
  /**
   * Hooks: the app's home, whose settings.json (and the workspace's settings files) configure them
   * and where the approvals of the workspace's are kept; or the hooks a parent session runs. None without.
   */
  hooks?: { home: string } | SessionHooks;
  /** Skills: the app's home, whose `skills/` holds the person's (the workspace's are read too). None without. */
  skills?: { home: string };
  /** The session may hand work to agents (the `agent` tool): where their files are, their limits. */
  agents?: AgentOptions;
  /** Each tool as this session runs it (a child's writes take turns with its siblings'); after `tools`. */
  adapt?: (tool: AnyTool) => AnyTool;
  /** A child session: its parent and the `agent` call that started it (agents/agent-tool.ts). */
  agentOf?: { session: string; call_id: string; agent: string };
  /** A child session: its calls recorded in its parent's checkpoints, under the parent's `agent` call. */
  checkpointsWithin?: { checkpoints: SessionCheckpoints; callId: string };
  /** An agent's own instructions, after the system prompt's. */
  instructions?: string;
  /** Model steps one turn may take; default 50. */
  maxSteps?: number;
  /** Start the session as this agent (its instructions, tools, model, mode); AgentChoiceError says why it cannot. */
  as?: string;
  /** Set by the door: the agent a new session's header names. */
  asAgent?: string;
  /** How many background processes may run and how much of their output is kept, read at each start. */
  processLimits?: () => ProcessLimits | Promise<ProcessLimits>;
}

export interface OpenedAgentSession {
  session: AgentSession;
  /** The hooks it runs, with what in the settings files was left out and what waits for approval; null: none read. */
  hooks: SessionHooks | null;
  /** The skills the model was offered, and the SKILL.md files left out; null: none looked for. */
  skills: SkillSet | null;
  /** The session's tools' source: its MCP servers' problems are the host's to show. */
  toolset: SessionToolset;
  /** Its background processes (exec background or tty): they run until stopped or until `close`. */
  processes: ProcessTable;
  /**
   * Stops its background processes and the running turn (its turn_failed says `reason`), closes
   * the session file, and then what was opened for it alone: a toolset made here, the adapter made
   * from a model id.
   */
  close(reason?: string): Promise<void>;
}

/** How long the model's server may take to say its window before the session opens without it. */
const MODEL_INFO_TIMEOUT_MS = 3_000;

/**
 * The one door every host opens a working session through — the panel service for a new and a
 * reopened session, `aether run` for a new one, `--resume` and `--continue` — so each session is
 * put together the same way, and the hosts hold transport and presentation only:
 *
 *   1. the workspace's start sweep (stale temp files; once per workspace in a process);
 *   2. its tools: the built-in instrumenta and the MCP servers' (`toolset`, or one made from `mcp`);
 *   3. its permission gate: built from `permissions` (answered through `session.approve`, or
 *      refused with the flag that would allow it when `headless`), or the caller's `gate`;
 *   4. the model (an adapter, or one made from an id) and what is known of its window and prices;
 *   5. the session itself: AgentSession.start, or AgentSession.resume when `resume` names one.
 *
 *   const { session, close } = await openAgentSession({ workspace, sessionsRoot, model, sink, permissions });
 *
 * A nested agent (a session a tool call starts) comes through the same door with a narrower tool
 * set, a model of its own and its parent's gate, so it can do no more than its parent may, and
 * asks as its parent does:
 *
 *   await openAgentSession({ ...where, model: 'anthropic:…', sink, toolset: parent.toolset,
 *                            tools: (tool) => tool.gate.kind === 'read', gate: parent.session.gate })
 *
 * A failure to open closes what was opened for it and throws (SessionLockedError when another
 * process has the session open).
 */
export async function openAgentSession(given: OpenAgentSessionOptions): Promise<OpenedAgentSession> {
  // A session started as an agent goes on as it when resumed.
  // (A session that cannot be read is the resume's to report.)
  const resumed = given.resume ? await peekSession(given.sessionsRoot, given.resume).catch(() => null) : null;
  const as = given.as ?? resumed?.as_agent;
  const options = as ? { ...given, ...(await asAgentOptions(given, as)), as: undefined, asAgent: as } : given;
  const { workspace } = options;
  // A model id the environment cannot serve throws ModelConfigError before anything is opened.
  const ownModel = typeof options.model === 'string';
  const model =
    typeof options.model === 'string' ? createModelAdapter(options.model, options.modelOptions) : options.model;
  const toolset =
    options.toolset ??
    new SessionToolset({
      workspace,
      ...(options.mcp ? { mcpHome: options.mcp.home } : {}),
      ...(options.mcp?.secrets ? { mcpSecrets: options.mcp.secrets } : {}),
      ...(options.mcp?.extra ? { mcpExtra: options.mcp.extra } : {}),
      ...(options.mcp?.signIn ? { mcpSignIn: options.mcp.signIn } : {}),
    });
  const processes = new ProcessTable(options.processLimits ? { limits: options.processLimits } : {});
  const closeOwn = async (): Promise<void> => {
    await processes.close();
    if (!options.toolset) await toolset.close();
    if (ownModel) await model.close?.();
  };
  try {
    await sweepWorkspaceOnce(workspace);
    // A resumed session's log may show background processes the app died with: they are ended
    // (with whatever else it left) before the repair records them stopped when the app closed.
    if (options.resume) await endLeftProcessesOnce();
    const models = options.models ?? new ModelDirectory();
    // A compatible server's window, for the context meter; one that does not answer is the model step's to report.
    await models.learn(model.id, { timeoutMs: MODEL_INFO_TIMEOUT_MS });
    const hooks =
      options.hooks instanceof SessionHooks || options.hooks === undefined
        ? (options.hooks ?? null)
        : await SessionHooks.load({
            home: options.hooks.home,
            workspace,
            ...(options.commandEnv ? { envPolicy: options.commandEnv } : {}),
          });
    const skills = options.skills ? await discoverSkills({ home: options.skills.home, workspace }) : null;
    const filter = options.tools;
    const permissions = options.permissions ?? { mode: 'ask' };
    const gate = options.gate ?? (options.headless ? headlessGate(permissions) : undefined);
    const tools = [
      ...(await toolset.tools({
        ...(options.commandEnv ? { commandEnv: options.commandEnv } : {}),
        ...(options.maxEditBytes ? { maxEditBytes: options.maxEditBytes } : {}),
        ...(filter ? { filter } : {}),
        processes,
      })),
      ...(skills?.skills.length ? [skillTool(skills.skills, workspace)].filter(filter ?? (() => true)) : []),
    ];
    const sessionOptions = {
      workspace,
      model,
      sink: options.sink,
      ...(gate ? { gate } : { rules: kindRules(permissions) }),
      ...(options.effort ? { effort: options.effort } : {}),
      tools: options.adapt ? tools.map(options.adapt) : tools,
      ...(options.agentOf ? { agentOf: options.agentOf } : {}),
      // A child's narrowing holds for the session's own tools too (todo_write, plan_propose).
      ...(options.agentOf && filter ? { ownTools: filter } : {}),
      ...(options.checkpointsWithin ? { checkpointsWithin: options.checkpointsWithin } : {}),
      ...(options.instructions ? { instructions: options.instructions } : {}),
      ...(options.asAgent ? { asAgent: options.asAgent } : {}),
      ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
      modelInfo: (id: string) => models.info(id),
      ...(options.compactAt ? { compactAt: options.compactAt } : {}),
      ...(options.promptCacheTtl ? { promptCacheTtl: options.promptCacheTtl } : {}),
      ...(options.checkpoints ? { checkpoints: options.checkpoints } : {}),
      ...(hooks ? { hooks } : {}),
      // The person's skills lie outside the workspace: read_file may read their folders' files.
      ...(options.skills ? { readableRoots: [path.join(options.skills.home, 'skills')] } : {}),
    };
    const session = options.resume
      ? await AgentSession.resume({ ...sessionOptions, root: options.sessionsRoot, id: options.resume })
      : await AgentSession.start({ ...sessionOptions, root: options.sessionsRoot });
    if (!gate) applyPermissions(session.gate, permissions);
    // A crash while children ran left their files open too: each is closed as this one was.
    if (options.resume) await repairChildSessions(session.log.dir);
    await installAgentTool(session, withSubagentStop(options, session), openAgentSession, { toolset, hooks }).catch(
      async (error: unknown) => {
        await session.close();
        throw error;
      },
    );
    // New processes take the ids after those the reopened session shows (p3 after p1 and p2).
    processes.continueAfter(
      (session.reopened?.events ?? []).flatMap((e) => (e.type === 'process_state' ? [e.process.id] : [])),
    );
    // Each background process's start and end is written to the session (replay shows how it ended).
    processes.recordTo((info) => session.record({ type: 'process_state', process: info }));
    const detach = toolset.follow(session.registry, filter);
    return {
      session,
      hooks,
      skills,
      toolset,
      processes,
      close: async (reason) => {
        try {
          // Their last records go to the session's log before it closes.
          await processes.close();
          await session.close(reason);
        } finally {
          detach();
          await closeOwn();
        }
      },
    };
  } catch (error) {
    await closeOwn();
    throw error;
  }
}

/** The agents' options with a child's end told to the session's SubagentStop hooks as well. */
function withSubagentStop(options: OpenAgentSessionOptions, session: AgentSession): OpenAgentSessionOptions {
  const { agents } = options;
  const lifecycle = session.lifecycle;
  if (!agents || !lifecycle) return options;
  const childEnded = async (ended: ChildEnded): Promise<void> => {
    await agents.childEnded?.(ended);
    const input = {
      tool_use_id: ended.callId,
      agent: ended.echo.agent,
      agent_session_id: ended.session,
      agent_transcript_path: ended.file,
      ending: ended.echo.ending,
    };
    await lifecycle.subagentStopped(input, undefined, new AbortController().signal);
  };
  return { ...options, agents: { ...agents, childEnded } };
}
