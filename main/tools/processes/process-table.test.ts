import { afterEach, describe, expect, it } from 'vitest';
import { useTempWorkspace } from '../../../test/temp-workspace.ts';
import { ProcessTable } from './process-table.ts';

// A reopened session's table goes on after the ids its log shows, so a card of an earlier process
// and a new process never share an id.

const temp = useTempWorkspace('aether-process-table-');
const tables: ProcessTable[] = [];

afterEach(async () => {
  for (const table of tables.splice(0)) await table.close();
});

describe('a reopened session’s process ids', () => {
  it('go on after the highest id the session already used', async () => {
    const table = new ProcessTable();
    tables.push(table);
    table.continueAfter(['p2', 'p7', 'p3', 'not-an-id']);
    const started = await table.start({
      callId: 'call-1',
      sessionDir: temp.sessionDir,
      request: { shell: '/bin/sh', command: 'exit 0', cwd: temp.workspace, env: {} },
      tty: false,
    });
    expect(started.id).toBe('p8');
  });
});
