import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { GateSubject } from './permission-gate.ts';
import type { PathAccess, ToolDefinition } from './tool.ts';
import { displayPath } from './workspace.ts';

// What the permission gate's rules see of a call: each path as the model named it and as it
// resolves (links followed), both relative to the workspace, the command a tool runs and the host
// it reaches.

/** Made at once for a call that names no path; a call with paths waits for the folder's case probe. */
export function gateSubject(
  tool: ToolDefinition<unknown, unknown>,
  args: unknown,
  workspace: string,
  resolved: ReadonlyMap<string, string>,
  accesses: readonly PathAccess[] = tool.gate.paths?.(args) ?? [],
): GateSubject | Promise<GateSubject> {
  const command = tool.gate.ruleCommand?.(args);
  const host = tool.gate.ruleHost?.(args);
  const policy = tool.gate.policy?.();
  const subject: GateSubject = {};
  if (command) subject.command = command;
  if (host) subject.host = host;
  if (tool.gate.leavesSandbox?.(args)) subject.outsideSandbox = true;
  if (policy) subject.toolPolicy = { effect: policy, rule: `${policy} for ${tool.name} on the MCP servers screen` };
  if (accesses.length === 0) return subject;
  const paths = accesses.map((access) => ({
    named: displayPath(workspace, path.resolve(workspace, access.path)),
    real: displayPath(workspace, resolved.get(access.path) ?? path.resolve(workspace, access.path)),
    access: access.access,
  }));
  return caseInsensitiveFolder(workspace).then((foldCase) => ({ paths, foldCase, ...subject }));
}

const probed = new Map<string, Promise<boolean>>();

/**
 * Whether names in this folder's file system ignore case (macOS and Windows by default): the folder
 * found again under its name with the case of its letters swapped is the same folder.
 */
export function caseInsensitiveFolder(folder: string): Promise<boolean> {
  let answer = probed.get(folder);
  if (!answer) {
    answer = probe(folder);
    probed.set(folder, answer);
  }
  return answer;
}

async function probe(folder: string): Promise<boolean> {
  for (let current = folder; ; current = path.dirname(current)) {
    const name = path.basename(current);
    const swapped = [...name].map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()));
    const other = path.join(path.dirname(current), swapped.join(''));
    if (other !== current) {
      const [original, twin] = await Promise.all([stat(current), stat(other).catch(() => null)]);
      return twin !== null && twin.ino === original.ino && twin.dev === original.dev;
    }
    if (path.dirname(current) === current) return process.platform === 'darwin' || process.platform === 'win32';
  }
}
