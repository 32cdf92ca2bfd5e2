import path from 'node:path';
import { sessionsRoot } from '../session/paths.ts';
import type { StatusSink } from '../status/sink.ts';
import { builtinToolsFor } from '../tools/builtin-loaders.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../tools/permission-gate.ts';
import { ToolRegistry } from '../tools/registry.ts';
import type { AnyTool } from '../tools/tool.ts';

// A tool run outside any session (`aether tool <name> '<json args>'`): one call through the whole
// pipeline — validation, confinement, the render and the echo — with no model and no session log.
// The person typed the call, so it is its own approval: every kind is allowed, and a question a
// tool asks mid-run (an unknown host key) is refused, since nobody can answer it.

export interface DirectToolRun {
  /** The workspace root, real path. */
  workspace: string;
  /** `--sessions`: the folder whose `tool-<time>/` keeps what the call leaves (a spilled output, an MCP result's blobs). */
  sessions: string | undefined;
  /** The tool to call: only its module loads (all the built-ins for run_code or a name that is not one). */
  name: string;
  /** Where the call's status events go. */
  sink: StatusSink;
  /** More tools to register beside the built-in (an MCP server's, started by the caller). */
  more?: readonly AnyTool[];
}

/** The registry a direct call runs through; its folder is made only when the call leaves something. */
export async function directToolRegistry(run: DirectToolRun): Promise<ToolRegistry> {
  const sessionDir = path.join(
    sessionsRoot({ flag: run.sessions }),
    `tool-${new Date().toISOString().replace(/[:.]/g, '-')}`,
  );
  const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'Nobody can answer a question here.'));
  const registry = new ToolRegistry({
    workspace: run.workspace,
    sessionDir,
    sink: run.sink,
    gate,
    readableRoots: [sessionDir],
  });
  registry.register(...(await builtinToolsFor(run.name)), ...(run.more ?? []));
  return registry;
}
