import { z } from 'zod';
import type { ToolModelSide } from '../tool.ts';

// TypeScript declarations of `tools.*` for the run_code description, generated from each tool's
// zod schemas through JSON Schema (zod 4's z.toJSONSchema): the arguments from the input side
// (defaults make a field optional), the resolved value from `resultSchema` when the tool has one.
// Only what a model needs to call a tool correctly is kept: names, types, optionality,
// descriptions and defaults.

type Schema = Record<string, unknown>;

export interface DeclaredTool {
  name: string;
  /** The arguments' own JSON Schema (an MCP server's tool) is used instead of one generated from `schema`. */
  model: Pick<ToolModelSide<unknown, unknown>, 'description' | 'schema' | 'inputJsonSchema' | 'resultSchema'>;
}

export function toolDeclarations(tools: readonly DeclaredTool[]): string {
  const members = tools.map(({ name, model }) => {
    const args = model.inputJsonSchema ? declaredJson(model.inputJsonSchema) : declaredType(model.schema, 'input');
    const result = model.resultSchema ? declaredType(model.resultSchema, 'output') : 'unknown';
    return `${docComment(firstParagraph(model.description), '  ')}  ${propertyKey(name)}(args: ${args}): Promise<${result}>;`;
  });
  return `declare const tools: {\n${members.join('\n')}\n};`;
}

function declaredType(schema: DeclaredTool['model']['schema'], io: 'input' | 'output'): string {
  const json = toJsonSchema(schema, io);
  return json ? typeOf(json, '  ', { defs: defsOf(json), expanding: new Set() }, 0) : 'unknown';
}

function declaredJson(json: Schema): string {
  return typeOf(json, '  ', { defs: defsOf(json), expanding: new Set() }, 0);
}

function toJsonSchema(schema: DeclaredTool['model']['schema'], io: 'input' | 'output'): Schema | null {
  try {
    const json: unknown = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
    return isSchema(json) ? json : null;
  } catch {
    return null;
  }
}

/** Nesting past this depth is declared as `unknown`: the model needs the shape, not every level. */
const MAX_DEPTH = 12;

interface Definitions {
  defs: Schema;
  /** References being expanded on the current path: meeting one again means recursion. */
  expanding: Set<string>;
}

function typeOf(schema: Schema, indent: string, defs: Definitions, depth: number): string {
  if (depth > MAX_DEPTH) return 'unknown';
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const target = ref.startsWith('#/$defs/') ? defs.defs[ref.slice('#/$defs/'.length)] : undefined;
    if (!isSchema(target) || defs.expanding.has(ref)) return 'unknown';
    defs.expanding.add(ref);
    const type = typeOf(target, indent, defs, depth + 1);
    defs.expanding.delete(ref);
    return type;
  }
  if ('const' in schema) return literal(schema['const']);
  const choices = schema['enum'];
  if (Array.isArray(choices)) return choices.map(literal).join(' | ') || 'never';
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options))
      return union(options.filter(isSchema).map((option) => typeOf(option, indent, defs, depth + 1)));
  }
  const all = schema['allOf'];
  if (Array.isArray(all))
    return (
      all
        .filter(isSchema)
        .map((part) => typeOf(part, indent, defs, depth + 1))
        .join(' & ') || 'unknown'
    );
  const type = schema['type'];
  if (Array.isArray(type))
    return union(
      type
        .filter((t): t is string => typeof t === 'string')
        .map((t) => typeOf({ ...schema, type: t }, indent, defs, depth + 1)),
    );
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const items = schema['items'];
      if (Array.isArray(schema['prefixItems'])) {
        return `[${(schema['prefixItems'] as unknown[])
          .filter(isSchema)
          .map((item) => typeOf(item, indent, defs, depth + 1))
          .join(', ')}]`;
      }
      return isSchema(items) ? `${wrap(typeOf(items, indent, defs, depth + 1))}[]` : 'unknown[]';
    }
    case 'object':
      return objectType(schema, indent, defs, depth);
    default:
      return 'unknown';
  }
}

function objectType(schema: Schema, indent: string, defs: Definitions, depth: number): string {
  const properties = isSchema(schema['properties']) ? schema['properties'] : {};
  const required = new Set(Array.isArray(schema['required']) ? schema['required'] : []);
  const inner = `${indent}  `;
  const lines = Object.entries(properties).map(([key, value]) => {
    const property = isSchema(value) ? value : {};
    const optional = required.has(key) ? '' : '?';
    return `${docComment(propertyNote(property), inner)}${inner}${propertyKey(key)}${optional}: ${typeOf(property, inner, defs, depth + 1)};`;
  });
  const extra = schema['additionalProperties'];
  if (isSchema(extra)) lines.push(`${inner}[key: string]: ${typeOf(extra, inner, defs, depth + 1)};`);
  else if (extra === true || (Object.keys(properties).length === 0 && extra === undefined))
    lines.push(`${inner}[key: string]: unknown;`);
  if (lines.length === 0) return '{}';
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function propertyNote(property: Schema): string {
  const parts: string[] = [];
  if (typeof property['description'] === 'string') parts.push(property['description']);
  if ('default' in property) parts.push(`Default: ${JSON.stringify(property['default'])}.`);
  return parts.join(' ');
}

function docComment(text: string, indent: string): string {
  const clean = text.trim().replaceAll('*/', '*\\/');
  if (!clean) return '';
  const lines = clean.split('\n');
  if (lines.length === 1) return `${indent}/** ${clean} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

function firstParagraph(text: string): string {
  return text.trim().split(/\n\s*\n/)[0] ?? '';
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  return unique.length === 0 ? 'unknown' : unique.join(' | ');
}

function wrap(type: string): string {
  return /[|&]/.test(type) && !type.startsWith('{') ? `(${type})` : type;
}

function literal(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

function propertyKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

function defsOf(schema: Schema): Schema {
  const defs = schema['$defs'];
  return isSchema(defs) ? defs : {};
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
