import type { BuiltinToolOptions } from './index.ts';
import type { AnyTool } from './tool.ts';

// The built-in tools by name, each loaded only when asked for: a process that runs one tool (the
// `aether tool` command) imports that tool's module and nothing of the others (ssh_exec's SSH
// client, patch_file's diff, the file decoders). run_code needs every other tool, so it and any
// name not listed here load the whole set (index.ts), which also lets an unknown name be answered
// with the list of known ones. builtin-loaders.test.ts keeps this list equal to builtinTools().

type Loader = (options: BuiltinToolOptions) => Promise<AnyTool>;

const LOADERS: Readonly<Record<string, Loader>> = {
  read_file: async () => (await import('./files/read-file.ts')).readFileTool,
  write_file: async (options) => (await import('./files/write-file.ts')).writeFileTool(options),
  patch_file: async (options) => (await import('./files/patch-file.ts')).patchFileTool(options),
  list_dir: async () => (await import('./files/list-dir.ts')).listDirTool,
  search_files: async () => (await import('./files/search-files.ts')).searchFilesTool,
  exec: async (options) => {
    const { execTool } = await import('./exec/exec.ts');
    return execTool(options.commandEnv ? { envPolicy: options.commandEnv } : {});
  },
  ssh_exec: async () => (await import('./ssh/ssh-exec.ts')).sshExecTool(),
  web_fetch: async () => (await import('./web/web-fetch.ts')).webFetchTool(),
};

/** The names with a loader of their own (every built-in tool but run_code). */
export const SINGLY_LOADED: readonly string[] = Object.keys(LOADERS);

/** What a registry needs to run the built-in tool `name`: that tool alone, or every built-in tool. */
export async function builtinToolsFor(name: string, options: BuiltinToolOptions = {}): Promise<AnyTool[]> {
  const load = Object.hasOwn(LOADERS, name) ? LOADERS[name] : undefined;
  if (load) return [await load(options)];
  return (await import('./index.ts')).builtinTools(options);
}
