import { newestSessionOf, newestTurnModel, peekSession, sessionFileOf } from '../agent/sessions.ts';
import { workspaceRoot } from '../agent/workspace-files.ts';
import { UsageError } from './command.ts';

// Which session `aether run` goes on with — the one `--resume ID` names, or with `--continue` the
// newest of the workspace — with the workspace and model it records; and the command that goes on
// with a session, printed when a run ends.

export interface ResumeTarget {
  id: string;
  /** The flag that chose it, for messages. */
  flag: '--resume' | '--continue';
  /** The workspace the session was started in. */
  workspace: string;
  /** The model the run goes on with: `--model`'s, else the one its newest turn ran on. */
  model: string;
}

export interface ResumeChoice {
  resume: string | undefined;
  continue: boolean;
  /** `--workspace`: the folder whose newest session `--continue` takes (default: the current one). */
  workspace: string | undefined;
  /** `--model`: when given, the session's own model is not looked up. */
  model?: string | undefined;
}

/** The session to go on with, or null for a new one. Mistakes (no such session, none to continue) are UsageErrors. */
export async function resumeTarget(root: string, choice: ResumeChoice): Promise<ResumeTarget | null> {
  if (choice.resume !== undefined && choice.continue)
    throw new UsageError('Give either --resume ID or --continue, not both.');
  let id = choice.resume;
  if (choice.continue) {
    const workspace = await workspaceRoot(choice.workspace ?? '.').catch((error: Error) => {
      throw new UsageError(error.message);
    });
    const newest = await newestSessionOf(root, workspace);
    if (!newest)
      throw new UsageError(
        `No session of ${workspace} in ${root} to continue. Leave out --continue to start one, or list them with \`aether sessions\`.`,
      );
    id = newest.id;
  }
  if (id === undefined) return null;
  // The header and the newest turn's model, read from the file's two ends: the resume itself reads
  // the whole session once, right after.
  const summary = await peekSession(root, id).catch((error: Error) => {
    throw new UsageError(error.message);
  });
  const newest = choice.model ?? (await newestTurnModel(sessionFileOf(root, id)).catch(() => null));
  return {
    id,
    flag: choice.continue ? '--continue' : '--resume',
    workspace: summary.workspace,
    model: newest ?? summary.model ?? '',
  };
}

/** `aether run --resume ID "…"`, naming the sessions folder when the run was given one. */
export function resumeCommand(id: string, sessionsFlag: string | undefined, root: string): string {
  const sessions = sessionsFlag === undefined ? '' : ` --sessions ${shellWord(root)}`;
  return `aether run --resume ${id}${sessions} "…"`;
}

/** A word the shell reads back as it is: quoted only when it has to be. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
