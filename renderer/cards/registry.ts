import { agentView } from './AgentView.tsx';
import { codeModeView } from './CodeModeView.tsx';
import { execView } from './ExecView.tsx';
import { genericView } from './GenericView.tsx';
import { mcpView } from './McpView.tsx';
import { patchFileView } from './PatchFileView.tsx';
import { readFileView } from './ReadFileView.tsx';
import { registerCardView, setFallbackView } from './view-table.ts';
import { webFetchView } from './WebFetchView.tsx';
import { todosView } from './TodosView.tsx';
import { planView } from './PlanView.tsx';
import { writeFileView } from './WriteFileView.tsx';

// The card registry: one view per echo kind (protocol/echo.ts). A call's kind is known from its
// start (tool_started says which echo its tool answers with), else from its echo; `text`, and any
// kind without a view, gets the generic card, which shows the text. Here is the only place that
// chooses how a card looks; a new tool's card is one more line here (or registerCardView).

registerCardView('text', genericView);
registerCardView('read-file', readFileView);
registerCardView('patch', patchFileView);
registerCardView('write', writeFileView);
registerCardView('exec', execView);
registerCardView('code', codeModeView);
registerCardView('mcp', mcpView);
registerCardView('web-fetch', webFetchView);
registerCardView('agent', agentView);
registerCardView('todos', todosView);
registerCardView('plan', planView);
setFallbackView(genericView);

export { cardKindOf, cardViewFor, registerCardView, showsDone } from './view-table.ts';
