import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FileMatch, McpResourceMatch, MentionKind, UserCommand } from '../../protocol/composer.ts';
import { resourceLabel } from './mcp-resources.ts';
import type { PanelActions } from '../actions.ts';
import type { CompletionItem } from './CompletionMenu.tsx';
import { insertMention, mentionAt, type MentionQuery } from './mentions.ts';
import { allCommands, builtinCommands, matchCommands, typedCommandName, type CommandChoice } from './slash-commands.ts';

// The message box's completion: which menu is open for the text and caret (a command name being
// typed after `/`, or a path after `@`), its options, the active one, and what picking does.

export interface Completion {
  kind: 'command' | 'mention';
  label: string;
  items: CompletionItem[];
  active: number;
  empty: string;
}

export interface Picked {
  text: string;
  caret: number;
  /** The command picked, when it takes no arguments: Enter runs it at once. */
  runnable?: boolean;
}

interface Options {
  actions: PanelActions;
  text: string;
  caret: number;
}

const FILE_QUERY_DELAY_MS = 60;

export function useCompletion({ actions, text, caret }: Options) {
  const [userCommands, setUserCommands] = useState<UserCommand[]>([]);
  const [files, setFiles] = useState<{ query: string; matches: FileMatch[] } | null>(null);
  const [resources, setResources] = useState<{ query: string; matches: McpResourceMatch[] } | null>(null);
  const [active, setActive] = useState(0);
  /** The text for which the person closed the menu (Esc): it stays closed until the text changes. */
  const [closedFor, setClosedFor] = useState<string | null>(null);
  /** Paths picked with `@`, and whether each is a file or a folder. */
  const picked = useRef(new Map<string, MentionKind>());
  /** MCP resources picked with `@`, by the label typed after it (`server:name`). */
  const pickedResources = useRef(new Map<string, McpResourceMatch>());

  const commandName = typedCommandName(text, caret);
  const mention: MentionQuery | null = commandName === null ? mentionAt(text, caret) : null;
  const choices = useMemo(() => allCommands(builtinCommands(), userCommands), [userCommands]);
  const open = closedFor !== text && (commandName !== null || mention !== null);

  const reloadCommands = useCallback(async (): Promise<UserCommand[]> => {
    const listed = await actions.userCommands();
    setUserCommands(listed.commands);
    return listed.commands;
  }, [actions]);

  // The person's commands are read again each time a `/` starts a message: a file just written counts.
  const commandMenuOpen = commandName !== null;
  useEffect(() => {
    if (commandMenuOpen) void reloadCommands();
  }, [commandMenuOpen, reloadCommands]);

  const mentionQuery = mention?.query ?? null;
  useEffect(() => {
    if (mentionQuery === null || !open) return;
    let current = true;
    const timer = setTimeout(() => {
      void actions.findFiles(mentionQuery).then((found) => {
        if (current) setFiles({ query: mentionQuery, matches: found?.matches ?? [] });
      });
      // The running MCP servers' resources, listed after the files.
      void actions.mcpResources(mentionQuery).then((found) => {
        if (current) setResources({ query: mentionQuery, matches: found ?? [] });
      });
    }, FILE_QUERY_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [mentionQuery, open, actions]);

  const commandMatches: CommandChoice[] = commandName === null ? [] : matchCommands(commandName, choices);
  const fileMatches = mention && files?.query === mention.query ? files.matches : [];
  const resourceMatches = mention && resources?.query === mention.query ? resources.matches : [];

  useEffect(() => setActive(0), [commandName, mentionQuery, files, resources]);

  let completion: Completion | null = null;
  if (open && commandName !== null) {
    completion = {
      kind: 'command',
      label: 'Commands',
      items: commandMatches.map((choice) => ({
        id: `${choice.source}:${choice.name}`,
        label: `/${choice.name}${choice.argument_hint ? ` ${choice.argument_hint}` : ''}`,
        detail: choice.description,
        ...(choice.source === 'builtin' ? {} : { tag: choice.source === 'mcp' ? 'MCP prompt' : choice.source }),
      })),
      active: Math.min(active, Math.max(commandMatches.length - 1, 0)),
      empty: `No command starts with /${commandName}.`,
    };
  } else if (open && mention) {
    const waiting = files?.query !== mention.query;
    const count = fileMatches.length + resourceMatches.length;
    completion = {
      kind: 'mention',
      label: resourceMatches.length > 0 ? 'Files, folders and MCP resources' : 'Files and folders',
      items: [
        ...fileMatches.map((match) => ({
          id: `${match.kind}:${match.path}`,
          label: match.kind === 'dir' ? `${match.path}/` : match.path,
          highlight: match.indexes,
          ...(match.kind === 'dir' ? { tag: 'folder' } : {}),
        })),
        ...resourceMatches.map((resource) => ({
          id: `mcp:${resource.server}:${resource.uri}`,
          label: resourceLabel(resource),
          detail: resource.description || resource.uri,
          tag: 'MCP resource',
        })),
      ],
      active: Math.min(active, Math.max(count - 1, 0)),
      empty: waiting ? 'Searching the workspace…' : `No file, folder or MCP resource matches "${mention.query}".`,
    };
  }

  const move = (delta: number) => {
    if (!completion || completion.items.length === 0) return;
    const count = completion.items.length;
    setActive((completion.active + delta + count) % count);
  };

  const pick = (index: number): Picked | null => {
    if (completion?.kind === 'mention' && index >= fileMatches.length) {
      const resource = resourceMatches[index - fileMatches.length];
      if (!resource || !mention) return null;
      const label = resourceLabel(resource);
      pickedResources.current.set(label, resource);
      const inserted = insertMention(text, mention, label);
      setClosedFor(inserted.text);
      return inserted;
    }
    if (!completion) return null;
    if (completion.kind === 'command') {
      const choice = commandMatches[index];
      if (!choice) return null;
      const next = `/${choice.name} `;
      setClosedFor(next);
      const body = userCommands.find((command) => command.name === choice.name)?.body ?? '';
      const runnable = choice.argument_hint === undefined && !body.includes('$ARGUMENTS');
      return { text: next, caret: next.length, runnable };
    }
    const match = fileMatches[index];
    if (!match || !mention) return null;
    picked.current.set(match.path, match.kind);
    const inserted = insertMention(text, mention, match.path);
    setClosedFor(inserted.text);
    return inserted;
  };

  return {
    completion,
    move,
    pick,
    setActive,
    close: () => setClosedFor(text),
    picked: picked.current,
    pickedResources: pickedResources.current,
    /** The person's commands as last read; read again when a message names one not seen yet. */
    userCommands,
    reloadCommands,
    choices,
  };
}
