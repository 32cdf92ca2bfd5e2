import path from 'node:path';
import type { Rule } from 'eslint';

// The one-way layers inside main/, as a lint rule (after VS Code's `code-layering`): a file in
// main/<layer>/ may import from its own layer and from the layers it is declared to stand on, never
// from one above it. Some layers stand on others for their types alone: the hosts reach the tools
// and the sessions through main/agent/, so a value import from them (what would run) fails there
// while `import type` passes. The tables live in eslint.config.js, next to the other import rules.

export interface LayerOptions {
  /** The folder whose subfolders are the layers, relative to the lint's working directory. */
  root: string;
  /** Each layer and every layer it may import from (spelled out, not transitive). */
  layers: Record<string, string[]>;
  /** Each layer and the layers it may import types from, never values (`import type`, `export type`). */
  typesFrom?: Record<string, string[]>;
}

/** The part of an import or export declaration this rule reads besides its source: its kind. */
interface ImportShape {
  importKind?: 'type' | 'value';
  exportKind?: 'type' | 'value';
}

/**
 * Whether a declaration brings in types only. `import { type A }` is not: under
 * verbatimModuleSyntax it still loads the module, so only `import type` / `export type` pass.
 */
function typeOnly(node: ImportShape): boolean {
  return node.importKind === 'type' || node.exportKind === 'type';
}

/** The layer a project-relative path belongs to, or null outside the root's subfolders. */
function layerOf(relative: string, root: string): string | null {
  const parts = relative.split(path.sep);
  const rootParts = root.split('/');
  if (parts.length <= rootParts.length + 1) return null; // The root itself, or a file directly in it.
  if (rootParts.some((part, index) => parts[index] !== part)) return null;
  return parts[rootParts.length] ?? null;
}

export const layersRule: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports inside main/ go down the layers only.' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          layers: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          typesFrom: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        },
        required: ['root', 'layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      upward:
        '{{from}}/ may not import from {{to}}/: {{reach}}. Move the shared code down a layer, or pass it in from above.',
      valueFromTypesLayer:
        '{{from}}/ imports only types from {{to}}/: use `import type`, or reach what runs through {{through}}.',
      unknownLayer:
        '{{folder}}/ is not in the layer table of eslint.config.js: add it with the layers it may import from.',
    },
  },
  create(context) {
    const options = context.options[0] as LayerOptions;
    const own = layerOf(path.relative(context.cwd, context.filename), options.root);
    if (own === null) return {};
    const allowed = options.layers[own];
    const typesOnly = options.typesFrom?.[own] ?? [];

    const check = (node: Rule.Node, specifier: unknown, types: boolean): void => {
      if (allowed === undefined || typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = path.relative(context.cwd, path.resolve(path.dirname(context.filename), specifier));
      const layer = layerOf(target, options.root);
      if (layer === null || layer === own || allowed.includes(layer)) return;
      if (typesOnly.includes(layer)) {
        if (types) return;
        // The layers this one may import values from that may themselves import values from `layer`.
        const through = allowed.filter((name) => options.layers[name]?.includes(layer) === true);
        context.report({
          node,
          messageId: 'valueFromTypesLayer',
          data: {
            from: `${options.root}/${own}`,
            to: `${options.root}/${layer}`,
            through:
              through.length > 0 ? through.map((name) => `${options.root}/${name}/`).join(', ') : 'a lower layer',
          },
        });
        return;
      }
      context.report({
        node,
        messageId: 'upward',
        data: {
          from: `${options.root}/${own}`,
          to: `${options.root}/${layer}`,
          reach:
            allowed.length > 0
              ? `it imports only from ${allowed.map((name) => `${options.root}/${name}/`).join(', ')}`
              : `it imports nothing else in ${options.root}/`,
        },
      });
    };

    return {
      Program(node) {
        // A new folder must be placed in the table before its imports can be judged.
        if (allowed === undefined)
          context.report({ node, messageId: 'unknownLayer', data: { folder: `${options.root}/${own}` } });
      },
      ImportDeclaration: (node) => check(node, node.source.value, typeOnly(node as ImportShape)),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, typeOnly(node as ImportShape)),
      ExportAllDeclaration: (node) => check(node, node.source.value, typeOnly(node as ImportShape)),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value, false),
    };
  },
};
