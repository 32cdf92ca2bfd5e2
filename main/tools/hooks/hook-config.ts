import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../../protocol/errors.ts';
import { HOOK_EVENTS, isHookEventName, type HookEventName } from '../../../protocol/hooks.ts';
import { isRecord } from '../../../protocol/json.ts';
import { jsonSyntaxError, jsonValueLine, type JsonStep } from '../../../protocol/json-syntax.ts';

// Where hooks are configured and how an entry reads. The shape is Claude Code's, under `hooks` of a
// settings file:
//
//   {"hooks": {"PreToolUse": [{"matcher": "write_file|Edit", "hooks": [{"type": "command",
//              "command": "npx prettier --write \"$(jq -r .tool_input.file_path)\"", "timeout": 30}]}]}}
//
// Four files are read: the person's settings.json in the app's home, and the workspace's
// .aethercodex/settings.json, .claude/settings.json and .claude/settings.local.json. A file that
// is not JSON, or an entry that means nothing, is named with its line and left out; the rest apply.

/** Claude Code's default: a hook may take a minute. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;
const MAX_HOOK_TIMEOUT_S = 3600;

export type HookOrigin = 'user' | 'workspace';

export interface HookCommand {
  event: HookEventName;
  /** A regular expression on the tool's name (or the event's subject); '' matches everything. */
  matcher: string;
  command: string;
  timeoutS: number;
  /** What a hook that times out decides: nothing (the default), or a deny of the call / block. */
  onTimeout: 'continue' | 'deny';
  /** The settings file it came from, and the line of its entry there. */
  file: string;
  line: number | null;
  origin: HookOrigin;
}

export interface HookConfig {
  commands: HookCommand[];
  /** Files and entries left out, each a sentence naming its file and line. */
  problems: string[];
}

/** The settings files hooks are read from, in order: the person's first. */
export function hookFiles(home: string, workspace: string): { file: string; origin: HookOrigin }[] {
  return [
    { file: path.join(home, 'settings.json'), origin: 'user' },
    { file: path.join(workspace, '.aethercodex', 'settings.json'), origin: 'workspace' },
    { file: path.join(workspace, '.claude', 'settings.json'), origin: 'workspace' },
    { file: path.join(workspace, '.claude', 'settings.local.json'), origin: 'workspace' },
  ];
}

/** Every hook the settings files configure; a file that is missing holds none. */
export async function loadHooks(where: { home: string; workspace: string }): Promise<HookConfig> {
  const config: HookConfig = { commands: [], problems: [] };
  for (const { file, origin } of hookFiles(where.home, where.workspace)) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        config.problems.push(`The hooks in ${file} are not used: the file cannot be read (${errorMessage(error)}).`);
      continue;
    }
    const read = hooksOfSettingsText(file, text, origin);
    config.commands.push(...read.commands);
    config.problems.push(...read.problems);
  }
  return config;
}

/** The hooks one settings file's text configures, and what in it was left out. */
export function hooksOfSettingsText(file: string, text: string, origin: HookOrigin): HookConfig {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const config: HookConfig = { commands: [], problems: [] };
  if (body.trim() === '') return config;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    const at = jsonSyntaxError(body);
    const where = at ? `${file}:${at.line}:${at.column}: ${at.reason}` : `${file}: ${errorMessage(error)}`;
    config.problems.push(
      `No hook of ${file} runs: it is not valid JSON (${where}). Correct it and open the session again.`,
    );
    return config;
  }
  if (!isRecord(json) || json['hooks'] === undefined) return config;
  const problem = (steps: JsonStep[], what: string): void => {
    const line = jsonValueLine(body, steps);
    config.problems.push(`${file}${line === null ? '' : `:${line}`}: ${what}`);
  };
  const hooks = json['hooks'];
  if (!isRecord(hooks)) {
    problem(['hooks'], `"hooks" must be an object of events, such as {"PreToolUse": […]}: none of its hooks run.`);
    return config;
  }
  for (const [event, groups] of Object.entries(hooks)) {
    if (!isHookEventName(event)) {
      problem(
        ['hooks', event],
        `"${event}" is not an event hooks run at (${HOOK_EVENTS.join(', ')}): its hooks do not run.`,
      );
      continue;
    }
    if (!Array.isArray(groups)) {
      problem(['hooks', event], `hooks.${event} must be a list of {"matcher": …, "hooks": […]}: its hooks do not run.`);
      continue;
    }
    groups.forEach((group: unknown, index) => {
      const at: JsonStep[] = ['hooks', event, index];
      const name = `hooks.${event}[${index}]`;
      if (!isRecord(group) || !Array.isArray(group['hooks'])) {
        problem(
          at,
          `${name} must be {"matcher": "…", "hooks": [{"type": "command", "command": "…"}]}: it does not run.`,
        );
        return;
      }
      const matcher = group['matcher'] ?? '';
      if (typeof matcher !== 'string' || matcherPattern(matcher) === null) {
        problem(
          [...at, 'matcher'],
          `${name}.matcher ${JSON.stringify(matcher)} is not a regular expression on tool names: its hooks do not run.`,
        );
        return;
      }
      group['hooks'].forEach((entry: unknown, inner) => {
        const command = hookCommandOf(entry);
        if (typeof command === 'string') {
          problem([...at, 'hooks', inner], `${name}.hooks[${inner}]: ${command} It does not run.`);
          return;
        }
        const line = jsonValueLine(body, [...at, 'hooks', inner]);
        config.commands.push({ event, matcher, ...command, file, line, origin });
      });
    });
  }
  return config;
}

/** One `{"type": "command", …}` entry, or why it means nothing. */
function hookCommandOf(entry: unknown): Pick<HookCommand, 'command' | 'timeoutS' | 'onTimeout'> | string {
  if (!isRecord(entry)) return 'an entry must be {"type": "command", "command": "…"}.';
  if (entry['type'] !== 'command')
    return `the type ${JSON.stringify(entry['type'])} is not one this version runs (only "command").`;
  const command = entry['command'];
  if (typeof command !== 'string' || command.trim() === '')
    return '"command" must be the command line to run, in quotes.';
  const timeout = entry['timeout'] ?? DEFAULT_HOOK_TIMEOUT_S;
  if (typeof timeout !== 'number' || !(timeout > 0) || timeout > MAX_HOOK_TIMEOUT_S)
    return `"timeout" must be the seconds it may take (above 0, at most ${MAX_HOOK_TIMEOUT_S}), not ${JSON.stringify(timeout)}.`;
  const onTimeout = entry['onTimeout'] ?? 'continue';
  if (onTimeout !== 'continue' && onTimeout !== 'deny')
    return `"onTimeout" must be "continue" (no decision) or "deny", not ${JSON.stringify(onTimeout)}.`;
  return { command, timeoutS: timeout, onTimeout };
}

/** The matcher as a pattern on the whole name; '' and '*' match everything; null: not a regular expression. */
export function matcherPattern(matcher: string): RegExp | null {
  if (matcher === '' || matcher === '*') return /^/;
  try {
    return new RegExp(`^(?:${matcher})$`);
  } catch {
    return null;
  }
}

/**
 * What an approval of a workspace hook covers: its event, matcher, command and limits. Any change
 * asks again.
 */
export function hookFingerprint(hook: HookCommand): string {
  const covered = [hook.event, hook.matcher, hook.command, hook.timeoutS, hook.onTimeout];
  return createHash('sha256').update(JSON.stringify(covered)).digest('hex');
}
