import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogSource, forgetRefreshedCatalog, refreshModelCatalog } from './model-catalog.ts';
import { modelInfo, registryModels } from './model-info.ts';

// The catalog refreshed from models.dev, against a local HTTP server standing in for it: fetched
// once a day into the app's folder, read from there in between, kept when the machine is offline,
// and the bundled one when nothing was ever fetched. The figures say which catalog they come from.

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.parse('2026-12-06T12:00:00Z');

const CATALOG = {
  anthropic: {
    id: 'anthropic',
    models: {
      'claude-sonnet-4-5-20250929': {
        id: 'claude-sonnet-4-5-20250929',
        cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
        limit: { context: 1_000_000, output: 64_000 },
      },
    },
  },
  openai: { id: 'openai', models: {} },
  deepseek: { id: 'deepseek', models: { 'deepseek-chat': { id: 'deepseek-chat' } } },
};

let folder: string;
let server: Server;
let url: string;
let requests = 0;
let answer: 'catalog' | 'error' = 'catalog';

beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'aether-catalog-'));
  requests = 0;
  answer = 'catalog';
  server = createServer((_req, res) => {
    requests += 1;
    if (answer === 'error') {
      res.writeHead(503).end('down');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(CATALOG));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api.json`;
});

afterEach(async () => {
  forgetRefreshedCatalog();
  await new Promise((resolve) => server.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

describe('the models.dev catalog', () => {
  it('fetches once a day into the app’s folder, and the figures then say which catalog they come from', async () => {
    expect(modelInfo('anthropic:claude-sonnet-4-5').source).toBe('unknown');
    const first = await refreshModelCatalog({ folder, url, now: () => T0 });
    expect(first).toMatchObject({ ok: true, fetched: true, source: { name: 'models.dev' } });
    expect(requests).toBe(1);
    const info = modelInfo('anthropic:claude-sonnet-4-5');
    expect(info).toMatchObject({ context_window: 1_000_000, catalog: 'models.dev catalog of 2026-12-06' });
    // The bundled models stay known.
    expect(modelInfo('anthropic:claude-opus-4-1').registry_id).toBe('claude-opus-4-1-20250805');
    expect(registryModels('anthropic')).toContain('anthropic:claude-sonnet-4-5-20250929');
    // Only the providers the app knows are kept.
    const kept = JSON.parse(await readFile(path.join(folder, 'models-dev.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(kept.providers as object).sort()).toEqual(['anthropic', 'openai']);

    // Within the day: read from the folder, no request.
    forgetRefreshedCatalog();
    expect(await refreshModelCatalog({ folder, url, now: () => T0 + DAY - 1 })).toMatchObject({ fetched: false });
    expect(requests).toBe(1);
    expect(modelInfo('anthropic:claude-sonnet-4-5').context_window).toBe(1_000_000);
    // A day later: fetched again.
    expect(await refreshModelCatalog({ folder, url, now: () => T0 + DAY + 1 })).toMatchObject({ fetched: true });
    expect(requests).toBe(2);
  });

  it('keeps the last catalog fetched when models.dev cannot be reached, and says so', async () => {
    await refreshModelCatalog({ folder, url, now: () => T0 });
    forgetRefreshedCatalog();
    answer = 'error';
    const offline = await refreshModelCatalog({ folder, url, now: () => T0 + 2 * DAY });
    expect(offline).toMatchObject({ ok: false, source: { name: 'models.dev', date: '2026-12-06T12:00:00.000Z' } });
    expect(offline.ok ? '' : offline.error).toMatch(
      /^The model catalog could not be refreshed from models.dev \(.+\); the models.dev catalog of 2026-12-06 is used\.$/,
    );
    expect(modelInfo('anthropic:claude-sonnet-4-5').context_window).toBe(1_000_000);
  });

  it('falls back to the bundled catalog offline when nothing was ever fetched, or the kept file is damaged', async () => {
    await new Promise((resolve) => server.close(resolve));
    await writeFile(path.join(folder, 'models-dev.json'), '{ not json');
    const offline = await refreshModelCatalog({ folder, url, now: () => T0, timeoutMs: 2_000 });
    expect(offline).toMatchObject({ ok: false, source: { name: 'bundled' } });
    expect(catalogSource().name).toBe('bundled');
    expect(modelInfo('anthropic:claude-sonnet-4-20250514').catalog).toMatch(/^bundled catalog of /);
    server = createServer();
    server.listen(0);
  });
});
