import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentDefinition } from '../../../protocol/agents.ts';
import { parseAgentFile, type AgentFileProblem } from './agent-file.ts';

// The agents a session can start: the built-in ones, the person's (~/.aethercodex/agents/*.md) and
// the workspace's (.aethercodex/agents/*.md, and .claude/agents/*.md, which many repositories carry).
// A later source overrides an earlier one of the same name: built-in, person, .claude, .aethercodex.
// Read again at each use, so an edited file applies to the next call; a malformed file is named
// with its line and left out.

export const BUILTIN_AGENTS: readonly AgentDefinition[] = [
  {
    name: 'general',
    description: 'A general agent with your own tools (except starting agents), for a self-contained piece of work.',
    instructions:
      'You are an agent another agent started for one task. Do it, then answer with what you did and found.',
    origin: 'builtin',
  },
  {
    name: 'explore',
    description:
      'Reads, lists and searches the workspace to answer a question, changing nothing; cheap to run several at once on different areas.',
    instructions: [
      'You explore the workspace to answer one question. Read, list and search; change nothing.',
      'Answer with what you found, briefly: the files and lines that matter, and what they do.',
    ].join('\n'),
    permissionMode: 'read-only',
    origin: 'builtin',
  },
  {
    name: 'review',
    description:
      'Reviews the changes made so far in this turn (it is handed their diff) and reports findings as a list, changing nothing.',
    instructions: [
      'You review changes made to the workspace: the task carries the diff of the files changed so far in this turn. Read those files and what is around the changes.',
      'Report your findings as a Markdown list, most serious first: each with the file and line, what is wrong, and how to fix it.',
      'Say "No findings." when there are none. Change nothing.',
    ].join('\n'),
    permissionMode: 'read-only',
    reviewsTurn: true,
    origin: 'builtin',
  },
];

export interface AgentCatalog {
  agents: AgentDefinition[];
  problems: AgentFileProblem[];
}

export interface AgentSources {
  /** The workspace root, real path. */
  workspace: string;
  /** The person's app home (~/.aethercodex): its agents/ folder. */
  home?: string;
}

/** Every agent, later sources over earlier ones by name, with the files that could not be read. */
export async function readAgentCatalog(sources: AgentSources): Promise<AgentCatalog> {
  const byName = new Map<string, AgentDefinition>(BUILTIN_AGENTS.map((agent) => [agent.name, agent]));
  const problems: AgentFileProblem[] = [];
  const folders: { folder: string; origin: 'person' | 'workspace'; claude: boolean }[] = [
    ...(sources.home ? [{ folder: path.join(sources.home, 'agents'), origin: 'person' as const, claude: false }] : []),
    { folder: path.join(sources.workspace, '.claude', 'agents'), origin: 'workspace', claude: true },
    { folder: path.join(sources.workspace, '.aethercodex', 'agents'), origin: 'workspace', claude: false },
  ];
  for (const { folder, origin, claude } of folders) {
    for (const file of await markdownFiles(folder)) {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        problems.push({ file, line: 0, message: `It could not be read: ${(error as Error).message}` });
        continue;
      }
      const parsed = parseAgentFile(file, text, origin, claude);
      if (parsed.ok) byName.set(parsed.agent.name, parsed.agent);
      else problems.push(parsed.problem);
    }
  }
  return { agents: [...byName.values()], problems };
}

async function markdownFiles(folder: string): Promise<string[]> {
  try {
    const names = await readdir(folder);
    return names
      .filter((name) => name.toLowerCase().endsWith('.md'))
      .sort()
      .map((name) => path.join(folder, name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
      return [];
    throw error;
  }
}

/** A problem as a person reads it: `path:line: message`. */
export function problemLine(problem: AgentFileProblem, workspace: string): string {
  const shown = problem.file.startsWith(workspace + path.sep) ? path.relative(workspace, problem.file) : problem.file;
  return `${shown}${problem.line > 0 ? `:${problem.line}` : ''}: ${problem.message}`;
}
