import { errorMessage } from '../../protocol/errors.ts';
import type { EchoShape } from '../../protocol/echo.ts';
import { structuredEcho, type Verdict } from './call-echo.ts';
import type { PostPolicy } from './policies.ts';
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

export function failure(content: string): { content: string; isError: true } {
  return { content, isError: true };
}

export function renderRun(
  tool: ToolDefinition<unknown, unknown>,
  result: unknown,
  args: unknown,
  executedAt: number,
  policies: readonly PostPolicy[],
  call: { callId: string; sessionDir: string },
): RunOutcome | Promise<RunOutcome> {
  let rendered: Verdict;
  try {
    rendered = { content: tool.render(result, args), isError: tool.isError?.(result) ?? false };
  } catch (error) {
    return {
      ...failure(`${tool.name} ran, but its result could not be rendered: ${errorMessage(error)}`),
      executedAt,
    };
  }
  const finish = (final: Verdict): RunOutcome => {
    const echo = structuredEcho(tool, { result, args }, rendered, final);
    const images = tool.images?.(result) ?? [];
    return {
      ...final,
      result,
      executedAt,
      ...(echo !== undefined ? { echo } : {}),
      ...(images.length > 0 ? { images } : {}),
    };
  };
  const policyFailed = (error: unknown): RunOutcome => ({
    ...failure(`A post-execution policy failed for ${tool.name}: ${errorMessage(error)}`),
    executedAt,
  });
  let verdict = rendered;
  for (let index = 0; index < policies.length; index += 1) {
    let judged: Verdict | Promise<Verdict>;
    try {
      judged = policies[index]!({
        callId: call.callId,
        name: tool.name,
        args,
        ...verdict,
        sessionDir: call.sessionDir,
        pagesItself: tool.pagesItself ?? false,
      });
    } catch (error) {
      return policyFailed(error);
    }
    if (judged instanceof Promise) {
      const rest = policies.slice(index + 1);
      return judged.then((first) => finishAsync(first, rest), policyFailed);
    }
    verdict = judged;
  }
  return finish(verdict);

  // After the first policy that worked asynchronously, the rest run in order, awaited.
  async function finishAsync(first: Verdict, rest: readonly PostPolicy[]): Promise<RunOutcome> {
    let current = first;
    for (const policy of rest) {
      try {
        current = await policy({
          callId: call.callId,
          name: tool.name,
          args,
          ...current,
          sessionDir: call.sessionDir,
          pagesItself: tool.pagesItself ?? false,
        });
      } catch (error) {
        return policyFailed(error);
      }
    }
    return finish(current);
  }
}
