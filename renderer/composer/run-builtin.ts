import { REASONING_EFFORTS } from '../../protocol/values.ts';
import type { PanelActions } from '../actions.ts';
import type { PanelState } from '../store/store.ts';
import { helpLines, skillLines, type BuiltinName, type CommandChoice } from './slash-commands.ts';
import { sessionName } from '../sessions/session-name.ts';
import { sandboxCommand } from './sandbox-command.ts';
import { statusOf, statusRows } from './ContextMeter.tsx';
import { keysHelp, SEND_MODIFIER } from './composer-keys.ts';

// What the panel's own slash commands do. Each answers with a notice for the person (shown above
// the message box) and whether it did what was asked: a command that failed keeps its text, so
// the person can fix it.

export interface ComposerNotice {
  tone: 'info' | 'error';
  title: string;
  lines: string[];
}

export interface BuiltinOutcome {
  done: boolean;
  notice?: ComposerNotice;
}

export interface BuiltinContext {
  actions: PanelActions;
  state: () => PanelState;
  choices: readonly CommandChoice[];
}

const numbers = new Intl.NumberFormat('en');

export async function runBuiltin(name: BuiltinName, args: string, ctx: BuiltinContext): Promise<BuiltinOutcome> {
  const { actions, state } = ctx;
  switch (name) {
    case 'model':
      return args === '' ? { done: true, notice: modelNotice(state()) } : changeModel(args, ctx);
    case 'effort':
      return args === '' ? { done: true, notice: effortNotice(state()) } : changeEffort(args, ctx);
    case 'status':
      return { done: true, notice: statusNotice(state()) };
    case 'compact':
      // The compaction card tells how it went; a refusal (a turn running, no session) is the banner's.
      return { done: await actions.compact(args === '' ? undefined : args) };
    case 'new':
    case 'clear':
      await actions.newSession();
      return { done: true };
    case 'sessions':
      state().setSessionsOpen(true);
      return { done: true };
    case 'skills':
      return {
        done: true,
        notice: { tone: 'info', title: 'Skills', lines: skillLines(ctx.choices, loadedSkills(state())) },
      };
    case 'sandbox':
      return sandboxCommand(args, ctx);
    case 'help':
      return {
        done: true,
        notice: { tone: 'info', title: 'Commands', lines: [...helpLines(ctx.choices), helpKeys(state())] },
      };
  }
}

function helpKeys(state: PanelState): string {
  return keysHelp(state.settings?.send_key ?? 'enter', SEND_MODIFIER);
}

function modelNotice(state: PanelState): ComposerNotice {
  const current = state.settings?.model ?? 'none chosen';
  return {
    tone: 'info',
    title: `Model: ${current}`,
    lines: [`Offered: ${state.models.join(', ') || 'none'}.`, 'Type /model <id> to change it.'],
  };
}

async function changeModel(id: string, { actions, state }: BuiltinContext): Promise<BuiltinOutcome> {
  await actions.updateSettings({ model: id });
  // A refused model leaves the setting as it was; the error banner says why.
  if (state().settings?.model !== id) return { done: false };
  return { done: true, notice: { tone: 'info', title: `Model: ${id}`, lines: ['The next turns use it.'] } };
}

function effortNotice(state: PanelState): ComposerNotice {
  return {
    tone: 'info',
    title: `Reasoning effort: ${state.settings?.effort ?? 'medium'}`,
    lines: [`Levels: ${REASONING_EFFORTS.join(', ')}. Type /effort <level> to change it.`],
  };
}

async function changeEffort(level: string, { actions, state }: BuiltinContext): Promise<BuiltinOutcome> {
  const effort = REASONING_EFFORTS.find((known) => known === level.toLowerCase());
  if (!effort) {
    return {
      done: false,
      notice: {
        tone: 'error',
        title: `There is no effort level "${level}".`,
        lines: [`Use one of: ${REASONING_EFFORTS.join(', ')}.`],
      },
    };
  }
  await actions.updateSettings({ effort });
  if (state().settings?.effort !== effort) return { done: false };
  return { done: true, notice: { tone: 'info', title: `Reasoning effort: ${effort}`, lines: [] } };
}

function statusNotice(state: PanelState): ComposerNotice {
  const usage = state.transcript.usage;
  const session = state.session;
  return {
    tone: 'info',
    title: 'Status',
    lines: [
      ...statusRows(statusOf(state)).map(([label, value]) => `${label}: ${value}`),
      `Tokens in this session: ${numbers.format(usage.input_tokens)} in, ${numbers.format(usage.output_tokens)} out`,
      `Session: ${session ? sessionName(session) : 'none yet (the first message starts one)'}`,
      `Workspace: ${state.workspace || 'unknown'}`,
    ],
  };
}

/** The skills the model loaded in the shown session: its `skill` calls that did not fail. */
export function loadedSkills(state: PanelState): Set<string> {
  const names = new Set<string>();
  for (const call of Object.values(state.transcript.calls)) {
    const name = (call.args as { name?: unknown } | undefined)?.name;
    if (call.name === 'skill' && call.state === 'done' && typeof name === 'string') names.add(name);
  }
  return names;
}
