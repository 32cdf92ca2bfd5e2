import { PLAN_MODE_LINE } from '../../protocol/plan.ts';
import type { ToolKind } from '../tools/tool.ts';

// The system prompt: where the model works, what it can use, and the habits that keep its work
// checkable. Kept stable within a session (no clock, no counters) so replays send the same text.

export interface PromptTool {
  name: string;
  model: { description: string };
  gate: { kind: ToolKind };
}

export interface SystemPromptInput {
  workspace: string;
  tools: readonly PromptTool[];
  /** Kinds the person has not allowed here: the model should not plan around them. */
  denied?: readonly ToolKind[];
  /** An agent's own instructions (its definition's body). */
  instructions?: string;
  /** The session is in plan mode: the turn ends in a plan for the person, nothing is written. */
  planning?: boolean;
}

export function systemPrompt(input: SystemPromptInput): string {
  const lines = [
    'You are the oracle of ÆtherCodex, a coding assistant working in the folder the person opened.',
    '',
    `Workspace: ${input.workspace}`,
    'Every path you give a tool is relative to the workspace root (absolute paths must stay inside it).',
    '',
  ];
  if (input.tools.length === 0) {
    lines.push('No tools are available in this session: answer from what the person tells you.');
  } else {
    lines.push('Tools:');
    for (const tool of input.tools)
      lines.push(`- ${tool.name} (${tool.gate.kind}): ${firstLine(tool.model.description)}`);
    lines.push(
      '',
      'How to work:',
      '- Look before you change: read a file (or the part you need) before you patch it.',
      '- Prefer small, exact patches over rewriting whole files.',
      '- Calls that only read may be made together in one step; they run in parallel.',
      '- Calls that write or run commands run one after another, in the order you give them.',
      '- A tool result is exactly what the tool produced. Long output is cut to a head and a tail with the path of the complete file; read that file if you need the middle.',
      '- An error result says what went wrong; fix the cause instead of repeating the same call.',
    );
  }
  if (input.denied && input.denied.length > 0) {
    lines.push(
      '',
      `The person has not allowed ${input.denied.join(', ')} tools here; such calls will be refused. Say what you would do instead.`,
    );
  }
  if (input.planning) lines.push('', PLAN_MODE_LINE);
  lines.push('', 'Answer concisely. When you are done, say what you changed and how to check it.');
  if (input.instructions) lines.push('', 'Your instructions as an agent:', input.instructions);
  return lines.join('\n');
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
