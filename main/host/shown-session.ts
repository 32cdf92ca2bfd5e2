import type { OpenedSession, Result, SessionPage, ToolContent } from '../../protocol/api.ts';
import { openedOf, SessionPages } from '../agent/sessions.ts';
import type { openSession } from '../session/catalog.ts';
import type { SessionLockedError } from '../session/session-lock.ts';
import { attempt, type Refusal } from './panel-results.ts';

// What the panel shows besides the live session: a session read from its file but not resumed
// (another workspace's, or one another process is writing), and where the shown session's older
// pages are. Kept apart from the live session so a view never reaches a tool or the model, and
// never has the live session's calls, turns or checkpoints acted on in its name. Its file links
// are the files of its own workspace.

type SessionFile = Awaited<ReturnType<typeof openSession>>;

export class ShownSession {
  /** A session shown but not resumed: its cards still answer "what the model received". */
  private viewed: Map<string, ToolContent> | null = null;
  /** The workspace of the session shown read-only because it is not this one: sending is refused meanwhile. */
  private foreign: string | null = null;
  /** Why the session shown is only viewed, in words: null while the live session is shown. */
  private viewOnly: string | null = null;
  /** Where the shown session's events are, for its older pages. */
  private pages: SessionPages | null = null;
  /** Set while an agent's session is shown: its agent and the session that started it. */
  private agentOf: { agent: string; session: string } | null = null;

  /** This service's workspace, real path. */
  private readonly workspace: string;

  constructor(workspace: string) {
    this.workspace = workspace;
  }

  /** A live session is shown now; call ids of the one viewed before may repeat in it. */
  live(): void {
    this.viewed = null;
    this.foreign = null;
    this.viewOnly = null;
    this.agentOf = null;
  }

  /** Another session is being opened: nothing of the one shown before answers any more. */
  reset(): void {
    this.live();
    this.pages = null;
  }

  /** What the model received for a call of the session viewed read-only; undefined for a live one. */
  content(callId: string): ToolContent | undefined {
    return this.viewed?.get(callId);
  }

  /** The workspace whose files the shown session's links name: its own, which may be another than this one. */
  shownWorkspace(): string {
    return this.foreign ?? this.workspace;
  }

  /**
   * A request that acts on the shown session (rewinding it, its turn's changes, its calls) is refused
   * while it is only viewed: the live session would be acted on instead. `what`: "rewind it".
   */
  viewRefusal(what: string): Refusal | null {
    if (this.viewOnly === null) return null;
    return {
      ok: false,
      error: `The session shown ${this.viewOnly}, so it is only shown here: to ${what}, ${this.way()}.`,
    };
  }

  private way(): string {
    if (this.agentOf) return `go back to its parent session (${this.agentOf.session}) and ask there`;
    return this.foreign === null
      ? 'wait until that process has finished with it, then open it again'
      : `open it in its own workspace (${this.foreign})`;
  }

  /** Sending is refused while another workspace's session is shown: its message would go nowhere here. */
  sendRefusal(): Refusal | null {
    if (this.agentOf)
      return {
        ok: false,
        error: `Not sent: the session shown is agent ${this.agentOf.agent}'s, which only its parent's agent call talks to. Go back to its parent (above the transcript) to go on; your message stays in the box.`,
      };
    if (this.foreign === null) return null;
    return {
      ok: false,
      // Its notice names both folders; this says what became of the message.
      error:
        'Not sent: the session shown belongs to another workspace and is read-only here. Choose "New session here" to work in this one; your message stays in the box.',
    };
  }

  /** A session of another workspace is shown, not resumed: its tools would reach the wrong folder. */
  showForeign(file: SessionFile): OpenedSession {
    this.viewed = file.replay.contents;
    const theirs = file.opened.summary.workspace;
    this.foreign = theirs;
    this.viewOnly = 'belongs to another workspace';
    const notice = {
      kind: 'other_workspace' as const,
      text: `This session was made in another workspace (${theirs}), so it is shown read-only here: its tools would reach that folder, not ${this.workspace}. Its file links open that workspace's files. Start a new session here to go on working.`,
    };
    return this.firstPage(new SessionPages(file.replay), {
      ...file.opened,
      notices: [...(file.opened.notices ?? []), notice],
    });
  }

  /**
   * The session an `agent` call started: its transcript, shown and never resumed (its parent's agent
   * call is the only one that talks to it). Its file links are its workspace's, the parent's.
   */
  showAgent(file: SessionFile & { place: { folder: string } }): OpenedSession {
    const { summary } = file.opened;
    this.viewed = file.replay.contents;
    this.agentOf = { agent: summary.agent_of?.agent ?? 'agent', session: summary.agent_of?.session ?? '' };
    this.foreign = summary.workspace === this.workspace ? null : summary.workspace;
    this.viewOnly = `is agent ${this.agentOf.agent}'s transcript`;
    return this.firstPage(new SessionPages(file.replay), file.opened);
  }

  /** Another process (a CLI run, a second window of another host) is writing it: shown as it is. */
  showReadOnly(file: SessionFile, locked: SessionLockedError): OpenedSession {
    this.viewed = file.replay.contents;
    this.viewOnly = 'is being written by another process';
    const notice = {
      kind: 'read_only' as const,
      text: `${locked.message} It is shown read-only; a message you send now starts a new session.`,
    };
    // Its repairs are not drawn: a turn the other process is running is not interrupted.
    const live = openedOf(file.replay, { live: true });
    return this.firstPage(new SessionPages(file.replay), { ...live, notices: [...(live.notices ?? []), notice] });
  }

  /** The newest page of the session shown; its older pages are read back from the file when asked for. */
  firstPage(pages: SessionPages, opened: OpenedSession): OpenedSession {
    this.pages = pages;
    return pages.first(opened);
  }

  olderPage(id: string, before: number): Promise<Result<SessionPage>> {
    const pages = this.pages;
    if (pages?.id !== id) {
      return Promise.resolve({
        ok: false,
        error: `Session ${id} is no longer the one shown: open it again to read its earlier events.`,
      });
    }
    return attempt(() => pages.before(before));
  }
}
