import { z } from 'zod';
import { readEcho } from './echo.ts';
import { formatDuration } from './format.ts';

export { agentStatusSchema, type AgentStatus } from './tools.ts';

// Agents that delegate: the `agent` tool's arguments, the live status a running child reports, and
// the echo its card keeps. A child is a session of its own (its own file, linked to its parent's
// call); the parent's model reads only the child's final answer.

export const AGENT_TOOL_NAME = 'agent';

/** How deep agents may nest: a child of a child of the session, no further. */
export const AGENT_MAX_DEPTH = 2;

/** Children that run at once in one session, unless the front door is told otherwise. */
export const AGENT_DEFAULT_PARALLEL = 3;

export const agentArgsSchema = z.object({
  task: z
    .string()
    .min(1)
    .describe(
      'The whole task for the agent, on its own: it starts with a fresh context and sees nothing of this conversation. Say what to find or do and what to answer with.',
    ),
  agent: z
    .string()
    .min(1)
    .optional()
    .describe('Which agent runs it (one of those listed in this tool\'s description); default: "general".'),
  model: z.string().min(1).optional().describe('A model id for the agent instead of its own (provider:model).'),
  tools: z
    .array(z.string().min(1))
    .optional()
    .describe('Narrows the agent to these tools (names from your own tool list).'),
});
export type AgentArgs = z.infer<typeof agentArgsSchema>;

/** How a child ended. */
export const AGENT_ENDINGS = ['completed', 'failed', 'stopped', 'budget', 'looping'] as const;
export type AgentEnding = (typeof AGENT_ENDINGS)[number];

/** A child's card once it ended: its task, how it ended, its answer's start, what it changed and cost. */
export const agentEchoSchema = z.object({
  kind: z.literal('agent'),
  agent: z.string(),
  task: z.string(),
  /** The child's session id; its transcript is read from there. */
  session: z.string(),
  model: z.string(),
  ending: z.enum(AGENT_ENDINGS),
  /** The child's final answer (or its last words), at most 4000 characters. */
  answer: z.string(),
  steps: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost: z.number().optional(),
  /** Workspace files the child's calls changed (its writes and patches, and what its commands changed). */
  changed: z.array(z.string()),
  duration_ms: z.number().int(),
});
export type AgentEcho = z.infer<typeof agentEchoSchema>;

/** `3 steps · 1.2k tokens · $0.0100 · 4.1 s · changed a.ts, b.ts` (without the time when it is not given). */
export function agentSummaryLine(
  echo: Pick<AgentEcho, 'steps' | 'input_tokens' | 'output_tokens' | 'cost' | 'changed'> & { duration_ms?: number },
): string {
  const parts = [
    `${echo.steps} ${echo.steps === 1 ? 'step' : 'steps'}`,
    `${compactCount(echo.input_tokens + echo.output_tokens)} tokens`,
  ];
  if (echo.cost !== undefined) parts.push(formatCost(echo.cost));
  if (echo.duration_ms !== undefined) parts.push(formatDuration(echo.duration_ms));
  parts.push(echo.changed.length === 0 ? 'changed nothing' : `changed ${echo.changed.join(', ')}`);
  return parts.join(' · ');
}

export function formatCost(dollars: number): string {
  return `$${dollars < 1 ? dollars.toFixed(4) : dollars.toFixed(2)}`;
}

export function compactCount(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

const ENDING_WORDS: Record<AgentEnding, string> = {
  completed: 'answered',
  failed: 'failed',
  stopped: 'was stopped',
  budget: 'was stopped at its budget',
  looping: 'was stopped for repeating itself',
};

export function agentEndingWords(ending: AgentEnding): string {
  return ENDING_WORDS[ending];
}

readEcho(agentEchoSchema, {
  text: (echo) => `${echo.agent} ${agentEndingWords(echo.ending)}: ${echo.answer}\n(${agentSummaryLine(echo)})`,
  line: (echo) => `${echo.agent} ${agentEndingWords(echo.ending)} · ${agentSummaryLine(echo)}`,
});

/** An agent's definition as a person's or a team's Markdown file declares it (front matter + body). */
export interface AgentDefinition {
  name: string;
  description: string;
  /** A model id; absent: the parent's (or, for `explore`, the cheaper one configured). */
  model?: string;
  effort?: 'off' | 'low' | 'medium' | 'high';
  /** Tool names it may use; absent: the parent's. */
  tools?: string[];
  /** `read-only` denies every call that is not a read; absent: the parent's mode. */
  permissionMode?: 'read-only' | 'inherit';
  /** May start agents of its own (up to the depth limit). */
  nesting?: boolean;
  /** Its task is given the changes of the turn that starts it (their diff, bounded): the built-in `review`. */
  reviewsTurn?: boolean;
  /** Its instructions: the file's body. */
  instructions: string;
  /** Where it comes from. */
  origin: 'builtin' | 'person' | 'workspace';
  /** The file it was read from (absent for a built-in). */
  file?: string;
  /** A hash of the file's bytes: a workspace file's approval covers exactly these. */
  fingerprint?: string;
}
