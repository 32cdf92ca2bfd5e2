import { toolEchoSchema, type EchoShape, type ExecEcho, type WebFetchEcho } from '../../../protocol/echo.ts';
import { formatBytes } from '../../../protocol/format.ts';

// What a call's card shows, as an export writes it: one line of facts (a command's exit, a diff's
// statistics, a page's title and host) and the blocks under it (output, file text, a diff). Read
// with the echo schemas, as the panel's cards are; an echo of a kind this build does not know is
// shown as its JSON.

export interface EchoBlock {
  kind: 'code' | 'diff' | 'text';
  text: string;
  /** A code block's language, for highlighting where the reader has it (a file's extension). */
  language?: string;
}

export interface EchoView {
  /** One line of facts; '' when the blocks say it all. */
  line: string;
  blocks: EchoBlock[];
}

export function echoView(echo: EchoShape | undefined): EchoView {
  if (echo === undefined) return { line: '', blocks: [] };
  const known = toolEchoSchema.safeParse(echo);
  if (!known.success)
    return { line: '', blocks: [{ kind: 'code', text: JSON.stringify(echo, null, 2), language: 'json' }] };
  const value = known.data;
  switch (value.kind) {
    case 'text':
      return { line: '', blocks: value.text.trim() === '' ? [] : [{ kind: 'code', text: value.text }] };
    case 'read-file': {
      const { start, end } = value.range;
      const lines = end >= start ? `lines ${start}–${end} of ${value.total_lines}` : `${value.total_lines} lines`;
      return {
        line: `${value.path}, ${lines}${value.truncated ? ' (more follow)' : ''}`,
        blocks: [{ kind: 'code', text: value.content, ...languageOf(value.path) }],
      };
    }
    case 'patch':
      return {
        line: `+${value.added} −${value.removed} in ${value.path}`,
        blocks: [{ kind: 'diff', text: value.diff }],
      };
    case 'write':
      if (value.change)
        return {
          line: `+${value.change.added} −${value.change.removed} in ${value.path}`,
          blocks: [{ kind: 'diff', text: value.change.diff }],
        };
      return {
        line: `${value.created ? 'Created' : 'Wrote'} ${value.path} (${formatBytes(value.bytes)})`,
        blocks: value.content ? [{ kind: 'code', text: value.content.text, ...languageOf(value.path) }] : [],
      };
    case 'exec':
      return {
        line: commandEnd(value),
        blocks: value.output.trim() === '' ? [] : [{ kind: 'code', text: value.output }],
      };
    case 'code':
      return { line: '', blocks: value.empty ? [] : [{ kind: 'code', text: value.output }] };
    case 'mcp': {
      const media =
        value.images.length + value.images_omitted + (value.audio?.length ?? 0) + (value.audio_omitted ?? 0);
      const extra = media > 0 ? ` · ${media} image or audio ${media === 1 ? 'part' : 'parts'} not included` : '';
      return {
        line: `${value.server} › ${value.tool}${value.is_error ? ' reported a failure' : ''}${extra}`,
        blocks: value.text.trim() === '' ? [] : [{ kind: 'code', text: value.text }],
      };
    }
    case 'web-fetch':
      return { line: pageFacts(value), blocks: pageBlocks(value) };
  }
}

function commandEnd(echo: ExecEcho): string {
  const why = echo.error ? ` (${echo.error})` : '';
  const ended: Record<ExecEcho['status'], string> = {
    running: echo.process ? `running in the background as ${echo.process.id}` : 'running',
    exited: `exit ${echo.exit_code ?? 'unknown'}`,
    signalled: echo.signal ? `killed by ${echo.signal}` : 'killed',
    timed_out: 'timed out',
    cancelled: 'cancelled',
    connection_lost: `connection lost${why}`,
    failed_to_start: `failed to start${why}`,
  };
  const lines = echo.output_lines;
  const output = lines === 0 ? 'no output' : `${lines} ${lines === 1 ? 'line' : 'lines'}`;
  return `${ended[echo.status]} · ${output}${echo.output_cut ? ' (the end is shown)' : ''}`;
}

function pageFacts(echo: WebFetchEcho): string {
  const facts = [echo.title ?? echo.final_url, echo.host, echo.content_type || 'no type', formatBytes(echo.bytes)];
  if (echo.cut) facts.push('cut at the size limit');
  return facts.join(' · ');
}

function pageBlocks(echo: WebFetchEcho): EchoBlock[] {
  const blocks: EchoBlock[] = [{ kind: 'text', text: echo.final_url }];
  if (echo.excerpt) blocks.push({ kind: 'text', text: echo.excerpt });
  return blocks;
}

const LANGUAGES: Readonly<Record<string, string>> = {
  ts: 'ts',
  tsx: 'tsx',
  js: 'js',
  jsx: 'jsx',
  mjs: 'js',
  cjs: 'js',
  json: 'json',
  py: 'python',
  rs: 'rust',
  go: 'go',
  java: 'java',
  rb: 'ruby',
  sh: 'sh',
  md: 'markdown',
  css: 'css',
  html: 'html',
  yml: 'yaml',
  yaml: 'yaml',
  toml: 'toml',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  cs: 'csharp',
};

function languageOf(file: string): { language?: string } {
  const extension = /\.([A-Za-z0-9]+)$/.exec(file)?.[1]?.toLowerCase();
  const language = extension ? LANGUAGES[extension] : undefined;
  return language ? { language } : {};
}
