import { z } from 'zod';
import type { ToolSpec } from '../model/types.ts';
import type { ToolDefinition } from '../tools/tool.ts';

// What the model is told about each tool: its name, description and the JSON Schema of its
// arguments, generated from the same zod schema the registry validates calls against.

type Described = Pick<ToolDefinition<unknown, unknown>, 'name' | 'description' | 'schema' | 'inputJsonSchema'>;

/** A definition never changes, so its spec is made once (the turn asks for the list at every step). */
const made = new WeakMap<Described, ToolSpec>();

export function toolSpecOf(tool: Described): ToolSpec {
  let spec = made.get(tool);
  if (!spec) {
    spec = specOf(tool);
    made.set(tool, spec);
  }
  return spec;
}

function specOf(tool: Described): ToolSpec {
  if (tool.inputJsonSchema) {
    const { $schema: _dialect, ...given } = tool.inputJsonSchema;
    return { name: tool.name, description: tool.description, input_schema: { type: 'object', ...given } };
  }
  // The model writes arguments, so it needs the input side of any transform; a part JSON Schema
  // cannot express is left open rather than failing the whole request.
  const generated = z.toJSONSchema(tool.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema: _dialect, ...inputSchema } = generated;
  return { name: tool.name, description: tool.description, input_schema: { type: 'object', ...inputSchema } };
}

export function toolSpecsOf(tools: readonly Described[]): ToolSpec[] {
  return tools.map(toolSpecOf);
}
