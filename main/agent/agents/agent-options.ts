import type { AgentEcho } from '../../../protocol/agents.ts';
import type { ModelAdapter } from '../../model/types.ts';

// What a session's `agent` tool is given by the front door: where the person's agents and
// approvals are, how many children run at once, what stops a child, and where a child's end is
// told (the place a SubagentStop hook fires).

export interface AgentBudget {
  /** Input and output tokens over all of a child's steps. */
  tokens?: number;
  /** US dollars over a child's steps whose prices are known. */
  cost?: number;
}

/** A child that ended, as its parent's call saw it. */
export interface ChildEnded {
  /** The parent session and its `agent` call. */
  parentSession: string;
  callId: string;
  /** The child session (its file is `<parent's folder>/agents/<id>.jsonl`). */
  session: string;
  file: string;
  echo: AgentEcho;
}

export interface AgentOptions {
  /** The person's app home: its agents/ folder, and where workspace agents' approvals are kept. */
  home?: string;
  /** Children that run at once in this session; default 3. */
  parallel?: number;
  /** Model steps a child may take; default 40. */
  maxSteps?: number;
  /** A child that makes the same calls this many steps in a row is stopped; default 3. */
  repeatedSteps?: number;
  budget?: AgentBudget;
  /** The model `explore` runs on when one is configured (a cheaper one); default: the parent's. */
  exploreModel?: string;
  /** A model adapter for an id an agent or a call names (closed when its child ends); default: made with the environment's keys. */
  modelFor?: (id: string) => ModelAdapter | Promise<ModelAdapter>;
  /** Told when each child ends, after its session file is closed. */
  childEnded?: (ended: ChildEnded) => void | Promise<void>;
  /** How deep this session is: 0 for one a host opened. Set by the door for a child. */
  depth?: number;
}

export const AGENT_DEFAULT_MAX_STEPS = 40;
export const AGENT_DEFAULT_REPEATED_STEPS = 3;
