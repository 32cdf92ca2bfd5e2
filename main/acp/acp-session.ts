import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import type { PermissionMode } from '../../protocol/api.ts';
import type { ApprovalAnswer, StatusEvent, ToolApprovalRequestedEvent } from '../../protocol/events.ts';
import type { OpenedAgentSession } from '../agent/open-agent-session.ts';
import { applyPermissions } from '../agent/session-permissions.ts';
import type { StatusSink } from '../status/sink.ts';
import { diffOfReview, toolKindOf, UpdateTranslator } from './acp-updates.ts';

// One ACP session: an AgentSession opened through the front door, its status events sent to the
// client as `session/update`s, its approval questions asked with `session/request_permission`.
// A write reviewed hunk by hunk in the panel is asked about whole here: ACP has no hunk choice.

/** How a client calls back: the SDK's agent-side context (notify, request). */
export type AcpClient = Pick<acp.AgentContext, 'notify' | 'request'>;

const ALLOW_ONCE = 'allow_once';
const ALLOW_SESSION = 'allow_always';
const REJECT = 'reject_once';

/** The approval's choices as ACP permission options; "always" only where the question offers it. */
export function permissionOptions(event: ToolApprovalRequestedEvent): acp.PermissionOption[] {
  const always = event.request.always_rules;
  return [
    { optionId: ALLOW_ONCE, name: 'Allow', kind: 'allow_once' },
    ...(always && always.length > 0
      ? [
          {
            optionId: ALLOW_SESSION,
            name: `Allow for this session (${always.join(', ')})`,
            kind: 'allow_always' as const,
          },
        ]
      : []),
    { optionId: REJECT, name: 'Deny', kind: 'reject_once' },
  ];
}

/** The client's choice as our answer: a cancelled question, or one we never offered, is a denial. */
export function answerOf(outcome: acp.RequestPermissionOutcome): ApprovalAnswer {
  if (outcome.outcome !== 'selected') return 'deny';
  if (outcome.optionId === ALLOW_ONCE) return 'once';
  if (outcome.optionId === ALLOW_SESSION) return 'session';
  return 'deny';
}

/** A sink whose target is set once the session exists (the front door wants the sink first). */
export class LateSink implements StatusSink {
  private target: StatusSink | null = null;

  set(target: StatusSink): void {
    this.target = target;
  }

  emit(event: StatusEvent): void | Promise<void> {
    return this.target?.emit(event);
  }
}

export class AcpSession implements StatusSink {
  readonly opened: OpenedAgentSession;
  readonly workspace: string;
  mode: PermissionMode;
  private readonly client: AcpClient;
  private readonly translator: UpdateTranslator;
  /** Questions the client was asked and has not answered: a stop takes them back. */
  private readonly asking = new Map<string, AbortController>();

  constructor(opened: OpenedAgentSession, client: AcpClient, workspace: string, mode: PermissionMode) {
    this.opened = opened;
    this.client = client;
    this.workspace = workspace;
    this.mode = mode;
    this.translator = new UpdateTranslator(workspace);
  }

  get id(): string {
    return this.opened.session.id;
  }

  /** A live event: its updates to the client, and a question asked. A client gone loses nothing on disk. */
  emit(event: StatusEvent): Promise<void> {
    if (event.type === 'tool_approval_requested') this.ask(event);
    if (event.type === 'tool_approval_resolved' && event.stopped) this.asking.get(event.call_id)?.abort();
    return this.send(this.translator.updates(event, false));
  }

  /** The stored events of a reopened session, replayed as updates (`session/load`). */
  async replay(events: readonly StatusEvent[]): Promise<void> {
    const replayed = new UpdateTranslator(this.workspace);
    for (const event of events) await this.send(replayed.updates(event, true));
  }

  setMode(mode: PermissionMode): void {
    this.mode = mode;
    applyPermissions(this.opened.session.gate, { mode });
  }

  /** Runs one prompt to its end; a prompt while a turn runs is refused (ACP answers each prompt with its own turn). */
  async prompt(blocks: readonly acp.ContentBlock[]): Promise<acp.PromptResponse> {
    const { session } = this.opened;
    if (session.busy)
      throw RequestError.invalidRequest(
        undefined,
        'A turn is already running in this session: wait for its session/prompt to answer, or send session/cancel.',
      );
    const { text, mentions } = promptInput(blocks, this.workspace);
    const sent = session.send(text, mentions);
    if (!sent.ok) throw RequestError.invalidParams(undefined, sent.error);
    const outcome = await session.idle();
    if (outcome === null || outcome.status === 'completed') {
      const reason = outcome?.stopReason;
      return { stopReason: reason === 'max_tokens' || reason === 'length' ? 'max_tokens' : 'end_turn' };
    }
    if (outcome.aborted) return { stopReason: 'cancelled' };
    throw RequestError.internalError(undefined, outcome.error);
  }

  async cancel(): Promise<void> {
    await this.opened.session.stop();
  }

  private ask(event: ToolApprovalRequestedEvent): void {
    const controller = new AbortController();
    this.asking.set(event.call_id, controller);
    const toolCall: acp.ToolCallUpdate = {
      // A nested call of a program shows on its program's call, as the panel's card does.
      toolCallId: event.parent_call_id ?? event.call_id,
      title: event.request.warning ? `${event.request.title} — ${event.request.warning}` : event.request.title,
      kind: toolKindOf(event.name),
      status: 'pending',
      content: [
        ...diffOfReview(event.request, this.workspace),
        ...(event.request.review
          ? []
          : [{ type: 'content' as const, content: { type: 'text' as const, text: event.request.detail } }]),
      ],
    };
    const asked = this.client.request(
      'session/request_permission',
      { sessionId: this.id, toolCall, options: permissionOptions(event) },
      { cancellationSignal: controller.signal, stopWaitingOnCancel: true },
    );
    asked
      .then((reply) => answerOf(reply.outcome))
      .catch(() => 'deny' as const)
      // The SDK settles a response at once but runs a notification's handler through a chain of
      // promises: a session/cancel the client sent before its answer is handled first this way.
      .then((answer) => new Promise<ApprovalAnswer>((resolve) => setImmediate(() => resolve(answer))))
      .then((answer) => {
        this.asking.delete(event.call_id);
        // Nothing waits any more when the turn was stopped meanwhile: the answer has nobody to reach.
        this.opened.session.approve(event.call_id, answer);
      });
  }

  private async send(updates: acp.SessionUpdate[]): Promise<void> {
    for (const update of updates) {
      await this.client.notify('session/update', { sessionId: this.id, update }).catch(() => undefined);
    }
  }
}

/**
 * A prompt's blocks as the message the session gets: text as it is; a link to a file in the
 * workspace as an `@` mention (read for the model as the panel's are); an embedded resource's text
 * inline with its URI; anything else named by its link.
 */
export function promptInput(
  blocks: readonly acp.ContentBlock[],
  workspace: string,
): { text: string; mentions: string[] } {
  const parts: string[] = [];
  const mentions: string[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'resource_link') {
      const inside = workspacePath(block.uri, workspace);
      if (inside !== null) {
        mentions.push(inside);
        parts.push(`@${inside}`);
      } else parts.push(`[${block.name}](${block.uri})`);
    } else if (block.type === 'resource') {
      const resource = block.resource;
      if ('text' in resource) parts.push(`<resource uri="${resource.uri}">\n${resource.text}\n</resource>`);
      else parts.push(`[${resource.uri}](${resource.uri})`);
    } else {
      throw RequestError.invalidParams(
        undefined,
        `This agent takes text, file links and embedded text resources; a prompt's ${block.type} block is not supported.`,
      );
    }
  }
  return { text: parts.join('\n'), mentions };
}

/** A file: URI inside the workspace, relative to it; null for anything else. */
function workspacePath(uri: string, workspace: string): string | null {
  if (!uri.startsWith('file:')) return null;
  let file: string;
  try {
    file = fileURLToPath(uri);
  } catch {
    return null;
  }
  const relative = path.relative(workspace, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return null;
  return relative.split(path.sep).join('/');
}
