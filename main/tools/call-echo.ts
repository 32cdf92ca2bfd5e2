import { ECHO_TEXT_LIMIT, type CallDescription, type EchoShape, type TextEcho } from '../../protocol/echo.ts';
import { uiPreview } from '../status/preview.ts';
import type { AnyTool, ArgsCheck, DescribeContext, ToolDefinition } from './tool.ts';

// What the panel gets of a call besides its events' plumbing: how the call describes itself
// (tool_started) and the card's echo (tool_completed, and each nested call's tool_code_dispatch).

type Tool = ToolDefinition<unknown, unknown>;

/** What the model's text and error flag were, as the tool rendered them and after the post-policies. */
export interface Verdict {
  content: string;
  isError: boolean;
}

/** The echo kind a tool answers with: its declared schema's `kind`, else the `text` echo. */
export function echoKindOf(tool: Pick<Tool, 'card'>): string {
  const echo = tool.card?.echo;
  return echo ? echo.schema.shape.kind.value : 'text';
}

/**
 * uiPreview's name guard, derived from the registered tools instead of kept by hand: the tools
 * whose echo is structured, so uiPreview passes their object echo through untouched.
 */
export function structuredEchoNames(tools: Iterable<Pick<AnyTool, 'name' | 'card'>>): Set<string> {
  return new Set([...tools].filter((tool) => tool.card?.echo !== undefined).map((tool) => tool.name));
}

/** The call's description, or undefined when the tool is unknown, has none, or the arguments are invalid. */
export function describeCall(tool: Tool | undefined, args: unknown, workspace: string): CallDescription | undefined {
  if (!tool?.card?.describe) return undefined;
  const checked = checkArguments(tool, args);
  return checked.ok ? describeChecked(tool, checked.args, { workspace }) : undefined;
}

/** The tool's verdict on a call's arguments: its compiled check when it has one, else its zod schema. */
export function checkArguments(tool: Tool, args: unknown): ArgsCheck<unknown> {
  if (tool.model.check) return tool.model.check(args);
  const parsed = tool.model.schema.safeParse(args);
  if (parsed.success) return { ok: true, args: parsed.data };
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.join('.') || '(arguments)'}: ${issue.message.replace(/\.$/, '')}`)
    .join('; ');
  return { ok: false, problems };
}

/** The description of arguments the tool's schema already accepted (the registry checks them once a call). */
export function describeChecked(tool: Tool, args: unknown, context: DescribeContext): CallDescription | undefined {
  try {
    return tool.card?.describe?.(args, context);
  } catch {
    return undefined; // A description is cosmetic: the card shows no subtitle rather than failing the call.
  }
}

/**
 * The tool's own echo of a call that ran, checked against its schema; undefined for the text echo.
 * It stands for the tool's own failures too (a command that exited 2), unless a post-policy replaced
 * what the tool rendered (a block, a spill): then the card shows the text the model got instead.
 */
export function structuredEcho(
  tool: Tool,
  ran: { result: unknown; args: unknown },
  rendered: Verdict,
  final: Verdict,
): EchoShape | undefined {
  const declared = tool.card?.echo;
  if (!declared) return undefined;
  if (final.content !== rendered.content || final.isError !== rendered.isError) return undefined;
  try {
    const echo = declared.from(ran.result, ran.args);
    if (echo === undefined) return undefined;
    const checked = declared.schema.safeParse(echo);
    return checked.success ? checked.data : undefined;
  } catch {
    return undefined; // The echo is cosmetic: the text echo stands in for one that failed.
  }
}

/** The `text` echo: the text the model got, cut to 4000 characters by uiPreview. */
export function textEcho(content: string, name: string): TextEcho {
  return { kind: 'text', text: String(uiPreview(content, ECHO_TEXT_LIMIT, { name })) };
}

/** What tool_completed (or tool_code_dispatch) carries: the structured echo through uiPreview's guard, or the text. */
export function cardEcho(
  name: string,
  structured: EchoShape | undefined,
  content: string,
  guard: ReadonlySet<string>,
): EchoShape {
  if (structured === undefined) return textEcho(content, name);
  // uiPreview's guard passes a registered tool's object echo through as it is.
  const preview = uiPreview(structured, ECHO_TEXT_LIMIT, { name, structured: guard });
  return typeof preview === 'string' ? { kind: 'text', text: preview } : (preview as EchoShape);
}
