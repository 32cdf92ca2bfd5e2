import {
  ECHO_TEXT_LIMIT,
  type CallDescription,
  type CodeEcho,
  type EchoShape,
  type ExecEcho,
  type PatchEcho,
  type ReadFileEcho,
  type TextEcho,
} from '../../protocol/echo.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { uiPreview } from '../status/preview.ts';
import { describeCall, echoKindOf, textEcho } from '../tools/call-echo.ts';
import type { AnyTool, ToolDefinition } from '../tools/tool.ts';

// Sessions written before echoes carried a `kind` (and calls their description) replay into the
// same cards: each old event is upgraded once, as it is read, to the shape the panel decodes now.
//   tool_started        gains the tool's description and echo kind;
//   tool_completed      its result becomes a tagged echo (read_file's page and patch_file's result
//                       passed through, a command's echo, `{ error, content }`, or text);
//   tool_code_dispatch  gains the echo of the nested call, from the content the program received.
// An event already in today's shape is returned as it is.

type Tool = ToolDefinition<unknown, unknown>;

/** What run_code wrote in format 1 for a program that logged and returned nothing. */
const FORMAT_1_NO_OUTPUT = '(no output)';

export interface UpgradeContext {
  /** The session's workspace (its header): descriptions name paths relative to it. */
  workspace: string;
  /** The tools that describe old calls (the built-in tools). */
  tools: readonly AnyTool[];
}

/** Whether an event was written before echoes had kinds, so upgradeEvent has work to do. */
export function isFormat1Event(event: StatusEvent): boolean {
  if (event.type === 'tool_started') return event.echo_kind === undefined && event.description === undefined;
  if (event.type === 'tool_completed') return !hasKind(event.result);
  if (event.type === 'tool_code_dispatch') return !hasKind(event.echo);
  return false;
}

export function upgradeEvent(event: StatusEvent, context: UpgradeContext): StatusEvent {
  switch (event.type) {
    case 'tool_started': {
      if (event.echo_kind !== undefined || event.description !== undefined) return event;
      const tool = toolNamed(event.name, context);
      if (!tool) return event;
      const description: CallDescription | undefined = describeCall(tool, event.args, context.workspace);
      return { ...event, echo_kind: echoKindOf(tool), ...(description ? { description } : {}) };
    }
    case 'tool_completed':
      return hasKind(event.result)
        ? event
        : { ...event, result: upgradeEcho(event.name, event.result, event.is_error) };
    case 'tool_code_dispatch':
      return hasKind(event.echo) ? event : { ...event, echo: nestedEcho(event.name, event.content) };
    default:
      return event;
  }
}

function toolNamed(name: string, context: UpgradeContext): Tool | undefined {
  return context.tools.find((tool) => tool.name === name) as Tool | undefined;
}

function hasKind(value: unknown): value is EchoShape {
  return isObject(value) && typeof value['kind'] === 'string';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** An echo as format 1 wrote it (the uiPreview of the result), as a tagged echo. */
export function upgradeEcho(name: string, result: unknown, isError: boolean): EchoShape {
  if (name === 'run_code' && !isError && typeof result === 'string') return codeEcho(result);
  if (typeof result === 'string') return textEcho(result, name);
  if (!isObject(result)) return textEcho(String(uiPreview(result, ECHO_TEXT_LIMIT)), name);
  // A failure was echoed as `{ error, content }`.
  if (typeof result['error'] === 'string' && typeof result['content'] === 'string') return text(result['error']);
  if (!isError && name === 'read_file' && isObject(result['range'])) return readFileEcho(result);
  if (!isError && name === 'patch_file' && result['ok'] === true) return patchEcho(result);
  if ((name === 'exec' || name === 'ssh_exec') && typeof result['status'] === 'string') {
    return { ...(result as Omit<ExecEcho, 'kind'>), kind: 'exec' };
  }
  return text(String(uiPreview(result, ECHO_TEXT_LIMIT)));
}

/** run_code's text; its marker for a program that logged and returned nothing is an empty run. */
function codeEcho(output: string): CodeEcho {
  return { kind: 'code', output, empty: output.trim() === FORMAT_1_NO_OUTPUT };
}

function text(value: string): TextEcho {
  return { kind: 'text', text: value };
}

function readFileEcho(result: Record<string, unknown>): ReadFileEcho {
  const { path, range, total_lines: total, content, truncated } = result as unknown as ReadFileEcho;
  return { kind: 'read-file', path, range, total_lines: total, content, truncated };
}

function patchEcho(result: Record<string, unknown>): PatchEcho {
  const { path, diff, added, removed, hunks } = result as unknown as PatchEcho;
  return { kind: 'patch', path, diff, added, removed, hunks };
}

/** read_file's wrapper around a page, as the program received it (renderReadFile). */
const READ_FILE_WRAPPER = /^<path>[^\n]*<\/path>\n<type>file<\/type>\n<content>\n([\s\S]*)\n<\/content>$/;

/**
 * A nested call's echo, from the content its program received: the text, and for a read_file page
 * the numbered lines and footer inside the wrapper, which no card shows.
 */
function nestedEcho(name: string, content: string): TextEcho {
  const inner = name === 'read_file' ? READ_FILE_WRAPPER.exec(content)?.[1] : undefined;
  return textEcho(inner ?? content, name);
}
