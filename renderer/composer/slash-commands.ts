import type { McpPromptRef, UserCommand } from '../../protocol/composer.ts';

// Slash commands: the panel's own (`/model`, `/effort`, …) and the person's, from Markdown files.
// Pure: parsing what was typed, the menu's choices, and expanding a person's command.

export interface CommandChoice {
  name: string;
  description: string;
  argument_hint?: string;
  /** `builtin`: the panel's own; otherwise where the person's file lives. */
  source: 'builtin' | UserCommand['source'];
}

export type BuiltinName =
  'model' | 'effort' | 'status' | 'compact' | 'new' | 'clear' | 'sessions' | 'skills' | 'sandbox' | 'help';

const BUILTINS: readonly (CommandChoice & { name: BuiltinName })[] = [
  { name: 'model', description: 'Show or change the model', argument_hint: '[id]', source: 'builtin' },
  { name: 'effort', description: 'Show or change the reasoning effort', argument_hint: '[level]', source: 'builtin' },
  { name: 'status', description: 'Model, effort and what this session used', source: 'builtin' },
  {
    name: 'compact',
    description: 'Summarise the conversation so far to free context',
    argument_hint: '[focus]',
    source: 'builtin',
  },
  { name: 'new', description: 'Start a new session (this one stays in the list)', source: 'builtin' },
  { name: 'clear', description: 'Start over in a new session, as /new', source: 'builtin' },
  { name: 'sessions', description: 'Open the session list', source: 'builtin' },
  { name: 'skills', description: 'List the skills, and those loaded in this session', source: 'builtin' },
  {
    name: 'sandbox',
    description: 'Show the sandbox, turn its mode on or off, allow or forbid a host',
    argument_hint: '[on|off|allow HOST|forbid HOST]',
    source: 'builtin',
  },
  { name: 'help', description: 'List the commands', source: 'builtin' },
];

/** The panel's commands. */
export function builtinCommands(): CommandChoice[] {
  return [...BUILTINS];
}

export function isBuiltin(name: string, choices: readonly CommandChoice[]): name is BuiltinName {
  return choices.some((choice) => choice.source === 'builtin' && choice.name === name);
}

/** The panel's commands first, then the person's (a person's command never hides a panel one). */
export function allCommands(builtins: readonly CommandChoice[], user: readonly UserCommand[]): CommandChoice[] {
  const taken = new Set(builtins.map((command) => command.name));
  const own = user
    .filter((command) => !taken.has(command.name))
    .map(({ name, description, source, argument_hint }) => ({
      name,
      description,
      source,
      ...(argument_hint ? { argument_hint } : {}),
    }));
  return [...builtins, ...own];
}

/**
 * The person's command a typed name stands for: by its name, or an MCP prompt by its short form
 * `server:prompt` (`mcp__server__prompt` is the name the menu shows).
 */
export function findCommand(name: string, commands: readonly UserCommand[]): UserCommand | undefined {
  return (
    commands.find((command) => command.name === name) ??
    commands.find((command) => command.prompt && `${command.prompt.server}:${command.prompt.name}` === name)
  );
}

export interface SlashInput {
  name: string;
  /** What follows the name, trimmed. */
  args: string;
}

/** `/name args…` at the very start of the message; null for any other message. */
export function parseSlash(text: string): SlashInput | null {
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match || text.trimStart() !== text) return null;
  return { name: match[1]!, args: (match[2] ?? '').trim() };
}

/**
 * The command name being typed: the text is `/` and a name with the caret at its end, nothing
 * else yet. Null once a space follows (the person is typing arguments).
 */
export function typedCommandName(text: string, caret: number): string | null {
  const match = /^\/([^\s/]*)$/.exec(text.slice(0, caret));
  if (!match) return null;
  if (/^\S/.test(text.slice(caret))) return null;
  return match[1]!;
}

/** Names that start with the query first, then names that contain it; case-insensitive. */
export function matchCommands(query: string, choices: readonly CommandChoice[]): CommandChoice[] {
  const q = query.toLowerCase();
  const starts = choices.filter((choice) => choice.name.toLowerCase().startsWith(q));
  const contains = choices.filter(
    (choice) => !choice.name.toLowerCase().startsWith(q) && choice.name.toLowerCase().includes(q),
  );
  return [...starts, ...contains];
}

/**
 * A person's command as the message it stands for: every `$ARGUMENTS` becomes what was typed after
 * the name; a body without `$ARGUMENTS` gets the arguments after it, so none are lost.
 */
export function expandCommand(body: string, args: string): string {
  if (body.includes('$ARGUMENTS')) return body.replaceAll('$ARGUMENTS', args);
  return args === '' ? body : `${body}\n\n${args}`;
}

/**
 * What was typed after an MCP prompt's command as its arguments: `name=value` sets one by name,
 * other words fill the declared arguments in order ("quotes" keep spaces), and the last one takes
 * the rest of the line. A required argument left out is an error that shows the usage.
 */
export function promptArguments(
  command: string,
  prompt: McpPromptRef,
  typed: string,
): { ok: true; value: Record<string, string> } | { ok: false; error: string } {
  const declared = prompt.arguments;
  const value: Record<string, string> = {};
  for (const word of typed.matchAll(/"([^"]*)"|(\S+)/g)) {
    const quoted = word[1] !== undefined;
    const token = word[1] ?? word[2] ?? '';
    const named = quoted ? null : /^([^=\s]+)=(.*)$/.exec(token);
    if (named && declared.some((arg) => arg.name === named[1])) {
      value[named[1]!] = named[2]!.replace(/^"(.*)"$/, '$1');
      continue;
    }
    const open = declared.filter((arg) => !(arg.name in value));
    const arg = open[0];
    if (!arg)
      return {
        ok: false,
        error: `/${command} takes ${declared.length} argument${declared.length === 1 ? '' : 's'}; "${token}" is one too many. ${usage(command, prompt)}`,
      };
    // The last argument left takes the rest of the line as it was typed.
    if (open.length === 1 && !quoted) {
      value[arg.name] = typed.slice(word.index).trim();
      break;
    }
    value[arg.name] = token;
  }
  const missing = declared.filter((arg) => arg.required && !(arg.name in value)).map((arg) => arg.name);
  if (missing.length > 0)
    return { ok: false, error: `/${command} needs ${missing.join(', ')}. ${usage(command, prompt)}` };
  return { ok: true, value };
}

function usage(command: string, prompt: McpPromptRef): string {
  const args = prompt.arguments.map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`)).join(' ');
  const what = prompt.arguments
    .filter((arg) => arg.description)
    .map((arg) => `${arg.name}: ${arg.description}`)
    .join('; ');
  return `Usage: /${command}${args ? ` ${args}` : ''}${what ? ` (${what})` : ''}.`;
}

export function unknownCommandMessage(name: string): string {
  return `There is no command /${name}. Type / to see the commands, or /help; to send a message that starts with /, put a space before it.`;
}

/** `/skills`' text: one line per skill, marking those the model loaded in this session. */
export function skillLines(choices: readonly CommandChoice[], loaded: ReadonlySet<string>): string[] {
  const skills = choices.filter((choice) => choice.source === 'skill');
  if (skills.length === 0)
    return [
      'No skills yet. A skill is a folder with a SKILL.md (front matter: name, description) in .agents/skills/, .claude/skills/ or .aethercodex/skills/ of the workspace, or skills/ of the app home.',
    ];
  return skills.map(
    (skill) => `/${skill.name} — ${skill.description}${loaded.has(skill.name) ? ' (loaded in this session)' : ''}`,
  );
}

/** `/help`'s text: one line per command. */
export function helpLines(choices: readonly CommandChoice[]): string[] {
  return choices.map((choice) => {
    const usage = choice.argument_hint ? `/${choice.name} ${choice.argument_hint}` : `/${choice.name}`;
    const from =
      choice.source === 'builtin' ? '' : choice.source === 'mcp' ? ' (MCP prompt)' : ` (${choice.source} command)`;
    return `${usage} — ${choice.description}${from}`;
  });
}
