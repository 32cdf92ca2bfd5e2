import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { UserCommand, UserCommandList } from '../../../protocol/composer.ts';
import { errorMessage } from '../../../protocol/errors.ts';

// The person's own slash commands: one Markdown file per command, in the workspace's
// `.aethercodex/commands/` and in `commands/` of the app's home ($AETHERCODEX_HOME, else
// ~/.aethercodex). The file name is the command; an optional front matter gives its description
// and argument hint; `$ARGUMENTS` in the body stands for what the person types after the command.

export const WORKSPACE_COMMANDS = path.join('.aethercodex', 'commands');
export const USER_COMMANDS = 'commands';
/** A command file bigger than this is refused (it is a prompt, not a document). */
export const MAX_COMMAND_BYTES = 64 * 1024;
/** Names the composer can type: letters, digits, dash, underscore, dot, colon. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

export interface CommandFolders {
  workspace: string;
  /** The app's home; without it, only the workspace's commands load. */
  home?: string;
}

export async function loadUserCommands(folders: CommandFolders): Promise<UserCommandList> {
  const problems: string[] = [];
  const user = folders.home ? await loadFolder(path.join(folders.home, USER_COMMANDS), 'user', problems) : [];
  const workspace = await loadFolder(path.join(folders.workspace, WORKSPACE_COMMANDS), 'workspace', problems);
  const byName = new Map<string, UserCommand>();
  for (const command of [...user, ...workspace]) byName.set(command.name, command);
  const commands = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return { commands, problems };
}

async function loadFolder(folder: string, source: UserCommand['source'], problems: string[]): Promise<UserCommand[]> {
  const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR')
      problems.push(`Could not list ${folder}: ${errorMessage(error)}`);
    return [] as string[];
  });
  const commands: UserCommand[] = [];
  for (const file of names.filter((name) => name.toLowerCase().endsWith('.md')).sort()) {
    const name = file.slice(0, -3);
    const where = path.join(folder, file);
    if (!NAME.test(name)) {
      problems.push(`${where}: a command name is letters, digits, dash, underscore, dot or colon; rename the file.`);
      continue;
    }
    try {
      const info = await stat(where);
      if (!info.isFile()) continue;
      if (info.size > MAX_COMMAND_BYTES) {
        problems.push(`${where} is ${info.size} bytes; a command file may hold at most ${MAX_COMMAND_BYTES}.`);
        continue;
      }
      commands.push({ name, source, ...parseCommandFile(await readFile(where, 'utf8')) });
    } catch (error) {
      problems.push(`Could not read ${where}: ${errorMessage(error)}`);
    }
  }
  return commands;
}

/** Front matter (`---` lines around `key: value` pairs) and the body after it. */
export function parseCommandFile(text: string): Pick<UserCommand, 'description' | 'body' | 'argument_hint'> {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const match = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(normalized);
  const fields = new Map<string, string>();
  if (match) {
    for (const line of (match[1] ?? '').split('\n')) {
      const pair = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line.trim());
      if (pair) fields.set(pair[1]!.toLowerCase(), unquote(pair[2]!.trim()));
    }
  }
  const body = (match ? normalized.slice(match[0].length) : normalized).trim();
  const firstLine = body.split('\n').find((line) => line.trim() !== '') ?? '';
  const description = fields.get('description') || firstLine.replace(/^#+\s*/, '').slice(0, 120);
  const hint = fields.get('argument-hint');
  return { description, body, ...(hint ? { argument_hint: hint } : {}) };
}

function unquote(value: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return quoted ? quoted[2]! : value;
}
