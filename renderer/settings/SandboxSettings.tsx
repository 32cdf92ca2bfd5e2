import { useEffect, useState } from 'react';
import { describeSandbox, sandboxHostSchema, type SandboxRules } from '../../protocol/sandbox.ts';
import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';

// The sandbox mode's rules on the Settings screen: what a sandboxed command may do, in a line, and
// the hosts it may reach (the allow-list), edited as a comma-separated list and saved on Enter or
// when the field is left. The rest of the rules are settings.json's `sandbox`.

export function SandboxSettings({ rules }: { rules: SandboxRules }) {
  const actions = useActions();
  const unavailable = usePanel((state) => state.sandboxUnavailable);
  const [hosts, setHosts] = useState(rules.network.join(', '));
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => setHosts(rules.network.join(', ')), [rules.network]);
  const save = () => {
    const list = hosts
      .split(',')
      .map((host) => host.trim())
      .filter(Boolean);
    const bad = list.filter((host) => !sandboxHostSchema.safeParse(host).success);
    if (bad.length > 0) return setProblem(`Not a host, *.domain or host:port: ${bad.join(', ')}`);
    setProblem(null);
    if (list.join(',') !== rules.network.join(','))
      void actions.updateSettings({ sandbox: { ...rules, network: list } });
  };
  return (
    <>
      {unavailable ? (
        <p className="mode-danger settings-wide" role="alert" data-testid="sandbox-unavailable">
          {unavailable}
        </p>
      ) : null}
      <p className="card-note settings-wide" data-testid="sandbox-rules">
        Commands run without asking, in a sandbox that {describeSandbox(rules)}. A command the sandbox stops says what
        it needed; running it outside asks you.
      </p>
      <label htmlFor="settings-sandbox-hosts">Hosts commands may reach</label>
      <input
        id="settings-sandbox-hosts"
        data-testid="sandbox-hosts"
        placeholder="none: no network"
        value={hosts}
        aria-invalid={problem !== null}
        onChange={(event) => setHosts(event.target.value)}
        onBlur={save}
        onKeyDown={(event) => {
          if (event.key === 'Enter') save();
        }}
      />
      {problem ? (
        <p className="mode-danger settings-wide" role="alert" data-testid="sandbox-hosts-problem">
          {problem}
        </p>
      ) : null}
    </>
  );
}
