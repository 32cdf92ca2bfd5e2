import type { z } from 'zod';
import type { CallDescription, EchoShape } from '../../protocol/echo.ts';
import type { ApprovalRequest } from '../../protocol/events.ts';
import type { ToolProgress } from '../../protocol/tools.ts';
import type { ToolKind } from '../../protocol/values.ts';
import type { ImageRef } from '../../protocol/composer.ts';
import type { ReviewedChange, ReviewProposal } from '../../protocol/review.ts';
import type { SandboxRules } from '../../protocol/sandbox.ts';
import type { GateDecision, GateSubject } from './permission-gate.ts';

// What a tool is: what the model is told and reads, what the gate judges, how its card shows a
// call, and its execute. One file per tool declares one of these; every call runs through the same
// phases (tool-call.ts).

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

/** An image a tool's result carries: its type read from its bytes, named by their sha256. */
export interface ToolImage extends ImageRef {
  data: Uint8Array;
}

export interface ToolContext<Proposal extends ReviewProposal = ReviewProposal> {
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
  /**
   * Judge something more the call reaches as the gate judged the call itself — rules, the mode, a
   * question with `request` — such as a fetch redirected to another host.
   */
  permits(subject: GateSubject, request: ApprovalRequest): Promise<GateDecision>;
  /** The allow rule the person wrote whose pattern names this subject (net(localhost)), or null. */
  allowRuleFor(subject: GateSubject): string | null;
  /** The session's folder: where spilled output files go. */
  sessionDir: string;
  /** The rules of the sandbox commands run in (the `sandbox` mode); null or absent: none. */
  readonly sandbox?: SandboxRules | null;
  /** The person reviewed the change `proposeReview` proposed, hunk by hunk: write only the hunks they chose. */
  review?: ReviewedChange<Proposal>;
}

/**
 * A tool, its members grouped by who reads them: `model` is what the model is told and reads of
 * each call; `gate` what the permission gate judges (and confinement resolves) and what its
 * question shows; `card` how the panel shows a call. Most tools need only a name, a description,
 * a schema, a render, a gate kind and an execute.
 */
export interface ToolDefinition<Args = unknown, Result = unknown, Proposal extends ReviewProposal = ReviewProposal> {
  /** What the model calls it by: `read_file`, `mcp__server__tool`. */
  name: string;
  model: ToolModelSide<Args, Result>;
  gate: ToolGateSide<Args, Proposal>;
  /** Without it the card has no subtitle, the question shows the arguments as JSON, and the echo is text. */
  card?: ToolCardSide<Args, Result>;
  execute(args: Args, ctx: ToolContext<Proposal>): Promise<Result>;
}

/** What the model is told of a tool (its description and arguments) and reads of each call. */
export interface ToolModelSide<Args, Result> {
  description: string;
  schema: z.ZodType<Args>;
  /** The text of a successful result. */
  render(result: Result, args: Args): string;
  /** A result that is itself a failure (e.g. a patch that did not apply). */
  isError?(result: Result): boolean;
  /**
   * Images of the result for models that take images: the content store keeps them (the session
   * log in the session's folder, by hash) and they go to the model with the content.
   */
  images?(result: Result): readonly ToolImage[];
  /**
   * The arguments' JSON Schema as the model is told it, when the tool brings its own (an MCP
   * server's tool); otherwise it is generated from `schema`.
   */
  inputJsonSchema?: Record<string, unknown>;
  /**
   * The same verdict as `schema.safeParse`, from a validator the tool compiled once (an MCP tool's
   * JSON Schema, through ajv). The pipeline uses it instead of `schema` when given.
   */
  check?(args: unknown): ArgsCheck<Args>;
  /**
   * The shape of the structured result, for programs that call this tool from run_code: its
   * declarations of `tools.*` type the value a call resolves to (`unknown` without it).
   */
  resultSchema?: z.ZodType<Result>;
  /**
   * The tool already bounds its output by paging (read_file: 2000 lines a page, a footer saying how
   * to continue), so spilling a page would only send the model to read the spill file page by page.
   */
  pagesItself?: boolean;
}

/** What the permission gate judges of a call, and what its question shows. */
export interface ToolGateSide<Args, Proposal extends ReviewProposal = ReviewProposal> {
  /** The gate's category: the mode answers per kind, and `session` approvals apply per kind. */
  kind: ToolKind;
  /** Paths the call touches; confinement resolves them before the gate judges them. */
  paths?(args: Args): PathAccess[];
  /**
   * The call may change the workspace though its kind is judged as a read (an agent whose child may
   * write): checkpoints are taken around it as around a write.
   */
  mayChange?(args: Args): boolean;
  /** The command rules such as `exec(npm test *)` match: exec's command line; ssh_exec's with `host:` before it. */
  ruleCommand?(args: Args): { prefix: string; line: string };
  /** The host rules such as `net(*.python.org)` match (permission-rules.ts hostOfUrl). */
  ruleHost?(args: Args): string | null;
  /**
   * A command the approval can preview (run over a copy of the workspace first): its line and
   * folder; or, for a command no preview can show, why not (the approval says so).
   */
  previewable?(args: Args): { command: string; cwd: string } | { unavailable: string } | null;
  /** The call asks to run outside the sandbox (exec's `outside_sandbox`): the sandbox mode asks the person. */
  leavesSandbox?(args: Args): boolean;
  /** The person's allow / ask / deny for this one tool, read at each call; null: the mode and rules decide. */
  policy?(): 'allow' | 'ask' | 'deny' | null;
  /**
   * The question's detail, in place of the description's, when showing it costs more than a card
   * should pay on every call (an MCP tool's arguments in full): made only when the gate asks.
   */
  approvalDetail?(args: Args): string;
  /**
   * A write's proposed change as hunks, shown with its question so the person can choose hunks
   * (the write-review hook); null when it cannot be shown so (it is asked about as a whole).
   */
  proposeReview?(args: Args, ctx: ToolContext): Promise<Proposal | null>;
}

/** How the panel shows a call. */
export interface ToolCardSide<Args, Result> {
  /**
   * What the call does, in the panel's words: its card's title and subtitle (and tooltip), and the
   * permission gate's question (title and detail).
   */
  describe?(args: Args, ctx: DescribeContext): CallDescription;
  /**
   * The card's echo (protocol/echo.ts) and the schema it is checked against; the card is picked by
   * the schema's `kind`. Without it, the echo is the `text` echo. `from` returning undefined means
   * the text echo for this call (a failure it has nothing structured to say about).
   */
  echo?: EchoDeclaration<Args, Result>;
}

/** Arguments a tool accepted, or what is wrong with them (`path: message`, `;` between problems). */
export type ArgsCheck<Args> = { ok: true; args: Args } | { ok: false; problems: string };

export interface DescribeContext {
  /** The workspace root, real path: descriptions name paths relative to it. */
  workspace: string;
}

/** A schema of one echo kind: an object whose `kind` is a literal. */
export type EchoSchema<Echo extends EchoShape = EchoShape> = z.ZodType<Echo> & {
  shape: { kind: z.ZodLiteral<Echo['kind']> };
};

export interface EchoDeclaration<Args, Result, Echo extends EchoShape = EchoShape> {
  schema: EchoSchema<Echo>;
  /**
   * The echo of a call that ran; also asked for a result the tool's own isError judged a failure
   * (a command that exited 2 still shows how it ended). Small: it goes through IPC and the log.
   */
  from(result: Result, args: Args): Echo | undefined;
}

/** Pairs an echo schema with the function that builds it, so the two are typed together. */
export function declareEcho<Args, Result, Echo extends EchoShape>(
  schema: EchoSchema<Echo>,
  from: (result: Result, args: Args) => Echo | undefined,
): EchoDeclaration<Args, Result, Echo> {
  return { schema, from };
}

/** Erases a tool's argument and result types so tools of every shape fit one registry. */
export type AnyTool = ToolDefinition<never, never>;

export function defineTool<Args, Result, Proposal extends ReviewProposal = ReviewProposal>(
  tool: ToolDefinition<Args, Result, Proposal>,
): AnyTool {
  return tool as unknown as AnyTool;
}

/** An error whose message is meant for the model and the person as it is. */
export class ToolError extends Error {
  override name = 'ToolError';
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}
