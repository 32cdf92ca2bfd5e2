import { afterEach } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../main/model/fixture-server.ts';
import type { FixtureScriptInput } from '../main/model/fixture-script.ts';
import { createModelAdapter, type ModelAdapterOptions } from '../main/model/index.ts';
import type { ChatMessage, ModelAdapter, ModelRequest, ModelStreamPart, ToolSpec } from '../main/model/types.ts';

// Shared by the model tests: the two wires (three ids) pointed at a real fixture server.

export interface WireCase {
  wire: 'anthropic' | 'openai';
  label: string;
  id(server: FixtureServer): string;
  options(server: FixtureServer): ModelAdapterOptions;
}

export const WIRE_CASES: WireCase[] = [
  {
    wire: 'anthropic',
    label: 'anthropic',
    id: () => 'anthropic:claude-sonnet-4-5',
    options: (server) => ({ keys: { anthropic: 'sk-ant-test' }, baseURLs: { anthropic: server.baseURL }, env: {} }),
  },
  {
    wire: 'openai',
    label: 'openai',
    id: () => 'openai:gpt-4.1',
    options: (server) => ({ keys: { openai: 'sk-test' }, baseURLs: { openai: server.baseURL }, env: {} }),
  },
  {
    wire: 'openai',
    label: 'compat',
    id: (server) => `compat:${server.baseURL}#local-model`,
    options: () => ({ env: {} }),
  },
];

export const READ_FILE_SPEC: ToolSpec = {
  name: 'read_file',
  description: 'Read a file of the workspace.',
  input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

export function request(messages: ChatMessage[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You are a test.',
    messages,
    tools: [READ_FILE_SPEC],
    effort: 'off',
    signal: new AbortController().signal,
    ...extra,
  };
}

export interface StepOutcome {
  parts: ModelStreamPart[];
  text: string;
  error: unknown;
}

export async function runStep(adapter: ModelAdapter, req: ModelRequest): Promise<StepOutcome> {
  const parts: ModelStreamPart[] = [];
  let error: unknown;
  try {
    for await (const part of adapter.stream(req)) parts.push(part);
  } catch (caught) {
    error = caught;
  }
  const text = parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return { parts, text, error };
}

export interface Harness {
  server: FixtureServer;
  adapter: ModelAdapter;
  /** The delays retries asked to wait, in ms (nothing actually waits). */
  sleeps: number[];
}

export async function startHarness(
  wireCase: WireCase,
  script: FixtureScriptInput,
  options: ModelAdapterOptions = {},
): Promise<Harness> {
  const server = await startFixtureServer({ script });
  const sleeps: number[] = [];
  const adapter = createModelAdapter(wireCase.id(server), {
    ...wireCase.options(server),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  return { server, adapter, sleeps };
}

/** One harness at a time for a test file: `start` opens it, and it is closed after each test. */
export function useHarness(): (
  wireCase: WireCase,
  script: FixtureScriptInput,
  options?: ModelAdapterOptions,
) => Promise<Harness> {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.server.close();
    harness = undefined;
  });
  return async (wireCase, script, options = {}) => {
    harness = await startHarness(wireCase, script, options);
    return harness;
  };
}
