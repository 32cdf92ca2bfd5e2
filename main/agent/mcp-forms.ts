import { randomUUID } from 'node:crypto';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { Result } from '../../protocol/api.ts';
import { elicitProblems, type ElicitAnswer, type ElicitationView } from '../../protocol/elicitation.ts';
import { elicitationFields, type ElicitationHandler } from '../tools/mcp/mcp-elicitation.ts';

// The forms MCP servers ask the person to fill in during their tool calls (elicitation). In the
// panel they wait: each is shown (announced with the whole list), answered once — accepted with
// content that passes its schema, declined or cancelled — and taken away when the server stops
// waiting for it. A run without anyone to ask declines them, saying so.

/** How long a form waits for the person before it is cancelled (the server's own limit is usually shorter). */
const WAIT_MS = 10 * 60_000;

interface Waiting {
  view: ElicitationView;
  settle(result: ElicitResult): void;
}

export class WaitingForms {
  private readonly waiting = new Map<string, Waiting>();
  private readonly announce: (views: ElicitationView[]) => void;

  constructor(announce: (views: ElicitationView[]) => void) {
    this.announce = announce;
  }

  /** The forms waiting now, oldest first. */
  list(): ElicitationView[] {
    return [...this.waiting.values()].map((entry) => entry.view);
  }

  /** The handler the MCP servers call: resolves with the person's answer, or cancel when the server gave up. */
  readonly ask = (server: string, request: ElicitRequestFormParams, signal?: AbortSignal): Promise<ElicitResult> => {
    const id = randomUUID();
    const view: ElicitationView = { id, server, message: request.message, fields: elicitationFields(request) };
    return new Promise<ElicitResult>((resolve) => {
      const settle = (result: ElicitResult): void => {
        if (!this.waiting.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', gone);
        this.announce(this.list());
        resolve(result);
      };
      const gone = (): void => settle({ action: 'cancel' });
      const timer = setTimeout(gone, WAIT_MS);
      timer.unref();
      if (signal?.aborted) return resolve({ action: 'cancel' });
      signal?.addEventListener('abort', gone, { once: true });
      this.waiting.set(id, { view, settle });
      this.announce(this.list());
    });
  };

  /** The person's answer from the panel; content that does not pass the form's schema is refused, saying why. */
  answer(answer: ElicitAnswer): Result<void> {
    const entry = this.waiting.get(answer.id);
    if (!entry) return { ok: false, error: 'That form is no longer waiting: its server stopped asking.' };
    if (answer.action !== 'accept') {
      entry.settle({ action: answer.action });
      return { ok: true, value: undefined };
    }
    const content = answer.content ?? {};
    const problems = Object.values(elicitProblems(entry.view.fields, content));
    if (problems.length > 0) return { ok: false, error: problems.join(' ') };
    const known = new Set(entry.view.fields.map((field) => field.name));
    entry.settle({
      action: 'accept',
      content: Object.fromEntries(Object.entries(content).filter(([name]) => known.has(name))),
    });
    return { ok: true, value: undefined };
  }

  /** Every form still waiting is cancelled (the panel closes). */
  close(): void {
    for (const entry of [...this.waiting.values()]) entry.settle({ action: 'cancel' });
  }
}

/** For a run nobody can answer (`aether run`): every form is declined, and `say` is told which and why. */
export function declineForms(say: (line: string) => void): ElicitationHandler {
  return async (server, request) => {
    say(
      `The MCP server "${server}" asked for input ("${request.message}"); declined: nobody is here to answer in this run. Use the panel to answer its forms.`,
    );
    return { action: 'decline' };
  };
}
