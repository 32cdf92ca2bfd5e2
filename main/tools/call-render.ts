import { errorMessage } from '../../protocol/errors.ts';
import type { EchoShape } from '../../protocol/echo.ts';
import { structuredEcho, type Verdict } from './call-echo.ts';
import type { PostPolicy, PostPolicyInput } from './policies.ts';
import type { ToolDefinition, ToolImage } from './tool.ts';

// The last steps of a call that ran: the tool renders its result for the model, the post-execution
// policies see (and may replace) that text, and the card's echo and the images are taken from it.
// Policies with nothing to do answer at once, so a small result costs no extra turn of the event loop.

export type RunOutcome = {
  content: string;
  isError: boolean;
  result?: unknown;
  echo?: EchoShape;
  executedAt?: number;
  images?: readonly ToolImage[];
};

type Tool = ToolDefinition<unknown, unknown>;

/** What one call's rendering works on. */
interface Ran {
  tool: Tool;
  result: unknown;
  args: unknown;
  executedAt: number;
  callId: string;
  sessionDir: string;
}

export function failure(content: string): { content: string; isError: true } {
  return { content, isError: true };
}

export function renderRun(ran: Ran, policies: readonly PostPolicy[]): RunOutcome | Promise<RunOutcome> {
  const { tool, result, args, executedAt } = ran;
  let rendered: Verdict;
  try {
    rendered = { content: tool.render(result, args), isError: tool.isError?.(result) ?? false };
  } catch (error) {
    return {
      ...failure(`${tool.name} ran, but its result could not be rendered: ${errorMessage(error)}`),
      executedAt,
    };
  }
  let verdict = rendered;
  for (let index = 0; index < policies.length; index += 1) {
    let judged: Verdict | Promise<Verdict>;
    try {
      judged = policies[index]!(policyInput(ran, verdict));
    } catch (error) {
      return policyFailed(ran, error);
    }
    if (judged instanceof Promise) return finishAfter(ran, rendered, judged, policies.slice(index + 1));
    verdict = judged;
  }
  return finished(ran, rendered, verdict);
}

/** After the first policy that works asynchronously, the rest run in order, awaited. */
async function finishAfter(
  ran: Ran,
  rendered: Verdict,
  first: Promise<Verdict>,
  rest: readonly PostPolicy[],
): Promise<RunOutcome> {
  let verdict: Verdict;
  try {
    verdict = await first;
    for (const policy of rest) verdict = await policy(policyInput(ran, verdict));
  } catch (error) {
    return policyFailed(ran, error);
  }
  return finished(ran, rendered, verdict);
}

function policyInput(ran: Ran, verdict: Verdict): PostPolicyInput {
  return {
    callId: ran.callId,
    name: ran.tool.name,
    args: ran.args,
    content: verdict.content,
    isError: verdict.isError,
    sessionDir: ran.sessionDir,
    pagesItself: ran.tool.pagesItself ?? false,
  };
}

function policyFailed(ran: Ran, error: unknown): RunOutcome {
  return {
    ...failure(`A post-execution policy failed for ${ran.tool.name}: ${errorMessage(error)}`),
    executedAt: ran.executedAt,
  };
}

function finished(ran: Ran, rendered: Verdict, final: Verdict): RunOutcome {
  const { tool, result, args, executedAt } = ran;
  const echo = structuredEcho(tool, { result, args }, rendered, final);
  const images = tool.images?.(result);
  const outcome: RunOutcome = { content: final.content, isError: final.isError, result, executedAt };
  if (echo !== undefined) outcome.echo = echo;
  if (images?.length) outcome.images = images;
  return outcome;
}
