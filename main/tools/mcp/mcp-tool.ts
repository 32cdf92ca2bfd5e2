import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';
import { formatBytes } from '../../../protocol/format.ts';
import { isRecord } from '../../../protocol/json.ts';
import { ECHO_TEXT_LIMIT, mcpEchoSchema, type McpEcho } from '../../../protocol/echo.ts';
import type { McpToolPolicy } from '../../../protocol/mcp.ts';
import { declareEcho, defineTool, ToolError, type AnyTool, type ArgsCheck } from '../tool.ts';
import { keepResultBlobs } from './mcp-blobs.ts';
import { mcpToolName } from './mcp-tool-name.ts';
import { resultImages } from './mcp-images.ts';
import { McpProgressLines, type McpProgress } from './mcp-progress.ts';
import {
  AUDIO_TYPE,
  base64Bytes,
  ECHO_MEDIA,
  ECHO_MEDIA_CHARS,
  echoResources,
  IMAGE_TYPE,
} from './mcp-resource-echo.ts';

// An MCP server's tool as one of ours: named `mcp__<server>__<tool>`, described to the model with
// the server's own input schema, its arguments checked against that schema before the server sees
// them, and its kind from its annotations (read-only tools run like read tools, in parallel and
// without asking by default; every other tool asks like a command unless a rule allows it).

export interface McpCaller {
  /** Calls the tool on its server (starting or restarting the server if needed). */
  call(
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onprogress: (progress: McpProgress) => void },
  ): Promise<CallToolResult>;
}

const validators = new AjvJsonSchemaValidator();

type Args = Record<string, unknown>;

/**
 * The tool's JSON Schema compiled once by ajv: the arguments accepted as they are (a plain object is
 * never copied), or ajv's message. The same check stands behind the zod schema the tool declares.
 */
function argumentsCheck(tool: Tool): (args: unknown) => ArgsCheck<Args> {
  let validate: ((input: unknown) => { valid: boolean; errorMessage?: string | undefined }) | null = null;
  let broken: string | null = null;
  try {
    validate = validators.getValidator(tool.inputSchema as Parameters<typeof validators.getValidator>[0]);
  } catch (error) {
    broken = (error as Error).message;
  }
  return (args) => {
    if (!isRecord(args)) return refused('the arguments must be a JSON object');
    if (broken) return refused(`the server's input schema cannot be used (${broken})`);
    const checked = validate?.(args);
    if (!checked || checked.valid) return { ok: true, args };
    // ajv names the value `data`: `data/mib must be integer` reads better as `mib must be integer`.
    const message = (checked.errorMessage ?? 'does not match the schema')
      .replace(/\bdata\//g, '')
      .replace(/\bdata\b/g, 'the arguments');
    return refused(message);
  };
}

function refused(message: string): ArgsCheck<Args> {
  return { ok: false, problems: `(arguments): ${message.replace(/\.$/, '')}` };
}

/** A zod schema with the same verdict as the check (what `describeCall` and the declarations see). */
function argumentsSchema(check: (args: unknown) => ArgsCheck<Args>): z.ZodType<Args> {
  const object = z.custom<Args>(isRecord, 'the arguments must be a JSON object');
  return object.superRefine((args, ctx) => {
    const checked = check(args);
    if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.problems.replace(/^\(arguments\): /, '') });
  });
}

/** The model-facing text of a result: text as it is, everything else named with its size. */
export function renderMcpResult(result: CallToolResult): string {
  // Most results are one text block: its text is the whole rendering.
  const only = result.content?.length === 1 ? result.content[0] : undefined;
  if (only?.type === 'text') return only.text;
  const parts: string[] = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'image':
      case 'audio':
        parts.push(`[${block.type} ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}]`);
        break;
      case 'resource': {
        const { resource } = block;
        if ('text' in resource && typeof resource.text === 'string') {
          parts.push(
            `[resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}]\n${resource.text}`,
          );
        } else {
          const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
          parts.push(
            `[resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}, ${formatBytes(base64Bytes(blob))}]`,
          );
        }
        break;
      }
      case 'resource_link':
        parts.push(
          `[resource link ${block.uri}${block.name ? ` "${block.name}"` : ''}${block.mimeType ? ` (${block.mimeType})` : ''}]`,
        );
        break;
    }
  }
  if (result.structuredContent !== undefined && parts.length === 0) {
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  }
  if (parts.length === 0) return result.isError ? 'The tool failed without saying why.' : '(no content)';
  return parts.join('\n');
}

export function mcpEcho(server: string, tool: string, result: CallToolResult): McpEcho {
  const text = renderMcpResult(result);
  const echo: McpEcho = {
    kind: 'mcp',
    server,
    tool,
    text: text.length > ECHO_TEXT_LIMIT ? text.slice(0, ECHO_TEXT_LIMIT) : text,
    text_cut: text.length > ECHO_TEXT_LIMIT,
    images: [],
    images_omitted: 0,
    audio: [],
    audio_omitted: 0,
    is_error: result.isError === true,
  };
  // Most results are text alone: their text is the whole echo.
  if (textOnly(result)) return echo;
  const images = echoMedia(result, 'image');
  const audio = echoMedia(result, 'audio');
  const resources = echoResources(result);
  echo.images = images.kept;
  echo.images_omitted = images.omitted;
  echo.audio = audio.kept;
  echo.audio_omitted = audio.omitted;
  if (resources.resources.length > 0) echo.resources = resources.resources;
  if (resources.omitted > 0) echo.resources_omitted = resources.omitted;
  return echo;
}

/** The result holds text blocks only: no image, audio clip or resource to show, keep or send. */
function textOnly(result: CallToolResult): boolean {
  const content = result.content ?? [];
  for (let index = 0; index < content.length; index += 1) {
    if (content[index]!.type !== 'text') return false;
  }
  return true;
}

/** The result's images or audio clips small enough for the card (a few, each of a well-formed type), and how many are not. */
function echoMedia(result: CallToolResult, type: 'image' | 'audio'): { kept: McpEcho['images']; omitted: number } {
  const kept: McpEcho['images'] = [];
  const mime = type === 'image' ? IMAGE_TYPE : AUDIO_TYPE;
  let omitted = 0;
  for (const block of result.content ?? []) {
    if (block.type !== type) continue;
    if (kept.length < ECHO_MEDIA && block.data.length <= ECHO_MEDIA_CHARS && mime.test(block.mimeType)) {
      kept.push({ mime_type: block.mimeType, data: block.data });
    } else {
      omitted += 1;
    }
  }
  return { kept, omitted };
}

export function mcpTool(
  server: string,
  tool: Tool,
  caller: McpCaller,
  policy: () => McpToolPolicy | null = () => null,
): AnyTool {
  const name = mcpToolName(server, tool.name);
  const readOnly = tool.annotations?.readOnlyHint === true;
  const check = argumentsCheck(tool);
  // The card's description and the rules' command are the same for every call: made once.
  const description = { title: `${tool.name} on the MCP server "${server}"`, subtitle: `${server} › ${tool.name}` };
  const command = { prefix: '', line: name };
  const destructive = tool.annotations?.destructiveHint ? ' (may change or delete data)' : '';
  const about = `MCP server: ${server}\nTool: ${tool.name}${destructive}\nArguments:\n`;
  const shownTitle = tool.title ?? tool.annotations?.title;
  return defineTool<Record<string, unknown>, CallToolResult>({
    name,
    model: {
      description: `${shownTitle ? `${shownTitle}: ` : ''}${tool.description ?? `The tool "${tool.name}"`} (MCP server "${server}")`,
      schema: argumentsSchema(check),
      check,
      inputJsonSchema: tool.inputSchema,
      render: (result) => renderMcpResult(result),
      isError: (result) => result.isError === true,
      images: (result) => (textOnly(result) ? [] : resultImages(result)),
    },
    gate: {
      kind: readOnly ? 'read' : 'exec',
      // Rules name the tool as a command: `exec(mcp__server__tool)` allows or denies it.
      ...(readOnly ? {} : { ruleCommand: () => command }),
      policy,
      approvalDetail: (args) => `${about}${JSON.stringify(args, null, 2)}`,
    },
    card: {
      // The card needs only the names; the arguments in full are written out for a question alone.
      describe: () => description,
      // mcpEcho builds exactly the schema's shape (text and images already cut to their limits).
      echo: declareEcho(mcpEchoSchema, (result: CallToolResult) => mcpEcho(server, tool.name, result)),
    },
    async execute(args, ctx) {
      // Most calls report no progress: the lines are made at the first report.
      let lines: McpProgressLines | undefined;
      const onprogress = (progress: McpProgress): void => {
        lines ??= new McpProgressLines((report) => ctx.report(report));
        lines.add(progress);
      };
      let result: CallToolResult;
      try {
        result = await caller.call(tool.name, args, { signal: ctx.signal, onprogress });
      } finally {
        lines?.end();
      }
      if (!Array.isArray(result.content)) throw new ToolError(`${name}: the server answered without content.`);
      // Binary resources are kept by hash for the card's Save…; a result without any waits for nothing.
      const keeping = textOnly(result) ? null : keepResultBlobs(result, ctx.sessionDir);
      if (keeping) await keeping;
      return result;
    },
  });
}
