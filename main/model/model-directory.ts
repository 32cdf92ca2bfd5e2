import type { ModelInfo, ModelOverrides, ServerModelChoice } from '../../protocol/models.ts';
import { modelInfo } from './model-info.ts';
import { serverModelOf } from './providers.ts';
import { listServerModels, type ServerModel, type ServerModelList } from './server-models.ts';
import type { Fetch } from './wire-watch.ts';

// What is known about models, for the context meter and the cost: the registry, the person's
// overrides (settings.json `model_overrides`), and what each compatible server said about its
// models when it was last asked (`GET /v1/models`). The panel keeps one for its sessions and its
// model picker; `aether run` makes one per run; openAgentSession asks it about the session's model.

export class ModelDirectory {
  private overrides: ModelOverrides;
  private readonly servers = new Map<string, ServerModel[]>();
  private readonly fetch: Fetch | undefined;

  constructor(options: { overrides?: ModelOverrides; fetch?: Fetch } = {}) {
    this.overrides = options.overrides ?? {};
    this.fetch = options.fetch;
  }

  setOverrides(overrides: ModelOverrides | undefined): void {
    this.overrides = overrides ?? {};
  }

  /** Synchronous: what is known now (a compatible server's window once `learn` has asked it). */
  info(id: string): ModelInfo {
    const named = serverModelOf(id);
    const server = named ? this.servers.get(named.baseURL)?.find((model) => model.id === named.model) : undefined;
    return modelInfo(id, this.overrides, server);
  }

  /** Asks a compatible server for its models and keeps the answer; other ids need no asking. */
  async learn(id: string, options: { apiKey?: string; timeoutMs?: number } = {}): Promise<ServerModelList | null> {
    const named = serverModelOf(id);
    return named === null ? null : this.list(named.baseURL, options);
  }

  /** The picker's list of what a compatible server offers; a server that cannot be asked throws its reason. */
  async choices(baseURL: string): Promise<ServerModelChoice[]> {
    const listed = await this.list(baseURL, { timeoutMs: 5_000 });
    if (!listed.ok) throw new Error(listed.error);
    return listed.models.map((model) => ({
      id: `compat:${baseURL}#${model.id}`,
      name: model.id,
      ...(model.context_window === undefined ? {} : { context_window: model.context_window }),
    }));
  }

  /** The models a compatible server offers (kept for `info`). */
  async list(baseURL: string, options: { apiKey?: string; timeoutMs?: number } = {}): Promise<ServerModelList> {
    const listed = await listServerModels(baseURL, {
      ...(this.fetch ? { fetch: this.fetch } : {}),
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    if (listed.ok) this.servers.set(baseURL, listed.models);
    return listed;
  }
}
