import type { ToolCallView } from '../store/transcript-types.ts';
import { codeModeView } from './CodeModeView.tsx';
import { execView, sshExecView } from './ExecView.tsx';
import { genericView } from './GenericView.tsx';
import { patchFileView } from './PatchFileView.tsx';
import { readFileView } from './ReadFileView.tsx';
import type { CardView } from './view.ts';

// Cards by tool name. A tool without a view of its own gets the generic card, which shows the raw
// final content; this table is the only place a tool name chooses how a card looks.

const VIEWS: ReadonlyMap<string, CardView> = new Map([
  ['read_file', readFileView],
  ['patch_file', patchFileView],
  ['exec', execView],
  ['ssh_exec', sshExecView],
  ['run_code', codeModeView],
]);

export function cardViewFor(name: string): CardView {
  return VIEWS.get(name) ?? genericView;
}

/** The done-card rule: a successful, finished call whose view has nothing to show. */
export function showsDone(call: ToolCallView, view: CardView = cardViewFor(call.name)): boolean {
  return call.state === 'done' && !call.is_error && view.isEmpty(call);
}
