import { describeSandbox, sandboxHostSchema } from '../../protocol/sandbox.ts';
import { settingOf } from '../../protocol/settings.ts';
import type { BuiltinContext, BuiltinOutcome, ComposerNotice } from './run-builtin.ts';

// `/sandbox`: the sandbox mode and its rules; `/sandbox on` and `/sandbox off` switch the mode
// (off: back to asking before commands), `/sandbox allow HOST` and `/sandbox forbid HOST` edit the
// hosts commands may reach.

const USAGE = 'Type /sandbox on, /sandbox off, /sandbox allow HOST or /sandbox forbid HOST.';

export async function sandboxCommand(args: string, { actions, state }: BuiltinContext): Promise<BuiltinOutcome> {
  const settings = state().settings;
  if (!settings) return { done: false, notice: error('The settings have not loaded yet; try again in a moment.') };
  const rules = settingOf(settings, 'sandbox');
  const [verb = '', host = '', ...rest] = args.split(/\s+/).filter(Boolean);
  if (verb === '') return { done: true, notice: shown(settings.permission_mode === 'sandbox', describeSandbox(rules)) };
  if ((verb === 'on' || verb === 'off') && host === '') {
    await actions.updateSettings({ permission_mode: verb === 'on' ? 'sandbox' : 'ask' });
    const on = state().settings?.permission_mode === 'sandbox';
    return { done: on === (verb === 'on'), notice: shown(on, describeSandbox(rules)) };
  }
  if ((verb === 'allow' || verb === 'forbid') && host !== '' && rest.length === 0) {
    if (!sandboxHostSchema.safeParse(host).success)
      return { done: false, notice: error(`"${host}" is not a host, *.domain or host:port.`) };
    const network =
      verb === 'allow' ? [...new Set([...rules.network, host])] : rules.network.filter((entry) => entry !== host);
    const next = { ...rules, network };
    await actions.updateSettings({ sandbox: next });
    return { done: true, notice: shown(settings.permission_mode === 'sandbox', describeSandbox(next)) };
  }
  return { done: false, notice: error(USAGE) };
}

function shown(on: boolean, rules: string): ComposerNotice {
  return {
    tone: 'info',
    title: on ? 'Sandbox: on — commands run without asking, inside it' : 'Sandbox: off — commands ask first',
    lines: [`The sandbox ${rules}.`, USAGE],
  };
}

function error(line: string): ComposerNotice {
  return { tone: 'error', title: 'Sandbox', lines: [line] };
}
