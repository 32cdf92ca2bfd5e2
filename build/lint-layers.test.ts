import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The project's own lint configuration, run on snippets placed (by name only) inside main/.

const projectRoot = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: projectRoot });

async function layerProblems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(projectRoot, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'aether/layers').map((m) => m.message);
}

describe('layers inside main/', () => {
  it('fails a tool that imports the agent layer', async () => {
    const problems = await layerProblems(
      'main/tools/files/peek.ts',
      "import { runTurn } from '../../agent/turn.ts';\nexport const peek = runTurn;\n",
    );
    expect(problems).toEqual([
      'main/tools/ may not import from main/agent/: it imports only from main/status/. Move the shared code down a layer, or pass it in from above.',
    ]);
  });

  it('fails a type-only import, a re-export and a dynamic import up the layers alike', async () => {
    const problems = await layerProblems(
      'main/session/peek.ts',
      [
        "import type { PanelService } from '../host/panel-service.ts';",
        "export { runTurn } from '../agent/turn.ts';",
        "export const later = (): Promise<unknown> => import('../cli/main.ts');",
        'export type Service = PanelService;',
      ].join('\n'),
    );
    expect(problems).toHaveLength(3);
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      'main/session/ may not import from main/host/',
      'main/session/ may not import from main/agent/',
      'main/session/ may not import from main/cli/',
    ]);
  });

  it('fails the model layer importing anything else in main/', async () => {
    const problems = await layerProblems(
      'main/model/peek.ts',
      "import type { StatusSink } from '../status/sink.ts';\nexport type Sink = StatusSink;\n",
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('main/model/ may not import from main/status/: it imports nothing else in main/.');
  });

  it('passes imports down the layers, within a layer, and outside main/', async () => {
    const problems = await layerProblems(
      'main/agent/peek.ts',
      [
        "import type { ToolRegistry } from '../tools/registry.ts';",
        "import type { SessionWriter } from '../session/writer.ts';",
        "import type { Turn } from './turn.ts';",
        "import type { StatusEvent } from '../../protocol/events.ts';",
        "import { z } from 'zod';",
        'export type All = [ToolRegistry, SessionWriter, Turn, StatusEvent, typeof z];',
      ].join('\n'),
    );
    expect(problems).toEqual([]);
  });

  it('keeps the two entry points apart', async () => {
    const problems = await layerProblems(
      'main/electron/peek.ts',
      "import { main } from '../cli/main.ts';\nexport const run = main;\n",
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('main/electron/ may not import from main/cli/');
  });

  it('fails a host that imports a value from main/tools/ or main/session/, and passes their types', async () => {
    const problems = await layerProblems(
      'main/host/peek.ts',
      [
        "import { builtinTools } from '../tools/index.ts';",
        "import type { AnyTool } from '../tools/tool.ts';",
        "import type { SessionLog } from '../session/session-log.ts';",
        "import { openAgentSession } from '../agent/open-agent-session.ts';",
        'export const all: [typeof builtinTools, AnyTool?, SessionLog?, typeof openAgentSession?] = [builtinTools];',
      ].join('\n'),
    );
    expect(problems).toEqual([
      'main/host/ imports only types from main/tools/: use `import type`, or reach what runs through main/agent/.',
    ]);
  });

  it('fails value imports of the command line and the desktop app from main/session/, however spelled', async () => {
    const cli = await layerProblems(
      'main/cli/peek.ts',
      [
        // An inline `type` still loads the module (verbatimModuleSyntax): only `import type` is types alone.
        "import { type SessionLog } from '../session/session-log.ts';",
        "export { listSessions } from '../session/catalog.ts';",
        "export type { SessionSummary } from '../session/catalog.ts';",
        "export const later = (): Promise<unknown> => import('../session/paths.ts');",
        'export type Log = SessionLog;',
      ].join('\n'),
    );
    expect(cli).toHaveLength(3);
    for (const problem of cli) expect(problem).toContain('main/cli/ imports only types from main/session/');
    const electron = await layerProblems(
      'main/electron/peek.ts',
      "import { sessionsRoot } from '../session/paths.ts';\nexport const root = sessionsRoot;\n",
    );
    expect(electron).toEqual([
      'main/electron/ imports only types from main/session/: use `import type`, or reach what runs through main/agent/.',
    ]);
  });

  it('fails a file in a folder of main/ that the layer table does not place', async () => {
    const problems = await layerProblems('main/plugins/loader.ts', 'export const loader = 1;\n');
    expect(problems).toEqual([
      'main/plugins/ is not in the layer table of eslint.config.js: add it with the layers it may import from.',
    ]);
  });
});
