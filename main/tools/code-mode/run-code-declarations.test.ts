import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolDeclarations } from './run-code-declarations.ts';
import { runCodeFixture } from '../../../test/run-code-fixture.ts';

describe('toolDeclarations', () => {
  it('declares each tool as a method taking its argument object', () => {
    const schema = z.object({
      path: z.string().describe('File path.'),
      offset: z.number().int().min(1).optional(),
      mode: z.enum(['lines', 'bytes']).default('lines'),
      tags: z.array(z.string()),
      env: z.record(z.string(), z.string()).optional(),
      either: z.union([z.literal(1), z.null()]),
      'odd-key': z.boolean(),
    });
    const declared = toolDeclarations([
      {
        name: 'read_file',
        model: { description: 'Reads a file.\n\nMore detail the model does not need here.', schema },
      },
    ]);
    expect(declared).toBe(
      [
        'declare const tools: {',
        '  /** Reads a file. */',
        '  read_file(args: {',
        '    /** File path. */',
        '    path: string;',
        '    offset?: number;',
        '    /** Default: "lines". */',
        '    mode?: "lines" | "bytes";',
        '    tags: string[];',
        '    env?: {',
        '      [key: string]: string;',
        '    };',
        '    either: 1 | null;',
        '    "odd-key": boolean;',
        '  }): Promise<unknown>;',
        '};',
      ].join('\n'),
    );
  });

  it('declares the recursive part of a recursive schema as unknown', () => {
    interface Tree {
      name: string;
      children: Tree[];
    }
    const tree: z.ZodType<Tree> = z.lazy(() => z.object({ name: z.string(), children: z.array(tree) }));
    const declared = toolDeclarations([
      { name: 'walk', model: { description: 'Walks.', schema: z.object({ root: tree }) } },
    ]);
    expect(declared).toContain('    root: {\n      name: string;\n      children: unknown[];\n    };');
  });
});

describe('run_code description', () => {
  it('carries declarations of every other tool and none of itself', async () => {
    const fixture = await runCodeFixture();
    try {
      const description = fixture.registry.get('run_code')!.model.description;
      expect(description).toContain(
        '  read_file(args: {\n    /** The file, relative to the workspace root. */\n    path: string;\n',
      );
      expect(description).toContain('  write_file(args: {');
      expect(description).toContain('  wait(args: {');
      expect(description).not.toContain('run_code(args');
    } finally {
      await fixture.dispose();
    }
  });
});

describe('toolDeclarations results', () => {
  it('types the resolved value from the result schema when the tool declares one', () => {
    const declared = toolDeclarations([
      {
        name: 'count',
        model: {
          description: 'Counts.',
          schema: z.object({ text: z.string() }),
          resultSchema: z.object({ words: z.number().describe('Words in the text.'), lines: z.number() }),
        },
      },
    ]);
    expect(declared).toContain(
      '  }): Promise<{\n    /** Words in the text. */\n    words: number;\n    lines: number;\n  }>;',
    );
  });
});
