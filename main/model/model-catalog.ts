import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../protocol/errors.ts';
import { isRecord } from '../../protocol/json.ts';
import type { ProviderName } from '../../protocol/providers.ts';
import { MODEL_PROVIDERS, type CatalogEntry } from './providers.ts';
import type { Fetch } from './wire-watch.ts';

// The model catalog the windows and prices come from: the one bundled with the app (tokenlens's
// models.dev data, as old as the package), and — once the machine has been online — models.dev's
// own, fetched at most once a day into the app's folder and read from there afterwards. A refresh
// never holds anything up: the bundled catalog answers until it lands, and a machine offline keeps
// the last one fetched (or the bundled one). A fetched entry wins over the bundled one of the same
// id; models only the bundled catalog knows stay known.

export interface CatalogSource {
  /** `models.dev` or `bundled`. */
  name: 'models.dev' | 'bundled';
  /** When it was fetched (models.dev), or the newest model it lists (bundled): an ISO date. */
  date: string;
}

type Catalogs = Partial<Record<ProviderName, Record<string, CatalogEntry>>>;

const FILE = 'models-dev.json';
const MAX_AGE_MS = 24 * 60 * 60 * 1000;
const FETCH_TIMEOUT_MS = 10_000;

let refreshed: { source: CatalogSource; catalogs: Catalogs } | undefined;

function bundledDate(): string {
  let newest = '';
  for (const provider of Object.values(MODEL_PROVIDERS)) {
    if (provider.catalog === 'server') continue;
    for (const entry of Object.values(provider.catalog) as (CatalogEntry & { last_updated?: string })[])
      if ((entry.last_updated ?? '') > newest) newest = entry.last_updated ?? '';
  }
  return newest;
}

/** A provider's catalog now: models.dev's entries over the bundled ones; `server` for a provider whose server says. */
export function catalogOf(family: ProviderName): Readonly<Record<string, CatalogEntry>> | 'server' {
  const bundled = MODEL_PROVIDERS[family].catalog;
  if (bundled === 'server') return 'server';
  const fetched = refreshed?.catalogs[family];
  return fetched === undefined ? bundled : { ...bundled, ...fetched };
}

/** Which catalog the figures come from now, and its date. */
export function catalogSource(): CatalogSource {
  return refreshed?.source ?? { name: 'bundled', date: bundledDate() };
}

/** `models.dev catalog of 2026-12-06`, `bundled catalog of 2025-08-07`. */
export function catalogLabel(source: CatalogSource = catalogSource()): string {
  return `${source.name === 'bundled' ? 'bundled' : 'models.dev'} catalog of ${source.date.slice(0, 10)}`;
}

/** The providers models.dev lists that have a catalog here, their models by id. */
function ourCatalogs(data: unknown): Catalogs {
  const catalogs: Catalogs = {};
  if (!isRecord(data)) return catalogs;
  for (const provider of Object.values(MODEL_PROVIDERS)) {
    if (provider.catalog === 'server') continue;
    const entry = data[provider.id];
    if (isRecord(entry) && isRecord(entry.models)) catalogs[provider.id] = entry.models as Record<string, CatalogEntry>;
  }
  return catalogs;
}

/** The kept file's `providers`, in models.dev's own shape. */
function catalogsFile(catalogs: Catalogs): Record<string, { models: Record<string, CatalogEntry> }> {
  return Object.fromEntries(Object.entries(catalogs).map(([id, models]) => [id, { models }]));
}

async function readKept(file: string): Promise<{ fetchedAt: number; catalogs: Catalogs } | undefined> {
  try {
    const kept = JSON.parse(await readFile(file, 'utf8')) as unknown;
    if (!isRecord(kept) || typeof kept.fetched_at !== 'string') return undefined;
    const fetchedAt = Date.parse(kept.fetched_at);
    return Number.isFinite(fetchedAt) ? { fetchedAt, catalogs: ourCatalogs(kept.providers) } : undefined;
  } catch {
    return undefined;
  }
}

function use(fetchedAt: number, catalogs: Catalogs): CatalogSource {
  const source: CatalogSource = { name: 'models.dev', date: new Date(fetchedAt).toISOString() };
  refreshed = { source, catalogs };
  return source;
}

export interface CatalogRefreshOptions {
  /** Where the fetched catalog is kept (the app's folder). */
  folder: string;
  fetch?: Fetch;
  /** models.dev's address (tests point it at a local server). */
  url?: string;
  now?: () => number;
  timeoutMs?: number;
  /** False: only read what was kept (a short command that must not wait on the network). */
  online?: boolean;
}

export type CatalogRefresh =
  { ok: true; source: CatalogSource; fetched: boolean } | { ok: false; error: string; source: CatalogSource };

/**
 * Reads the kept catalog, and fetches models.dev's when it is a day old or missing. Never throws:
 * what could not be fetched leaves the catalog in use as it was, and says why.
 */
export async function refreshModelCatalog(options: CatalogRefreshOptions): Promise<CatalogRefresh> {
  const now = options.now ?? Date.now;
  const file = path.join(options.folder, FILE);
  const kept = await readKept(file);
  if (kept !== undefined) use(kept.fetchedAt, kept.catalogs);
  if ((kept !== undefined && now() - kept.fetchedAt < MAX_AGE_MS) || options.online === false)
    return { ok: true, source: catalogSource(), fetched: false };
  try {
    // Loaded only to fetch: most starts read the kept catalog, or are told to stay offline.
    const { fetchModels } = await import('tokenlens/fetch');
    const data = await fetchModels({
      ...(options.url === undefined ? {} : { baseUrl: options.url }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch as never }),
      signal: AbortSignal.timeout(options.timeoutMs ?? FETCH_TIMEOUT_MS),
    });
    const catalogs = ourCatalogs(data);
    if (Object.keys(catalogs).length === 0) throw new Error('it lists none of the providers the app knows');
    const fetchedAt = now();
    await mkdir(options.folder, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    // Only the providers that have a catalog here: models.dev lists hundreds.
    await writeFile(
      temporary,
      JSON.stringify({ fetched_at: new Date(fetchedAt).toISOString(), providers: catalogsFile(catalogs) }),
    );
    await rename(temporary, file);
    return { ok: true, source: use(fetchedAt, catalogs), fetched: true };
  } catch (error) {
    return {
      ok: false,
      error: `The model catalog could not be refreshed from models.dev (${errorMessage(error)}); the ${catalogLabel()} is used.`,
      source: catalogSource(),
    };
  }
}

/** Back to the bundled catalog (tests). */
export function forgetRefreshedCatalog(): void {
  refreshed = undefined;
}
