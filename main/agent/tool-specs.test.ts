import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { systemPrompt } from './system-prompt.ts';
import { toolSpecOf } from './tool-specs.ts';

describe('toolSpecOf', () => {
  it('gives the model the JSON Schema of the arguments it writes', () => {
    const schema = z.object({
      path: z.string().describe('Where'),
      limit: z.number().int().default(10),
      mode: z.enum(['a', 'b']).optional(),
    });
    const spec = toolSpecOf({ name: 'read_file', model: { description: 'Reads.', schema } });
    expect(spec.name).toBe('read_file');
    expect(spec.input_schema).not.toHaveProperty('$schema');
    expect(spec.input_schema).toMatchObject({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Where' },
        limit: { type: 'integer', default: 10 },
        mode: { enum: ['a', 'b'] },
      },
      required: ['path'],
    });
  });

  it('describes the input side of a transform', () => {
    const schema = z.object({ count: z.string().transform((text) => Number(text)) });
    expect(toolSpecOf({ name: 't', model: { description: '', schema } }).input_schema).toMatchObject({
      properties: { count: { type: 'string' } },
    });
  });
});

describe('systemPrompt', () => {
  it('names the workspace, each tool with its kind, and the kinds that will be refused', () => {
    const prompt = systemPrompt({
      workspace: '/home/me/project',
      tools: [{ name: 'read_file', model: { description: 'Reads a file.\nMore.' }, gate: { kind: 'read' } }],
      denied: ['write'],
    });
    expect(prompt).toContain('Workspace: /home/me/project');
    expect(prompt).toContain('- read_file (read): Reads a file.');
    expect(prompt).not.toContain('More.');
    expect(prompt).toMatch(/not allowed write tools/);
  });
});
