import type { z } from 'zod';
import type { ApprovalRequest } from '../../protocol/events.ts';
import type { ToolProgress } from '../../protocol/tools.ts';
import type { ToolKind } from '../../protocol/values.ts';

// What a tool is: its schema, its execute, its model-facing renderer. One file per tool declares
// one of these; the registry runs every call through the same pipeline.

/** Gate categories: the permission gate answers per kind, and `session` approvals apply per kind. */
export type { ToolKind };

export interface PathAccess {
  path: string;
  access: 'read' | 'write';
}

export interface DispatchResult {
  callId: string;
  content: string;
  isError: boolean;
  result?: unknown;
}

export interface DispatchOptions {
  signal?: AbortSignal;
  /**
   * Called when the nested call starts waiting for the person to answer an approval; the function
   * it returns is called when the answer comes. A caller with a time limit (run_code) stops its
   * clock meanwhile.
   */
  onApprovalWait?: () => () => void;
}

export interface ToolContext {
  callId: string;
  /** The workspace root, real path. */
  workspace: string;
  signal: AbortSignal;
  /** Live progress for the card: everything captured so far. Never durable, never for the model. */
  report(progress: ToolProgress): void;
  /**
   * Run a nested call through the same registry, gate and confinement (Code Mode). `signal` cancels
   * this one call (with the outer call's signal, either stops it).
   */
  dispatch(name: string, args: unknown, options?: DispatchOptions): Promise<DispatchResult>;
  /** The confined real path the confinement policy resolved for one of `paths(args)`. */
  resolvedPath(path: string): string;
  /** Ask the person (through the permission gate) to approve something the tool found mid-run. */
  requestApproval(request: ApprovalRequest): Promise<boolean>;
  /** The session's folder: where spilled output files go. */
  sessionDir: string;
  /** The largest file write_file and patch_file read whole (the max_edit_file_mib setting); default 64 MiB. */
  maxEditBytes?: number;
}

export interface ToolDefinition<Args = unknown, Result = unknown> {
  name: string;
  description: string;
  kind: ToolKind;
  schema: z.ZodType<Args>;
  /** Paths the call touches; the confinement policy resolves them before execute. */
  paths?(args: Args): PathAccess[];
  /** The command rules such as `exec(npm test *)` match: exec's command line; ssh_exec's with `host:` before it. */
  ruleCommand?(args: Args): { prefix: string; line: string };
  /** What the permission gate shows when it asks. */
  approval?(args: Args): Omit<ApprovalRequest, 'scope'>;
  execute(args: Args, ctx: ToolContext): Promise<Result>;
  /** Model-facing text of a successful result. */
  render(result: Result, args: Args): string;
  /** A result that is itself a failure (e.g. a patch that did not apply). */
  isError?(result: Result): boolean;
  /** The card decodes the structured result, so the echo carries it instead of the text. */
  structuredEcho?: boolean;
  /**
   * The structured echo the card decodes, when the result itself is too big to echo: the tool keeps
   * it small (a few KiB), since it passes through uiPreview uncut. Also used when the tool's own
   * isError judged the result a failure, so a failed command's card still shows how it ended.
   */
  echo?(result: Result): Record<string, unknown>;
  /**
   * The tool already bounds its output by paging (read_file: 2000 lines a page, a footer saying how
   * to continue), so spilling a page would only send the model to read the spill file page by page.
   */
  pagesItself?: boolean;
  /**
   * The shape of the structured result, for programs that call this tool from run_code: its
   * declarations of `tools.*` type the value a call resolves to (`unknown` without it).
   */
  resultSchema?: z.ZodType<Result>;
}

/** Erases a tool's argument and result types so tools of every shape fit one registry. */
export type AnyTool = ToolDefinition<never, never>;

export function defineTool<Args, Result>(tool: ToolDefinition<Args, Result>): AnyTool {
  return tool as unknown as AnyTool;
}

/** An error whose message is meant for the model and the person as it is. */
export class ToolError extends Error {
  override name = 'ToolError';
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}
