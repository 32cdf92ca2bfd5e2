import { AGENT_MAX_DEPTH } from '../../../protocol/agents.ts';
import { createModelAdapter } from '../../model/index.ts';
import type { AgentSession } from '../agent-session.ts';
import type { OpenAgentSessionOptions, OpenedAgentSession } from '../open-agent-session.ts';
import { agentTool, type ChildOpening } from './agent-tool.ts';

// What the front door does for a session that may start agents: it registers the `agent` tool,
// whose children come back through the same door with what the parent was opened with (the
// workspace, the toolset, the settings' readers) and what the child's definition narrows.

export async function installAgentTool(
  session: AgentSession,
  options: OpenAgentSessionOptions,
  open: (options: OpenAgentSessionOptions) => Promise<OpenedAgentSession>,
  parentParts: Pick<OpenedAgentSession, 'toolset' | 'hooks'>,
): Promise<void> {
  const agents = options.agents;
  if (!agents || (agents.depth ?? 0) >= AGENT_MAX_DEPTH) return;
  const inherited = {
    workspace: options.workspace,
    toolset: parentParts.toolset,
    // A child runs its parent's hooks (their approvals were the parent's to give).
    ...(parentParts.hooks ? { hooks: parentParts.hooks } : {}),
    ...(options.commandEnv ? { commandEnv: options.commandEnv } : {}),
    ...(options.maxEditBytes ? { maxEditBytes: options.maxEditBytes } : {}),
    ...(options.compactAt ? { compactAt: options.compactAt } : {}),
    ...(options.checkpoints ? { checkpoints: options.checkpoints } : {}),
    ...(options.models ? { models: options.models } : {}),
  };
  const { tool, ready } = agentTool({
    workspace: options.workspace,
    options: agents,
    parent: () => session,
    modelFor: agents.modelFor ?? ((id) => createModelAdapter(id, options.modelOptions)),
    open: (child: ChildOpening) =>
      open({
        ...inherited,
        sessionsRoot: child.sessionsRoot,
        model: child.model,
        sink: child.sink,
        gate: child.gate,
        tools: child.tools,
        adapt: child.adapt,
        agentOf: child.agentOf,
        checkpointsWithin: { checkpoints: session.checkpoints, callId: child.agentOf.call_id },
        instructions: child.instructions,
        maxSteps: child.maxSteps,
        ...(child.effort ? { effort: child.effort } : {}),
        ...(child.nested ? { agents: child.nested } : {}),
      }),
  });
  await ready();
  session.registry.register(tool);
}
