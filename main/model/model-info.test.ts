import { afterEach, describe, expect, it } from 'vitest';
import { usageCost } from '../../protocol/models.ts';
import { startFixtureServer, type FixtureServer } from './fixture-server.ts';
import { modelInfo, registryModels } from './model-info.ts';
import { listServerModels } from './server-models.ts';

// Model metadata: tokenlens's bundled catalog, the settings' override, and a compatible server's
// own word about its window (the fixture server's real GET /v1/models).

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('modelInfo', () => {
  it('reads a known model from the registry: window, output limit and prices', () => {
    const info = modelInfo('anthropic:claude-sonnet-4-20250514');
    expect(info).toEqual({
      id: 'anthropic:claude-sonnet-4-20250514',
      registry_id: 'claude-sonnet-4-20250514',
      context_window: 200_000,
      max_output: 64_000,
      prices: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
      source: 'registry',
      catalog: expect.stringMatching(/^bundled catalog of \d{4}-\d\d-\d\d$/),
    });
    expect(modelInfo('openai:gpt-4.1').context_window).toBe(1_047_576);
  });

  it('resolves an undated alias to the newest dated snapshot', () => {
    expect(modelInfo('anthropic:claude-opus-4-1').registry_id).toBe('claude-opus-4-1-20250805');
    expect(modelInfo('anthropic:claude-sonnet-4-0').registry_id).toBe('claude-sonnet-4-20250514');
  });

  it('knows nothing about an unknown model until an override says it', () => {
    const id = 'anthropic:claude-future-9';
    expect(modelInfo(id)).toEqual({ id, source: 'unknown' });
    const info = modelInfo(id, { [id]: { context_window: 500_000, prices: { input: 2, output: 10 } } });
    expect(info).toEqual({
      id,
      context_window: 500_000,
      prices: { input: 2, output: 10 },
      source: 'override',
    });
  });

  it('lets an override change one field of a known model and keep the rest', () => {
    const id = 'openai:gpt-4o';
    const info = modelInfo(id, { [id]: { context_window: 64_000 } });
    expect(info.context_window).toBe(64_000);
    expect(info.max_output).toBe(16_384);
    expect(info.prices?.input).toBe(2.5);
  });

  it('takes a compatible server window from the server; a loopback server costs nothing', () => {
    const local = 'compat:http://127.0.0.1:11434/v1#llama3.2';
    expect(modelInfo(local, {}, { context_window: 8_000 })).toEqual({
      id: local,
      context_window: 8_000,
      prices: { input: 0, output: 0 },
      source: 'server',
    });
    const remote = 'compat:https://llm.example.com/v1#big';
    expect(modelInfo(remote)).toEqual({ id: remote, source: 'unknown' });
    expect(modelInfo(remote, { [remote]: { context_window: 32_000 } }, { context_window: 8_000 }).context_window).toBe(
      32_000,
    );
  });

  it('lists the registry models newest first', () => {
    const anthropic = registryModels('anthropic');
    expect(anthropic[0]).toBe('anthropic:claude-opus-4-1-20250805');
    expect(anthropic).toContain('anthropic:claude-3-haiku-20240307');
  });
});

describe('usageCost', () => {
  it('bills cache reads and writes at their own prices and the rest of the input at the input price', () => {
    const prices = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
    const usage = {
      input_tokens: 1_000_000,
      output_tokens: 100_000,
      cache_read_tokens: 500_000,
      cache_write_tokens: 100_000,
    };
    // 400k plain × 3 + 500k × 0.3 + 100k × 3.75 + 100k × 15, per million
    expect(usageCost(usage, prices)).toBeCloseTo(1.2 + 0.15 + 0.375 + 1.5, 10);
    expect(usageCost({ input_tokens: 1_000, output_tokens: 0 }, prices)).toBeCloseTo(0.003, 10);
  });
});

describe('listServerModels', () => {
  it('lists what GET /v1/models says, with the window where the server states one', async () => {
    server = await startFixtureServer({
      script: { steps: [], models: [{ id: 'small', context_window: 8_000 }, { id: 'plain' }] },
    });
    expect(await listServerModels(server.baseURL)).toEqual({
      ok: true,
      models: [{ id: 'small', context_window: 8_000 }, { id: 'plain' }],
    });
  });

  it('says the server cannot be reached, naming the address', async () => {
    server = await startFixtureServer();
    const url = server.baseURL;
    await server.close();
    server = undefined;
    const result = await listServerModels(url);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain(`Cannot reach the model server at ${url}/models`);
  });

  it('says when the address answers but is not a model server', async () => {
    server = await startFixtureServer();
    const result = await listServerModels(server.url);
    expect(!result.ok && result.error).toMatch(/answered HTTP 404 .* usually ends in \/v1/);
  });
});
