import { rm } from 'node:fs/promises';
import { makeTempWorkspace } from './temp-workspace.ts';
import { z } from 'zod';
import { StatusRecorder } from '../main/status/sink.ts';
import {
  ALLOW_ALL,
  PermissionGate,
  RefuseApprover,
  type Approver,
  type GateRules,
} from '../main/tools/permission-gate.ts';
import { defaultCallHooks } from '../main/tools/default-call-hooks.ts';
import { ToolRegistry } from '../main/tools/registry.ts';
import { createRunCodeTool } from '../main/tools/code-mode/run-code.ts';
import type { RunCodeLimits } from '../main/tools/code-mode/run-code-protocol.ts';
import { defineTool } from '../main/tools/tool.ts';
import { readFileTool } from '../main/tools/files/read-file.ts';
import { writeFileTool } from '../main/tools/files/write-file.ts';

// A real registry over a real temp workspace for the run_code tests: the real file tools, and two
// probes of timing the tests need to see (`wait` records starts and cancellations, `meet` only
// finishes when calls run together).

export interface RunCodeFixture {
  root: string;
  workspace: string;
  sessionDir: string;
  registry: ToolRegistry;
  sink: StatusRecorder;
  /** Labels of `wait` calls that started, and of those that saw their signal abort. */
  started: string[];
  cancelled: string[];
  dispose(): Promise<void>;
}

export async function runCodeFixture(
  options: { rules?: GateRules; approver?: Approver; limits?: Partial<RunCodeLimits> } = {},
): Promise<RunCodeFixture> {
  const { root, workspace, sessionDir } = await makeTempWorkspace('aether-run-code-');
  const sink = new StatusRecorder();
  const gate = new PermissionGate(
    options.rules ?? ALLOW_ALL,
    options.approver ?? new RefuseApprover(() => 'nobody can answer in this test'),
  );
  const registry = new ToolRegistry({ workspace, sessionDir, sink, gate, hooks: defaultCallHooks() });
  const started: string[] = [];
  const cancelled: string[] = [];
  registry.register(
    readFileTool,
    writeFileTool(),
    waitTool(started, cancelled),
    meetTool(),
    createRunCodeTool({ tools: () => registry.list(), ...(options.limits ? { limits: options.limits } : {}) }),
  );
  return {
    root,
    workspace,
    sessionDir,
    registry,
    sink,
    started,
    cancelled,
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

function waitTool(started: string[], cancelled: string[]) {
  return defineTool({
    name: 'wait',
    model: {
      description: 'Waits, then answers; stops early when cancelled.',
      schema: z.object({ ms: z.number().int().min(0), label: z.string() }),
      render: (result: string) => result,
    },
    gate: { kind: 'read' },
    async execute(args, ctx) {
      started.push(args.label);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, args.ms);
        ctx.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            cancelled.push(args.label);
            reject(new DOMException('stopped', 'AbortError'));
          },
          { once: true },
        );
      });
      return args.label;
    },
  });
}

/** Each call waits until `of` calls are waiting together: calls made one after another never meet. */
function meetTool() {
  let waiting: (() => void)[] = [];
  return defineTool({
    name: 'meet',
    model: {
      description: 'Waits for the others.',
      schema: z.object({ label: z.string(), of: z.number().int().min(1) }),
      render: (result: string) => result,
    },
    gate: { kind: 'read' },
    async execute(args) {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (waiting.length < args.of) return;
        for (const release of waiting) release();
        waiting = [];
      });
      return args.label;
    },
  });
}

let calls = 0;

/** One top-level run_code call through the registry. */
export function runCode(fixture: RunCodeFixture, code: string, signal?: AbortSignal) {
  calls += 1;
  return fixture.registry.call({
    callId: `call-${calls}`,
    name: 'run_code',
    args: { code },
    ...(signal ? { signal } : {}),
  });
}
