import { describe, expect, it } from 'vitest';
import { bareImports } from './packaging-harness.ts';

describe('bareImports', () => {
  it('finds the packages a bundle imports, requires or loads, minified or not, and no built-in', () => {
    const code = [
      'import { a } from "zod";',
      'import "side-effect";',
      "const later = await import('dynamic');",
      'const cjs = require("common");',
      'import{x}from"minified";export*from"re-exported";',
      "import { readFile } from 'node:fs/promises';",
      "import path from 'path';",
      "import { local } from './local.js';",
    ].join('\n');
    expect([...bareImports(code)].sort()).toEqual([
      'common',
      'dynamic',
      'minified',
      're-exported',
      'side-effect',
      'zod',
    ]);
  });

  it('takes no import out of a string or a name, such as a request type called "history:import"', () => {
    const code = [
      'const handlers = { "history:import": ({ prompts }) => attempt(() => history.addOlder(prompts)) };',
      'const client = { importPrompts: method("history:import", (prompts) => ({ prompts })) };',
      'const schema = { "history:import": z.object({}) , "x-from": "y" };',
      'target.import("not-a-module"); value.require("nor-this");',
    ].join('\n');
    expect([...bareImports(code)]).toEqual([]);
  });
});
