import type { ModelInfo, ModelOverrides, ModelPrices } from '../../protocol/models.ts';
import type { ProviderName } from '../../protocol/providers.ts';
import { catalogLabel, catalogOf } from './model-catalog.ts';
import { MODEL_PROVIDERS, parseModelId, type CatalogEntry } from './providers.ts';

// A model's context window, output limit and prices: the models.dev catalog (model-catalog.ts:
// bundled, or refreshed from models.dev at most daily), what an OpenAI-compatible server says about its own models, and the
// person's per-model override in settings, which wins field by field. Which of the two a provider
// has is its record's `catalog` (providers.ts).

/** The demo model runs in-process: it costs nothing and pretends to a window large enough for any demo. */
const DEMO_INFO: Omit<ModelInfo, 'id'> = {
  context_window: 200_000,
  max_output: 8_192,
  prices: { input: 0, output: 0 },
  source: 'builtin',
};

/** What a compatible server's `/v1/models` said about one model (see server-models.ts). */
export interface ServerModelFacts {
  context_window?: number;
}

/**
 * The catalog entry a provider model name means: the name itself, or its newest dated snapshot
 * (`claude-opus-4-1` → `claude-opus-4-1-20250805`; `-latest` and a trailing `-0` are aliases too).
 */
export function resolveCatalogEntry(family: ProviderName, model: string): CatalogEntry | undefined {
  const catalog = catalogOf(family);
  if (catalog === 'server') return undefined;
  const exact = catalog[model];
  if (exact) return exact;
  const base = model.replace(/-latest$/, '').replace(/-0$/, '');
  if (catalog[base]) return catalog[base];
  const dated = Object.keys(catalog)
    .filter((id) => id.startsWith(`${base}-`) && /^\d{8}$/.test(id.slice(base.length + 1)))
    .sort();
  const newest = dated.at(-1);
  return newest === undefined ? undefined : catalog[newest];
}

function catalogPrices(entry: CatalogEntry): ModelPrices | undefined {
  const cost = entry.cost;
  if (cost?.input === undefined || cost.output === undefined) return undefined;
  return {
    input: cost.input,
    output: cost.output,
    ...(cost.cache_read === undefined ? {} : { cache_read: cost.cache_read }),
    ...(cost.cache_write === undefined ? {} : { cache_write: cost.cache_write }),
  };
}

/**
 * What is known about a model id. `overrides` are the settings' `model_overrides`, keyed by the full
 * id; `server` is what a compatible server reported for a `compat:` model.
 */
export function modelInfo(id: string, overrides: ModelOverrides = {}, server?: ServerModelFacts): ModelInfo {
  const base = knownInfo(id, server);
  const override = overrides[id];
  if (!override) return base;
  return {
    ...base,
    ...(override.context_window === undefined ? {} : { context_window: override.context_window }),
    ...(override.max_output === undefined ? {} : { max_output: override.max_output }),
    ...(override.prices === undefined ? {} : { prices: override.prices }),
    source: 'override',
  };
}

function knownInfo(id: string, server: ServerModelFacts | undefined): ModelInfo {
  const parsed = parseModelId(id);
  if (!parsed.ok) return { id, source: 'unknown' };
  const spec = parsed.spec;
  if (spec.family === 'demo') return { id, ...DEMO_INFO };
  if (MODEL_PROVIDERS[spec.family].catalog === 'server') {
    // A model on this machine costs nothing per token; a remote server's prices are unknown (an
    // override can set them). The window is whatever the server says.
    const free = 'baseURL' in spec && isLoopback(spec.baseURL) ? { prices: { input: 0, output: 0 } } : {};
    return server?.context_window === undefined
      ? { id, ...free, source: 'unknown' }
      : { id, context_window: server.context_window, ...free, source: 'server' };
  }
  const entry = resolveCatalogEntry(spec.family, spec.model);
  if (!entry) return { id, source: 'unknown' };
  const prices = catalogPrices(entry);
  return {
    id,
    registry_id: entry.id,
    ...(entry.limit?.context === undefined ? {} : { context_window: entry.limit.context }),
    ...(entry.limit?.output === undefined ? {} : { max_output: entry.limit.output }),
    ...(prices === undefined ? {} : { prices }),
    source: 'registry',
    catalog: catalogLabel(),
  };
}

function isLoopback(baseURL: string): boolean {
  const host = URL.parse(baseURL)?.hostname ?? '';
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Every model id the registry knows for a provider, newest release first (for the suggested list). */
export function registryModels(family: ProviderName): string[] {
  const catalog = catalogOf(family);
  if (catalog === 'server') return [];
  const entries = Object.values(catalog) as (CatalogEntry & { release_date?: string })[];
  return entries
    .toSorted((a, b) => (b.release_date ?? '').localeCompare(a.release_date ?? '') || a.id.localeCompare(b.id))
    .map((entry) => `${family}:${entry.id}`);
}
