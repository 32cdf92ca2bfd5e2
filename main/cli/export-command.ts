import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatBytes } from '../../protocol/format.ts';
import { exportSession, sessionsRoot } from '../agent/export/session-export.ts';
import { SessionReadError } from '../agent/rewind.ts';
import { parseCommandLine, UsageError, type Command } from './command.ts';
import { sessionReadFailure } from './session-read-failure.ts';
import { terminalSafe } from './terminal-text.ts';

// `aether export SESSION`: a session as Markdown on stdout, or with --html a self-contained HTML
// page drawn like the panel; -o FILE writes it to a file instead. The values of environment
// variables named like secrets (API keys, tokens, passwords) are replaced wherever they appear.

export const exportCommand: Command = {
  usage:
    'export SESSION [--html] [-o FILE] [--sessions DIR]  (Markdown, or an HTML page, on stdout or in FILE; secrets from the environment removed)',
  async run(argv) {
    const { values, positionals } = parseCommandLine(argv, {
      sessions: { type: 'string' },
      html: { type: 'boolean' },
      output: { type: 'string', short: 'o' },
    });
    const [id, ...extra] = positionals;
    if (!id || extra.length > 0) throw new UsageError('Give one session id (aether sessions lists them).');
    const format = values.html ? 'html' : 'markdown';
    let exported;
    try {
      exported = await exportSession({ root: sessionsRoot({ flag: values.sessions }), id, format });
    } catch (error) {
      const message = (error as Error).message;
      process.stderr.write(
        error instanceof SessionReadError ? sessionReadFailure(message, values.sessions) : `${terminalSafe(message)}\n`,
      );
      return 1;
    }
    if (values.output === undefined) {
      process.stdout.write(terminalSafe(exported.text));
      return 0;
    }
    const file = path.resolve(values.output);
    try {
      await writeFile(file, exported.text);
    } catch (error) {
      process.stderr.write(`${terminalSafe(`Could not write ${file}: ${(error as Error).message}`)}\n`);
      return 1;
    }
    process.stderr.write(
      `${terminalSafe(`Exported session ${id} as ${format === 'html' ? 'an HTML page' : 'Markdown'} to ${file} (${formatBytes(Buffer.byteLength(exported.text))}).`)}\n`,
    );
    return 0;
  },
};
