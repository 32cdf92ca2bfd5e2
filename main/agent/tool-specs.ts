import { z } from 'zod';
import type { ToolSpec } from '../model/types.ts';
import type { ToolModelSide } from '../tools/tool.ts';

// What the model is told about each tool: its name, description and the JSON Schema of its
// arguments, generated from the same zod schema the registry validates calls against.

interface Described {
  name: string;
  model: Pick<ToolModelSide<unknown, unknown>, 'description' | 'schema' | 'inputJsonSchema'>;
}

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

function specOf({ name, model }: Described): ToolSpec {
  const { description } = model;
  if (model.inputJsonSchema) {
    const { $schema: _dialect, ...given } = model.inputJsonSchema;
    return { name, description, input_schema: { type: 'object', ...given } };
  }
  // The model writes arguments, so it needs the input side of any transform; a part JSON Schema
  // cannot express is left open rather than failing the whole request.
  const generated = z.toJSONSchema(model.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema: _dialect, ...inputSchema } = generated;
  return { name, description, input_schema: { type: 'object', ...inputSchema } };
}

export function toolSpecsOf(tools: readonly Described[]): ToolSpec[] {
  return tools.map(toolSpecOf);
}
