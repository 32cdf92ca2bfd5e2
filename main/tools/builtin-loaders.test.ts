import { describe, expect, it } from 'vitest';
import { builtinToolsFor, SINGLY_LOADED } from './builtin-loaders.ts';
import { builtinTools } from './index.ts';

describe('the built-in tools loaded by name', () => {
  it('has a loader for every built-in tool but run_code, each giving the tool of that name', async () => {
    const all = builtinTools().map((tool) => tool.name);
    expect([...SINGLY_LOADED].sort()).toEqual(all.filter((name) => name !== 'run_code').sort());
    for (const name of SINGLY_LOADED) {
      const loaded = await builtinToolsFor(name);
      expect(loaded.map((tool) => tool.name)).toEqual([name]);
    }
  });

  it('gives every built-in tool for run_code, which calls the others, and for a name it does not know', async () => {
    const all = builtinTools().map((tool) => tool.name);
    expect((await builtinToolsFor('run_code')).map((tool) => tool.name)).toEqual(all);
    expect((await builtinToolsFor('read_fiel')).map((tool) => tool.name)).toEqual(all);
    expect((await builtinToolsFor('__proto__')).map((tool) => tool.name)).toEqual(all);
  });
});
