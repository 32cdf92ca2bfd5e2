import { z } from 'zod';
import { READ_PAGE_LINES } from './tools.ts';

// The arguments of the built-in instrumenta, written once. Main validates every call with these
// (the registry's first step) and describes them to the model from the same schemas; their
// `.describe()` texts are what the model reads about each argument.

const SHA256 = /^[0-9a-f]{64}$/i;
const sha256Arg = () => z.string().regex(SHA256, 'must be the 64 hex digits of a sha256').optional();

export const LIST_DEFAULT_DEPTH = 1;
export const LIST_MAX_DEPTH = 5;
export const EXEC_DEFAULT_TIMEOUT_S = 120;
export const EXEC_MAX_TIMEOUT_S = 24 * 60 * 60;

/** The argument write_file and patch_file take for a file that is not UTF-8. */
export const ENCODING_ARG_DESCRIPTION =
  'For a file that is not UTF-8: the encoding read_file reported for it (e.g. ISO-8859-1, Shift_JIS, UTF-16LE). ' +
  'Such a file is only changed when this names its encoding, and is then written in it.';

export const readFileArgsSchema = z.object({
  path: z.string().min(1).describe('The file, relative to the workspace root.'),
  offset: z.number().int().min(1).optional().describe('First line to read, 1-based (default 1).'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`How many lines to read (default and at most ${READ_PAGE_LINES}).`),
});
export type ReadFileArgs = z.infer<typeof readFileArgsSchema>;

export const writeFileArgsSchema = z.object({
  path: z.string().min(1).describe('The file, relative to the workspace root. Missing parent folders are created.'),
  content: z.string().describe('The complete new contents of the file.'),
  expected_sha256: sha256Arg().describe(
    'Required to overwrite an existing file: the sha256 read_file reported for it.',
  ),
  encoding: z.string().min(1).optional().describe(ENCODING_ARG_DESCRIPTION),
});
export type WriteFileArgs = z.infer<typeof writeFileArgsSchema>;

const patchEditSchema = z.object({
  old_text: z
    .string()
    .min(1)
    .describe(
      'Text to replace, copied exactly from the file (whitespace included). It must match exactly one place unless replace_all is set.',
    ),
  new_text: z.string().describe('The text that replaces it.'),
  replace_all: z.boolean().optional().describe('Replace every place old_text occurs (default false).'),
});

export const patchFileArgsSchema = z.object({
  path: z.string().min(1).describe('The file, relative to the workspace root.'),
  edits: z
    .array(patchEditSchema)
    .min(1)
    .describe(
      'Edits, each matched against the file as it is now (not as earlier edits leave it); they must not overlap.',
    ),
  expected_sha256: sha256Arg().describe(
    'The sha256 read_file reported; the patch is refused if the file changed since.',
  ),
  encoding: z.string().min(1).optional().describe(ENCODING_ARG_DESCRIPTION),
});
export type PatchFileArgs = z.infer<typeof patchFileArgsSchema>;

export const listDirArgsSchema = z.object({
  path: z.string().min(1).optional().describe('The folder, relative to the workspace root (default: the root).'),
  depth: z
    .number()
    .int()
    .min(1)
    .max(LIST_MAX_DEPTH)
    .optional()
    .describe(`How many levels to list (default ${LIST_DEFAULT_DEPTH}, at most ${LIST_MAX_DEPTH}).`),
});
export type ListDirArgs = z.infer<typeof listDirArgsSchema>;

export const searchFilesArgsSchema = z.object({
  pattern: z.string().min(1).describe('A JavaScript regular expression, matched against each line.'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('Folder (or file) to search, relative to the workspace root (default: the root).'),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe('Only files matching this glob, e.g. "*.ts" or "src/**/*.test.ts" (relative to path).'),
  ignore_case: z.boolean().optional().describe('Match without regard to case (default false).'),
});
export type SearchFilesArgs = z.infer<typeof searchFilesArgsSchema>;

const timeoutArgSchema = z
  .number()
  .positive()
  .max(EXEC_MAX_TIMEOUT_S)
  .optional()
  .describe(`Seconds before the command is stopped (default ${EXEC_DEFAULT_TIMEOUT_S}).`);

export const execArgsSchema = z.object({
  command: z.string().min(1).describe("The command line, run by the user's shell (`$SHELL -c`)."),
  cwd: z.string().min(1).optional().describe('Folder to run in, relative to the workspace root (default: the root).'),
  timeout_s: timeoutArgSchema,
  outside_sandbox: z
    .boolean()
    .optional()
    .describe(
      'Only when the sandbox stopped this command and it must run anyway: run it outside the sandbox. The person is asked first.',
    ),
  background: z
    .boolean()
    .optional()
    .describe(
      'Keep it running in the background (a dev server, a watcher): the call returns once it has started, with its process id for process_output, process_input and process_stop.',
    ),
  tty: z
    .boolean()
    .optional()
    .describe(
      'Run it in a terminal, in the background (a REPL, a prompt such as npm init, a program that needs a terminal): process_output shows its screen, process_input types into it.',
    ),
});
export type ExecArgs = z.infer<typeof execArgsSchema>;

export const sshExecArgsSchema = z.object({
  host: z.string().min(1).describe('An alias from ~/.ssh/config, or user@host:port.'),
  command: z.string().min(1).describe("The command line, run by the remote user's shell."),
  timeout_s: timeoutArgSchema,
});
export type SshExecArgs = z.infer<typeof sshExecArgsSchema>;

/** What the model is told about a URL web_fetch cannot fetch at all (checked before anyone is asked). */
function webFetchUrlError(input: unknown): string {
  const text = typeof input === 'string' ? input : '';
  if (/^http:\/\//i.test(text))
    return `only https:// URLs are fetched (anyone on the way can read and change plain http://); try ${text.replace(/^http:/i, 'https:')}`;
  return 'must be a whole https:// URL, such as https://docs.python.org/3/';
}

export const webFetchArgsSchema = z.object({
  url: z
    .url({ protocol: /^https$/, error: (issue) => webFetchUrlError(issue.input) })
    .max(8192)
    .describe('The page to fetch: an https:// URL.'),
});
export type WebFetchArgs = z.infer<typeof webFetchArgsSchema>;

export const runCodeArgsSchema = z.object({
  code: z
    .string()
    .min(1)
    .describe(
      'The program: the body of an async function. `await tools.<name>(args)`, `console.log(…)`, `return` a value.',
    ),
});
export type RunCodeArgs = z.infer<typeof runCodeArgsSchema>;
