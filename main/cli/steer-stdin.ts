import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { AgentSession } from '../agent/agent-session.ts';
import { terminalSafe } from './terminal-text.ts';

// `aether run --steer-stdin`: every line read from stdin while the turn runs is sent to it as a
// steer, delivered at the turn's next safe point as the panel's Enter is (one that arrives as the
// turn ends starts one more turn, which the run waits for). Blank lines are skipped; what arrives
// after the run has ended is not read.

export function steerFromStdin(input: Readable, session: Pick<AgentSession, 'send'>): { close(): void } {
  const lines = createInterface({ input, crlfDelay: Infinity, terminal: false });
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    const sent = session.send(line);
    if (!sent.ok) process.stderr.write(terminalSafe(`The steer was not sent: ${sent.error}\n`));
  });
  return {
    close() {
      lines.close();
      // Nothing more is read: the process may end though stdin stays open.
      input.destroy();
    },
  };
}
