import type { AgentSessionSummary } from '../../protocol/api.ts';
import { deleteSession, listSessions, sessionFileOf, sessionsRoot } from '../agent/sessions.ts';
import { parseCommandLine, UsageError, type Command } from './command.ts';
import { terminalJson, terminalSafe } from './terminal-text.ts';

// `aether sessions`: the sessions folder, newest first (id, last activity, workspace, title);
// the sessions its agents started are listed under each, indented;
// `--delete ID` removes one session with its folder; `--json` prints the summaries as JSON lines.

export const sessionsCommand: Command = {
  usage: 'sessions [--sessions DIR] [--json] [--delete ID]',
  async run(argv) {
    const { values, positionals } = parseCommandLine(argv, {
      sessions: { type: 'string' },
      json: { type: 'boolean' },
      delete: { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError(`Unexpected arguments: ${positionals.join(' ')}.`);
    const root = sessionsRoot({ flag: values.sessions });
    if (values.delete !== undefined) {
      try {
        await deleteSession(root, values.delete);
      } catch (error) {
        process.stderr.write(`${terminalSafe((error as Error).message)}\n`);
        return 1;
      }
      process.stdout.write(`Deleted session ${values.delete} (${sessionFileOf(root, values.delete)}).\n`);
      return 0;
    }
    const sessions = await listSessions(root);
    if (values.json) {
      for (const session of sessions)
        process.stdout.write(`${terminalJson({ ...session, file: sessionFileOf(root, session.id) })}\n`);
      return 0;
    }
    if (sessions.length === 0) {
      process.stdout.write(`No sessions in ${root}.\n`);
      return 0;
    }
    for (const session of sessions) {
      const when = session.updated_at.slice(0, 16).replace('T', ' ');
      process.stdout.write(
        `${terminalSafe(`${session.id}  ${when}  ${session.workspace}  ${session.title || '(no message yet)'}`)}\n`,
      );
      for (const line of agentLines(session.agents ?? [], '  ')) process.stdout.write(`${terminalSafe(line)}\n`);
    }
    if (sessions.some((session) => (session.agents ?? []).length > 0))
      process.stdout.write('(↳ an agent’s session: `aether export ID` prints it; it is deleted with its parent.)\n');
    return 0;
  },
};

/** The sessions agents started, under their parent, each indented under the one that started it. */
function agentLines(agents: readonly AgentSessionSummary[], indent: string): string[] {
  return agents.flatMap((agent) => [
    `${indent}↳ ${agent.id}  agent ${agent.agent}  ${agent.title || '(no task yet)'}`,
    ...agentLines(agent.agents ?? [], `${indent}  `),
  ]);
}
