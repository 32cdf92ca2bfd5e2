import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { HookRanEvent, StatusEvent } from '../protocol/events.ts';
import {
  openAgentSession,
  type OpenAgentSessionOptions,
  type OpenedAgentSession,
} from '../main/agent/open-agent-session.ts';
import { startFixtureServer, type FixtureServer } from '../main/model/fixture-server.ts';
import type { FixtureScriptInput } from '../main/model/fixture-script.ts';
import { StatusRecorder } from '../main/status/sink.ts';

// What the hook tests share: an app home, a workspace and a sessions folder in temp, settings files
// written as a person writes them, and sessions opened through the front door over the fixture model.

export class HookRig {
  home = '';
  workspace = '';
  root = '';
  server: FixtureServer | undefined;
  private readonly opened: OpenedAgentSession[] = [];

  async setUp(): Promise<void> {
    this.home = await mkdtemp(path.join(os.tmpdir(), 'aether-hooks-home-'));
    this.workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'aether-hooks-ws-')));
    this.root = await mkdtemp(path.join(os.tmpdir(), 'aether-hooks-sessions-'));
  }

  async tearDown(): Promise<void> {
    await this.closeAll();
    for (const folder of [this.home, this.workspace, this.root]) await rm(folder, { recursive: true, force: true });
  }

  async closeAll(): Promise<void> {
    for (const one of this.opened.splice(0)) await one.close();
    await this.server?.close();
    this.server = undefined;
  }

  /** Writes `{"hooks": …}` to a settings file (the app home's `settings.json` when `file` is relative to it). */
  async settings(file: string, hooks: Record<string, unknown>): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ hooks }, null, 2));
  }

  /** A session through the front door, with hooks from the rig's home and workspace, in the `auto` mode. */
  async open(script: FixtureScriptInput, extra: Partial<OpenAgentSessionOptions> = {}) {
    await this.server?.close();
    this.server = await startFixtureServer({ script });
    const recorder = new StatusRecorder();
    const one = await openAgentSession({
      workspace: this.workspace,
      sessionsRoot: this.root,
      model: `compat:${this.server.baseURL}#fixture`,
      sink: recorder,
      permissions: { mode: 'auto' },
      hooks: { home: this.home },
      skills: { home: this.home },
      ...extra,
    });
    this.opened.push(one);
    return { ...one, recorder };
  }

  /** The messages the model was sent by the last request. */
  lastMessages(): { role: string; content: unknown }[] {
    const last = this.server?.requests.at(-1);
    return (last?.body['messages'] as { role: string; content: unknown }[] | undefined) ?? [];
  }

  /** The text of every tool result the model was sent by the last request, in order. */
  toolResults(): string[] {
    return this.lastMessages()
      .filter((message) => message.role === 'tool')
      .map((message) => String(message.content));
  }
}

export const hookRuns = (events: readonly StatusEvent[]): HookRanEvent[] =>
  events.filter((event): event is HookRanEvent => event.type === 'hook_ran');
