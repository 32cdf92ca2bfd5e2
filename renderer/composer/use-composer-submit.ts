import type { SendMode } from '../../protocol/queue.ts';
import type { PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { resourcesIn, withResources } from './mcp-resources.ts';
import { mentionsIn } from './mentions.ts';
import { runBuiltin, type ComposerNotice } from './run-builtin.ts';
import type { useAttachments } from './use-attachments.ts';
import {
  expandCommand,
  findCommand,
  isBuiltin,
  parseSlash,
  promptArguments,
  unknownCommandMessage,
} from './slash-commands.ts';
import type { useCompletion } from './use-completion.ts';

// Sending what is in the message box: a slash command runs (the panel's) or expands into the
// message it stands for (the person's, `$ARGUMENTS` filled in; an MCP prompt's, made by its
// server from the arguments); anything else is sent with the
// paths picked with `@` that it still mentions and the images attached. False: nothing went out,
// the text (and the images) stay.

export function useComposerSubmit(
  actions: PanelActions,
  completion: ReturnType<typeof useCompletion>,
  attachments: ReturnType<typeof useAttachments>,
  setNotice: (notice: ComposerNotice | null) => void,
) {
  const send = async (typed: string, mode?: SendMode) => {
    const images = attachments.images.map((image) => image.sha256);
    // MCP resources picked with `@` are read now and go after the message; one that cannot be, stops it.
    const resources = resourcesIn(typed, completion.pickedResources);
    let message = typed;
    if (resources.length > 0) {
      const attached = await withResources(typed, resources, actions);
      if (!attached.ok) {
        setNotice({ tone: 'error', title: 'MCP resource', lines: [attached.error] });
        return false;
      }
      message = attached.value;
    }
    const sent = await actions.send(message, mentionsIn(typed, completion.picked), images, mode);
    if (sent) attachments.clear();
    return sent;
  };

  const submitMessage = async (typed: string, mode?: SendMode): Promise<boolean> => {
    const message = typed.trim();
    const slash = parseSlash(typed);
    if (!slash) {
      setNotice(null);
      return send(message, mode);
    }
    if (isBuiltin(slash.name, completion.choices)) {
      const outcome = await runBuiltin(slash.name, slash.args, {
        actions,
        state: usePanel.getState,
        choices: completion.choices,
      });
      setNotice(outcome.notice ?? null);
      return outcome.done;
    }
    // Read again: a command file written since the menu last opened counts.
    const commands = await completion.reloadCommands();
    const own = findCommand(slash.name, commands);
    if (!own) {
      setNotice({ tone: 'error', title: `Unknown command /${slash.name}`, lines: [unknownCommandMessage(slash.name)] });
      return false;
    }
    if (own.prompt) {
      // An MCP prompt: its server makes the message from the arguments.
      const args = promptArguments(own.name, own.prompt, slash.args);
      if (!args.ok) {
        setNotice({ tone: 'error', title: `/${own.name}`, lines: [args.error] });
        return false;
      }
      const made = await actions.mcpPrompt(own.prompt.server, own.prompt.name, args.value);
      if (!made.ok) {
        setNotice({ tone: 'error', title: `/${own.name}`, lines: [made.error] });
        return false;
      }
      setNotice(null);
      return send(made.value.text, mode);
    }
    setNotice(null);
    return send(expandCommand(own.body, slash.args), mode);
  };

  return submitMessage;
}
