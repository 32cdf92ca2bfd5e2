import { afterEach } from 'vitest';
import { StatusRecorder } from '../main/status/sink.ts';
import { execTool } from '../main/tools/exec/exec.ts';
import { ALLOW_ALL, PermissionGate, RefuseApprover } from '../main/tools/permission-gate.ts';
import { DEFAULT_PROCESS_LIMITS, ProcessTable, type ProcessLimits } from '../main/tools/processes/process-table.ts';
import { processTools } from '../main/tools/processes/process-tools.ts';
import { ToolRegistry } from '../main/tools/registry.ts';
import { killStill } from './processes.ts';
import { useTempWorkspace, type TempWorkspace } from './temp-workspace.ts';

/**
 * For a test file of the process tools: a temp workspace per test, and a registry with exec and the
 * process tools over a table of its own (a short kill grace), every table closed and every pid in
 * `pids` killed after each test.
 */
export function useProcessTools(prefix: string): {
  temp: TempWorkspace;
  pids: number[];
  setup(limits?: ProcessLimits): { table: ProcessTable; registry: ToolRegistry };
} {
  const temp = useTempWorkspace(prefix);
  const tables: ProcessTable[] = [];
  const pids: number[] = [];
  afterEach(async () => {
    for (const table of tables.splice(0)) await table.close();
    killStill(pids);
  });
  const setup = (limits: ProcessLimits = DEFAULT_PROCESS_LIMITS) => {
    const table = new ProcessTable({ limits: () => limits, killGraceMs: 300 });
    tables.push(table);
    const registry = new ToolRegistry({
      workspace: temp.workspace,
      sessionDir: temp.sessionDir,
      sink: new StatusRecorder(),
      gate: new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'nobody to ask')),
      readableRoots: [temp.sessionDir],
    });
    registry.register(execTool({ shell: '/bin/sh', processes: table, settleMs: 300 }), ...processTools(table));
    return { table, registry };
  };
  return { temp, pids, setup };
}
