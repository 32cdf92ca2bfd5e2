import type { PermissionMode, PermissionRuleLists } from '../../protocol/api.ts';
import type { ReasoningEffort } from '../../protocol/events.ts';
import { PERMISSION_MODES, REASONING_EFFORTS } from '../../protocol/values.ts';
import { hookNotices } from '../agent/hooks.ts';
import { AgentChoiceError } from '../agent/agents/as-agent.ts';
import { declineForms } from '../agent/mcp-forms.ts';
import { openAgentSession, type OpenedAgentSession } from '../agent/open-agent-session.ts';
import { isPermissionMode, parseAllowList, sandboxUnavailable } from '../agent/permissions.ts';
import { describeSandbox } from '../../protocol/sandbox.ts';
import { parseRuleLists } from '../agent/session-permissions.ts';
import { SessionToolset } from '../agent/session-toolset.ts';
import { SessionLockedError, sessionsRoot } from '../agent/sessions.ts';
import { startSweep } from '../agent/start-sweep.ts';
import { workspaceRoot } from '../agent/workspace-files.ts';
import { catalogRefreshOptions, configHome } from '../host/app-paths.ts';
import { refreshModelCatalog } from '../model/model-catalog.ts';
import { createModelAdapter } from '../model/index.ts';
import { ModelConfigError, type ModelAdapter } from '../model/types.ts';
import type { ToolKind } from '../tools/tool.ts';
import { parseCommandLine, UsageError, type Command } from './command.ts';
import { ExitSignals, stopReason } from './exit-signals.ts';
import { resumeCommand, resumeTarget, type ResumeTarget } from './run-resume.ts';
import { runSandbox, type RunSandbox } from './run-sandbox.ts';
import { terminalSafe, terminalStyle, toned } from './terminal-text.ts';
import { transcriptPrinter } from './transcript-output.ts';
import { steerFromStdin } from './steer-stdin.ts';
import { JsonLinesPrinter, TranscriptPrinter } from './transcript-printer.ts';

// `aether run`: one turn, headless. Nobody can answer a permission question here, so by default
// reads go through and writes, commands and SSH are refused with the flag that allows them.
// Exit code: 0 when the turn completed, 1 when it failed, 130 when Ctrl-C stopped it (143 SIGTERM,
// 129 SIGHUP), 2 for a mistake in the command line or the model configuration.

export const runCommand: Command = {
  usage:
    'run "<prompt>" --workspace DIR --model <id> [options]  (one turn, headless; aether run --help lists the options)',
  help: [
    'Options:',
    '  -w, --workspace DIR          the folder the model works in',
    '  -m, --model ID               the model (demo, anthropic:…, openai:…, compat:URL#model); a resumed session keeps its own',
    '  --json                       each event as a JSON line instead of the transcript',
    "  --sessions DIR               where sessions are kept (default: the app's folder)",
    "  --resume ID | --continue     go on with a session, or with the workspace's newest",
    '  --allow write,exec,ssh       what may run without a question (nobody is here to answer one)',
    `  --permission-mode MODE       ${PERMISSION_MODES.join(', ')}`,
    `  --effort LEVEL               ${REASONING_EFFORTS.join(', ')}`,
    '  --agent NAME                 run as an agent: general, explore, review or one of .aethercodex/agents',
    '  --request-timeout SECONDS    how long one model request may take',
    '  --steer-stdin                each line read from stdin while the turn runs steers it',
    '  --keep-processes             background processes go on after the run; their pids, ports and output files are printed',
    '  --sandbox-rules JSON         with --permission-mode sandbox: replaces the fields of settings.json\'s "sandbox" it names,',
    '                               e.g. \'{"network": ["registry.npmjs.org"]}\'',
    '  --sandbox-allow HOST         with --permission-mode sandbox: one more host commands may reach (repeatable)',
    '  --allow-rule RULE            allowed without a question (repeatable); RULE: exec(npm test *), write(src/**), ssh(host:*)',
    '  --ask-rule RULE              refused here, as nobody can be asked (repeatable)',
    '  --deny-rule RULE             always refused (repeatable)',
    '',
    'Exit code: 0 the turn completed, 1 it failed, 2 a mistake in the command line or the model, 130 stopped by Ctrl-C.',
  ].join('\n'),
  async run(argv) {
    const { values, positionals } = parseCommandLine(argv, {
      workspace: { type: 'string', short: 'w' },
      model: { type: 'string', short: 'm' },
      json: { type: 'boolean' },
      sessions: { type: 'string' },
      resume: { type: 'string' },
      continue: { type: 'boolean' },
      allow: { type: 'string' },
      'allow-rule': { type: 'string', multiple: true },
      'ask-rule': { type: 'string', multiple: true },
      'deny-rule': { type: 'string', multiple: true },
      'permission-mode': { type: 'string' },
      'sandbox-allow': { type: 'string', multiple: true },
      'sandbox-rules': { type: 'string' },
      effort: { type: 'string' },
      'request-timeout': { type: 'string' },
      agent: { type: 'string' },
      'steer-stdin': { type: 'boolean' },
      'keep-processes': { type: 'boolean' },
    });
    const prompt = positionals.join(' ').trim();
    if (prompt.length === 0) throw new UsageError('Give the prompt as the last argument, in quotes.');
    const mode = values['permission-mode'] ?? 'ask';
    if (!isPermissionMode(mode))
      throw new UsageError(`Unknown permission mode "${mode}": use ${PERMISSION_MODES.join(', ')}.`);
    const effort = values.effort ?? 'off';
    if (!(REASONING_EFFORTS as readonly string[]).includes(effort))
      throw new UsageError(`Unknown effort "${effort}": use ${REASONING_EFFORTS.join(', ')}.`);
    let allow: ToolKind[];
    try {
      allow = parseAllowList(values.allow ?? '');
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const rules: PermissionRuleLists = {
      allow: values['allow-rule'] ?? [],
      ask: values['ask-rule'] ?? [],
      deny: values['deny-rule'] ?? [],
    };
    try {
      parseRuleLists(rules);
    } catch (error) {
      throw new UsageError((error as Error).message.replace(/^In the (\w+) rules/, 'In --$1-rule'));
    }
    const sandbox = await runSandbox(
      mode,
      { rules: values['sandbox-rules'], hosts: values['sandbox-allow'] ?? [] },
      configHome(),
    );
    const timeout = values['request-timeout'];
    const seconds = timeout === undefined ? undefined : Number(timeout);
    if (seconds !== undefined && !(Number.isFinite(seconds) && seconds > 0))
      throw new UsageError(
        `--request-timeout takes the seconds one model request may take (above 0), not "${timeout}".`,
      );
    const root = sessionsRoot({ flag: values.sessions });
    const resume = await resumeTarget(root, {
      resume: values.resume,
      continue: values.continue === true,
      workspace: values.workspace,
      model: values.model,
    });
    // A resumed session goes on with the model it records unless --model names another.
    const modelId = values.model ?? resume?.model ?? process.env['AETHERCODEX_MODEL'];
    if (!modelId)
      throw new UsageError(
        'Choose a model with --model: anthropic:<model>, openai:<model>, compat:<baseURL>#<model>, or demo.',
      );

    let model: ModelAdapter;
    try {
      model = createModelAdapter(modelId, seconds === undefined ? {} : { requestTimeoutMs: seconds * 1000 });
    } catch (error) {
      if (error instanceof ModelConfigError) {
        process.stderr.write(`${terminalSafe(error.message)}\n`);
        return 2;
      }
      throw error;
    }
    try {
      return await runTurnHeadless({
        prompt,
        model,
        root,
        workspace: values.workspace,
        resume,
        sessionsFlag: values.sessions,
        json: values.json === true,
        mode,
        allow,
        rules,
        sandbox,
        effort: effort as ReasoningEffort,
        ...(values.agent ? { agent: values.agent } : {}),
        steerStdin: values['steer-stdin'] === true,
        keepProcesses: values['keep-processes'] === true,
      });
    } finally {
      await model.close?.();
    }
  },
};

interface HeadlessRun {
  prompt: string;
  model: ModelAdapter;
  root: string;
  workspace: string | undefined;
  resume: ResumeTarget | null;
  /** `--sessions` as given, for the command that resumes the session. */
  sessionsFlag: string | undefined;
  json: boolean;
  mode: PermissionMode;
  allow: ToolKind[];
  rules: PermissionRuleLists;
  sandbox: RunSandbox;
  effort: ReasoningEffort;
  /** Run as this agent (`--agent`). */
  agent?: string;
  /** Lines read from stdin while the turn runs steer it (steer-stdin.ts). */
  steerStdin: boolean;
  /** The background processes go on after the run instead of being stopped with it. */
  keepProcesses: boolean;
}

async function runTurnHeadless(run: HeadlessRun): Promise<number> {
  const signals = new ExitSignals();
  try {
    return await runTurn(run, signals);
  } finally {
    signals.dispose();
  }
}

async function runTurn(run: HeadlessRun, signals: ExitSignals): Promise<number> {
  const write = (text: string): void => void process.stdout.write(text);
  const printer = run.json ? new JsonLinesPrinter(write) : await transcriptPrinter(process.stdout, process.env);
  const workspace = await workspaceOf(run.workspace ?? run.resume?.workspace ?? '.');
  // The MCP servers of the session's workspace, started with its tools and stopped at the end; a
  // server's new tool list reaches the open session's registry, so the model's next request has it.
  const toolset = new SessionToolset({
    workspace,
    mcpHome: configHome(),
    // A form a server asks for mid-call is declined, saying so: nobody answers one in a run.
    mcpElicit: declineForms((line) => void process.stderr.write(terminalSafe(`${line}\n`))),
  });
  // The catalog the app last fetched from models.dev, if any: a command never waits on the network.
  await refreshModelCatalog({ ...catalogRefreshOptions(), online: false });
  const opening = Date.now();
  let opened: OpenedAgentSession;
  try {
    opened = await openAgentSession({
      workspace,
      sessionsRoot: run.root,
      ...(run.resume ? { resume: run.resume.id } : {}),
      model: run.model,
      sink: printer,
      permissions: { mode: run.mode, allow: run.allow, rules: run.rules, sandbox: run.sandbox.rules },
      headless: true,
      effort: run.effort,
      toolset,
      hooks: { home: configHome() },
      skills: { home: configHome() },
      agents: { home: configHome() },
      ...(run.agent ? { as: run.agent } : {}),
    });
  } catch (error) {
    printMcpProblems(toolset);
    await toolset.close();
    if (error instanceof AgentChoiceError) {
      process.stderr.write(terminalSafe(`${error.message}\n`));
      return 2;
    }
    if (error instanceof SessionLockedError) {
      process.stderr.write(
        terminalSafe(
          `Could not reopen session ${run.resume?.id}: ${error.message} Wait for it to finish, or leave out ${run.resume?.flag ?? '--resume'} to start a new session.\n`,
        ),
      );
      return 1;
    }
    // A sessions folder that cannot be written is the person's to fix: a message, not a stack.
    const what = run.resume ? `reopen session ${run.resume.id}` : 'start a session';
    process.stderr.write(
      terminalSafe(
        `Could not ${what} in ${run.root}: ${(error as Error).message}. Choose another folder with --sessions DIR.\n`,
      ),
    );
    return 1;
  }
  printMcpProblems(toolset);
  const { session } = opened;
  for (const notice of [
    ...hookNotices(opened.hooks, `aether hooks approve --workspace ${workspace}`),
    ...(opened.skills?.problems ?? []),
  ])
    process.stderr.write(terminalSafe(`${notice}\n`));
  // The sandbox mode where no sandbox starts: said once, and every command is asked about (refused here).
  const unsandboxed = run.mode === 'sandbox' ? sandboxUnavailable() : null;
  if (unsandboxed) process.stderr.write(terminalSafe(`${unsandboxed}\n`));
  else if (run.mode === 'sandbox') printSandbox(run.sandbox, run.json);

  // Damage found when it was reopened: what was skipped, and where the original bytes are.
  for (const notice of session.reopened?.notices ?? []) process.stderr.write(terminalSafe(`${notice.text}\n`));
  // Background processes the host died with, recorded as stopped as this run reopened the session.
  for (const event of session.reopened?.events ?? [])
    if (event.type === 'process_state' && event.process.end_reason === 'app_closed' && reopenedNow(event.at, opening))
      printer.emit(event);

  let outcome;
  let processesEnd: ProcessesEnd | null = null;
  const steering = run.steerStdin ? steerFromStdin(process.stdin, session) : null;
  try {
    const sent = session.send(run.prompt);
    if (!sent.ok) throw new UsageError(sent.error);
    // Ctrl-C, SIGTERM and SIGHUP stop the turn, which ends recorded as stopped, saying by what.
    signals.stopWith((signal) => void session.stop(stopReason(signal, 'aether run')));
    // On a terminal the running background processes are lines redrawn in place under the transcript.
    const ticker =
      printer instanceof TranscriptPrinter ? setInterval(() => void showProcesses(opened, printer), 1000) : null;
    try {
      outcome = await session.idle();
    } finally {
      if (ticker) clearInterval(ticker);
      if (printer instanceof TranscriptPrinter) printer.processes([]);
    }
    // A run stopped by a signal stops its processes whatever the flag said.
    processesEnd = await endProcesses(opened, run.keepProcesses && signals.exitCode === null);
  } finally {
    steering?.close();
    await opened.close();
    await toolset.close();
  }
  if (printer instanceof TranscriptPrinter) printer.finish();
  // In JSON mode stdout carries events only.
  const out = run.json ? process.stderr : process.stdout;
  if (processesEnd) out.write(terminalSafe(processesEnd.text));
  out.write(`Session: ${terminalSafe(session.file)}\n`);
  const dim = !run.json && terminalStyle(process.stdout.isTTY === true, process.env).color;
  const resume = resumeCommand(session.id, run.sessionsFlag, run.root);
  out.write(`${toned(terminalSafe(`Resume: ${resume}`), 'muted', dim)}\n`);
  if (outcome?.status === 'completed') return 0;
  return outcome?.status === 'failed' && outcome.aborted ? (signals.exitCode ?? 130) : 1;
}

/** Written by this run's reopening (a repair), not by an earlier one. */
function reopenedNow(at: string | undefined, opening: number): boolean {
  return at !== undefined && Date.parse(at) >= opening;
}

async function showProcesses(opened: OpenedAgentSession, printer: TranscriptPrinter): Promise<void> {
  const table = opened.processes;
  const running = await Promise.all(table.running().map((process) => table.info(process)));
  printer.processes(running.filter((info) => info.state === 'running'));
}

interface ProcessesEnd {
  text: string;
}

/**
 * What becomes of the background processes still running as the run ends: left running with
 * `--keep-processes` (each with its pid, ports, output file and how to stop it), else stopped with
 * the session, and said so once with the flag that keeps them.
 */
async function endProcesses(opened: OpenedAgentSession, keep: boolean): Promise<ProcessesEnd | null> {
  const running = opened.processes.running();
  if (running.length === 0) return null;
  if (!keep) return { text: `Background processes end with the run: --keep-processes leaves them running.\n` };
  const { left, cannot } = await opened.processes.leaveRunning();
  const lines = left.map(
    (info) =>
      `  ${info.id} ${info.command} · pid ${info.pid ?? '?'}${info.ports.map((port) => ` · :${port}`).join('')} · output: ${info.output_after ?? '?'}`,
  );
  const head =
    left.length > 0 ? [`Left running (${left.length}); stop one and what it started with kill -- -PID:`, ...lines] : [];
  const terminals = cannot.map(
    (process) => `${process.id} ${process.command} runs in a terminal, which closes with the run: it is stopped.`,
  );
  return { text: `${[...head, ...terminals].join('\n')}\n` };
}

/** The sandbox's rules in force and where they came from, on stderr before the turn. */
function printSandbox(sandbox: RunSandbox, json: boolean): void {
  for (const notice of sandbox.notices) process.stderr.write(terminalSafe(`${notice}\n`));
  const dim = !json && terminalStyle(process.stderr.isTTY === true, process.env).color;
  const line = `Sandbox (${sandbox.source}): ${describeSandbox(sandbox.rules)}`;
  process.stderr.write(`${toned(terminalSafe(line), 'muted', dim)}\n`);
}

/** What the MCP servers said as they started (a terminal command cannot ask mid-run: `aether mcp approve`). */
function printMcpProblems(toolset: SessionToolset): void {
  for (const problem of toolset.mcpProblems()) process.stderr.write(terminalSafe(`${problem}\n`));
}

async function workspaceOf(folder: string): Promise<string> {
  let workspace: string;
  try {
    workspace = await workspaceRoot(folder);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  // Temp files a killed writer left behind (a bounded walk; each write also sweeps its folder), and
  // the commands and MCP servers a crashed app process left running.
  await startSweep(workspace);
  return workspace;
}
