import type { SendMode } from '../../protocol/queue.ts';
import type { PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { mentionsIn } from './mentions.ts';
import { runBuiltin, type ComposerNotice } from './run-builtin.ts';
import type { useAttachments } from './use-attachments.ts';
import { expandCommand, isBuiltin, parseSlash, unknownCommandMessage } from './slash-commands.ts';
import type { useCompletion } from './use-completion.ts';

// Sending what is in the message box: a slash command runs (the panel's) or expands into the
// message it stands for (the person's, `$ARGUMENTS` filled in); anything else is sent with the
// paths picked with `@` that it still mentions and the images attached. False: nothing went out,
// the text (and the images) stay.

export function useComposerSubmit(
  actions: PanelActions,
  completion: ReturnType<typeof useCompletion>,
  attachments: ReturnType<typeof useAttachments>,
  setNotice: (notice: ComposerNotice | null) => void,
) {
  const send = async (message: string, mode?: SendMode) => {
    const images = attachments.images.map((image) => image.sha256);
    const sent = await actions.send(message, mentionsIn(message, completion.picked), images, mode);
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
    const own = commands.find((command) => command.name === slash.name);
    if (!own) {
      setNotice({ tone: 'error', title: `Unknown command /${slash.name}`, lines: [unknownCommandMessage(slash.name)] });
      return false;
    }
    setNotice(null);
    return send(expandCommand(own.body, slash.args), mode);
  };

  return submitMessage;
}
