import vm from 'node:vm';
import { ToolError } from '../tool.ts';

// `wait_for`: a regular expression the model gives, matched line by line against output as it
// arrives. A pattern can backtrack for minutes on one line ((a+)+$); matching runs in a V8
// context with a time limit, so such a pattern fails the call with what to change instead of
// freezing the app.

/** How long one look through new lines may take. */
export const PATTERN_BUDGET_MS = 250;

const context = vm.createContext({ lines: [] as string[], pattern: /$^/ });
const look = new vm.Script('lines.findIndex((line) => { pattern.lastIndex = 0; return pattern.test(line); })');

/** Compiles the model's pattern; a pattern that does not compile is the model's error to fix. */
export function linePattern(source: string): RegExp {
  try {
    return new RegExp(source);
  } catch (error) {
    throw new ToolError(`wait_for is not a valid regular expression: ${(error as Error).message}`);
  }
}

/** The first of `lines` the pattern matches, or null; throws a ToolError when it takes too long. */
export function firstMatch(pattern: RegExp, lines: readonly string[], budgetMs = PATTERN_BUDGET_MS): string | null {
  if (lines.length === 0) return null;
  context['lines'] = lines;
  context['pattern'] = pattern;
  let index: unknown;
  try {
    index = look.runInContext(context, { timeout: budgetMs });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new ToolError(
        `wait_for /${pattern.source}/ took over ${budgetMs} ms on the output and was given up. Use a simpler pattern: a literal part of the line (such as "ready in"), without nested repetition like (a+)+.`,
      );
    }
    throw error;
  } finally {
    context['lines'] = [];
  }
  return typeof index === 'number' && index >= 0 ? (lines[index] ?? null) : null;
}
