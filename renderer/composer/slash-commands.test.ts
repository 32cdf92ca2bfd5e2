import { describe, expect, it } from 'vitest';
import type { UserCommand } from '../../protocol/composer.ts';
import { completionKeyAction } from './composer-keys.ts';
import {
  allCommands,
  builtinCommands,
  expandCommand,
  findCommand,
  helpLines,
  matchCommands,
  parseSlash,
  promptArguments,
  typedCommandName,
} from './slash-commands.ts';

const review: UserCommand = {
  name: 'review',
  description: 'Review a file',
  body: 'Review $ARGUMENTS',
  source: 'workspace',
};

describe('parseSlash', () => {
  it('splits the command name from its arguments', () => {
    expect(parseSlash('/model  openai:gpt-x ')).toEqual({ name: 'model', args: 'openai:gpt-x' });
    expect(parseSlash('/review src/a.ts\nand the tests')).toEqual({ name: 'review', args: 'src/a.ts\nand the tests' });
    expect(parseSlash('/status')).toEqual({ name: 'status', args: '' });
  });

  it('is not a command without the slash first, with a space before it, or for a path', () => {
    expect(parseSlash('explain /status')).toBeNull();
    expect(parseSlash(' /status')).toBeNull();
    expect(parseSlash('/usr/bin/env is missing')).toBeNull();
    expect(parseSlash('/')).toBeNull();
  });
});

describe('typedCommandName', () => {
  it('is the name while the caret ends it, and null once arguments begin', () => {
    expect(typedCommandName('/', 1)).toBe('');
    expect(typedCommandName('/mo', 3)).toBe('mo');
    expect(typedCommandName('/model ', 7)).toBeNull();
    expect(typedCommandName('/model', 3)).toBeNull();
    expect(typedCommandName('hi /mo', 6)).toBeNull();
  });
});

describe('the command menu', () => {
  it('offers names that start with the query before names that contain it', () => {
    const choices = allCommands(builtinCommands(), [review, { ...review, name: 'preview', body: 'x' }]);
    expect(matchCommands('re', choices).map((c) => c.name)).toEqual(['review', 'preview']);
    expect(matchCommands('', choices).map((c) => c.name)).toEqual([
      'model',
      'effort',
      'status',
      'compact',
      'new',
      'clear',
      'sessions',
      'skills',
      'sandbox',
      'help',
      'review',
      'preview',
    ]);
  });

  it("never lets a person's command hide one of the panel's", () => {
    const choices = allCommands(builtinCommands(), [{ ...review, name: 'status' }]);
    expect(choices.filter((c) => c.name === 'status').map((c) => c.source)).toEqual(['builtin']);
  });

  it("lists each command in /help with its usage and where a person's comes from", () => {
    const lines = helpLines(allCommands(builtinCommands(), [{ ...review, argument_hint: '<path>' }]));
    expect(lines).toContain('/model [id] — Show or change the model');
    expect(lines).toContain('/review <path> — Review a file (workspace command)');
  });
});

describe('expandCommand', () => {
  it('puts the arguments wherever $ARGUMENTS stands', () => {
    expect(expandCommand('Review $ARGUMENTS, then test $ARGUMENTS.', 'a.ts')).toBe('Review a.ts, then test a.ts.');
    expect(expandCommand('Review $ARGUMENTS.', '')).toBe('Review .');
  });

  it('keeps arguments a body without $ARGUMENTS does not place, after it', () => {
    expect(expandCommand('Write the changelog.', 'for 2.0')).toBe('Write the changelog.\n\nfor 2.0');
    expect(expandCommand('Write the changelog.', '')).toBe('Write the changelog.');
  });
});

describe('completionKeyAction', () => {
  const key = (name: string, extra: Partial<Parameters<typeof completionKeyAction>[0]> = {}) =>
    completionKeyAction({
      key: name,
      shiftKey: false,
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      isComposing: false,
      ...extra,
    });

  it('moves with the arrows, picks with Tab, picks and runs with Enter, closes with Esc', () => {
    expect([key('ArrowDown'), key('ArrowUp'), key('Tab'), key('Enter'), key('Escape')]).toEqual([
      'next',
      'previous',
      'pick',
      'run',
      'close',
    ]);
  });

  it('leaves Shift+Enter, Shift+Tab, Ctrl+Enter and composing input to the message box', () => {
    expect(key('Enter', { shiftKey: true })).toBeNull();
    expect(key('Tab', { shiftKey: true })).toBeNull();
    expect(key('Enter', { ctrlKey: true })).toBeNull();
    expect(key('Enter', { isComposing: true })).toBeNull();
    expect(key('a')).toBeNull();
  });
});

describe("an MCP prompt's arguments as typed after its command", () => {
  const prompt = {
    server: 'fixture',
    name: 'release-notes',
    arguments: [
      { name: 'version', description: 'The version', required: true },
      { name: 'tone', description: '', required: false },
    ],
  };

  it('fills the declared arguments in order, the last one taking the rest of the line', () => {
    expect(promptArguments('mcp__fixture__release-notes', prompt, '2.4.0 warm and short')).toEqual({
      ok: true,
      value: { version: '2.4.0', tone: 'warm and short' },
    });
    expect(promptArguments('mcp__fixture__release-notes', prompt, '"2.4 beta" dry')).toEqual({
      ok: true,
      value: { version: '2.4 beta', tone: 'dry' },
    });
  });

  it('takes name=value in any order', () => {
    expect(promptArguments('mcp__fixture__release-notes', prompt, 'tone=dry version=3.0')).toEqual({
      ok: true,
      value: { version: '3.0', tone: 'dry' },
    });
    expect(promptArguments('mcp__fixture__release-notes', prompt, 'tone=dry 3.0')).toEqual({
      ok: true,
      value: { version: '3.0', tone: 'dry' },
    });
  });

  it('says which required argument is missing, with the usage', () => {
    expect(promptArguments('mcp__fixture__release-notes', prompt, '')).toEqual({
      ok: false,
      error:
        '/mcp__fixture__release-notes needs version. Usage: /mcp__fixture__release-notes <version> [tone] (version: The version).',
    });
  });

  it('refuses a word too many for a prompt without arguments', () => {
    const bare = { ...prompt, arguments: [] };
    expect(promptArguments('mcp__fixture__hello', bare, 'extra')).toEqual({
      ok: false,
      error: '/mcp__fixture__hello takes 0 arguments; "extra" is one too many. Usage: /mcp__fixture__hello.',
    });
  });

  it('finds the prompt by its name or its short form server:prompt, and nothing else by the short form', () => {
    const command: UserCommand = {
      name: 'mcp__fixture__release-notes',
      description: 'Release notes',
      body: '',
      source: 'mcp',
      prompt,
    };
    const commands = [review, command];
    expect(findCommand('mcp__fixture__release-notes', commands)).toBe(command);
    expect(findCommand('fixture:release-notes', commands)).toBe(command);
    expect(findCommand('review', commands)).toBe(review);
    expect(findCommand('fixture:review', commands)).toBeUndefined();
  });
});
