import { z } from 'zod';
import { errorMessage } from '../../protocol/errors.ts';
import type { Fetch } from './wire-watch.ts';

// The models an OpenAI-compatible server offers (`GET <baseURL>/models`: Ollama, LM Studio, vLLM,
// llama.cpp), with the context window where the server states one. Each server names it its own
// way; the ones known here are read, anything else leaves the window unknown.

export interface ServerModel {
  id: string;
  context_window?: number;
}

export type ServerModelList = { ok: true; models: ServerModel[] } | { ok: false; error: string };

const positive = z.number().int().positive();
const entrySchema = z.looseObject({
  id: z.string().min(1),
  // OpenRouter, LM Studio, several proxies
  context_length: positive.optional().catch(undefined),
  context_window: positive.optional().catch(undefined),
  max_context_length: positive.optional().catch(undefined),
  loaded_context_length: positive.optional().catch(undefined),
  // vLLM
  max_model_len: positive.optional().catch(undefined),
  // llama.cpp's server
  meta: z
    .looseObject({ n_ctx: positive.optional().catch(undefined), n_ctx_train: positive.optional().catch(undefined) })
    .optional()
    .catch(undefined),
});
const listSchema = z.looseObject({ data: z.array(z.unknown()) });

function windowOf(entry: z.infer<typeof entrySchema>): number | undefined {
  return (
    entry.context_window ??
    entry.loaded_context_length ??
    entry.max_model_len ??
    entry.context_length ??
    entry.max_context_length ??
    entry.meta?.n_ctx ??
    entry.meta?.n_ctx_train
  );
}

export interface ListServerModelsOptions {
  fetch?: Fetch;
  apiKey?: string;
  /** Default 5 000: a server that does not answer by then is reported as down. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Asks a compatible server for its models. Never throws: a failure says what to check. */
export async function listServerModels(
  baseURL: string,
  options: ListServerModelsOptions = {},
): Promise<ServerModelList> {
  const url = `${baseURL.replace(/\/+$/, '')}/models`;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 5_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await (options.fetch ?? globalThis.fetch)(url, {
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
      signal,
    });
  } catch (error) {
    const why = timeout.aborted
      ? `no answer within ${Math.round((options.timeoutMs ?? 5_000) / 1000)} s`
      : errorMessage(error);
    return {
      ok: false,
      error: `Cannot reach the model server at ${url} (${why}). Is it running, and is the address right?`,
    };
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return {
      ok: false,
      error: `The model server at ${url} answered HTTP ${response.status} when asked for its models. Check the address (it usually ends in /v1) and the key.`,
    };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return {
      ok: false,
      error: `The model server at ${url} did not answer with JSON; is this an OpenAI-compatible server?`,
    };
  }
  const list = listSchema.safeParse(body);
  if (!list.success) {
    return {
      ok: false,
      error: `The model server at ${url} answered without a "data" list of models; is this an OpenAI-compatible server?`,
    };
  }
  const models: ServerModel[] = [];
  for (const item of list.data.data) {
    const entry = entrySchema.safeParse(item);
    if (!entry.success) continue;
    const window = windowOf(entry.data);
    models.push({ id: entry.data.id, ...(window === undefined ? {} : { context_window: window }) });
  }
  return { ok: true, models };
}
