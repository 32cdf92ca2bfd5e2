import { useState } from 'react';
import type { PermissionRuleLists } from '../../protocol/api.ts';
import { useActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';

// The permission rules, one per line in three lists. The main process checks every rule when they
// are saved; a rule it cannot read is refused with the reason, shown in the panel's error banner.

const LISTS: { effect: keyof PermissionRuleLists; label: string; hint: string }[] = [
  { effect: 'deny', label: 'Deny', hint: 'exec(git push *)\nread(**/*.env)' },
  { effect: 'ask', label: 'Ask', hint: 'exec(npm publish *)' },
  { effect: 'allow', label: 'Allow', hint: 'exec(npm test)\nwrite(src/**)\nssh(build-box:*)' },
];

const EMPTY: PermissionRuleLists = { allow: [], ask: [], deny: [] };

function asText(rules: readonly string[]): string {
  return rules.join('\n');
}

function asRules(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

export function PermissionRules() {
  const actions = useActions();
  const saved = usePanel((state) => state.settings?.permission_rules ?? EMPTY);
  const [drafts, setDrafts] = useState(() => ({
    allow: asText(saved.allow),
    ask: asText(saved.ask),
    deny: asText(saved.deny),
  }));
  const [status, setStatus] = useState<string | null>(null);
  const lists: PermissionRuleLists = {
    allow: asRules(drafts.allow),
    ask: asRules(drafts.ask),
    deny: asRules(drafts.deny),
  };
  const changed = LISTS.some(({ effect }) => asText(lists[effect]) !== asText(saved[effect]));

  const save = async () => {
    setStatus(null);
    await actions.updateSettings({ permission_rules: lists });
    const now = usePanel.getState().settings?.permission_rules ?? EMPTY;
    if (LISTS.every(({ effect }) => asText(now[effect]) === asText(lists[effect]))) setStatus('Rules saved.');
  };

  return (
    <section className="rule-lists" aria-labelledby="rules-title" data-testid="permission-rules">
      <h3 id="rules-title">Permission rules</h3>
      <p className="card-note">
        One rule a line: a kind (read, write, exec, ssh, code, net) alone, or with a pattern —{' '}
        <code>exec(npm test)</code>, <code>exec(git push *)</code>, <code>write(src/**)</code>,{' '}
        <code>read(**/*.env)</code>, <code>ssh(host:*)</code>, <code>net(*.python.org)</code>. Deny wins, then ask, then
        allow, then the permission mode. Writes to protected paths (.git/, .aethercodex/, .vscode/ tasks, launch and
        settings, .idea/) ask whatever the rules say, except in bypass mode. A web page at a local or private address is
        fetched only when an allow rule names its host, such as <code>net(localhost)</code>.
      </p>
      {LISTS.map(({ effect, label, hint }) => (
        <div className="rule-list" key={effect}>
          <label htmlFor={`rules-${effect}`}>{label}</label>
          <textarea
            id={`rules-${effect}`}
            data-testid={`rules-${effect}`}
            spellCheck={false}
            placeholder={hint}
            value={drafts[effect]}
            onChange={(event) => {
              setStatus(null);
              setDrafts({ ...drafts, [effect]: event.target.value });
            }}
          />
        </div>
      ))}
      <div className="approval-buttons">
        <button
          type="button"
          className="button small primary"
          data-testid="rules-save"
          disabled={!changed}
          onClick={() => void save()}
        >
          Save rules
        </button>
        {status ? (
          <span className="card-note" role="status" data-testid="rules-status">
            {status}
          </span>
        ) : null}
      </div>
    </section>
  );
}
