import path from 'node:path';
import type { Rule } from 'eslint';

// The one-way layers inside main/, as a lint rule (after VS Code's `code-layering`): a file in
// main/<layer>/ may import from its own layer and from the layers it is declared to stand on, never
// from one above it. The table itself lives in eslint.config.js, next to the other import rules.

export interface LayerOptions {
  /** The folder whose subfolders are the layers, relative to the lint's working directory. */
  root: string;
  /** Each layer and every layer it may import from (spelled out, not transitive). */
  layers: Record<string, string[]>;
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
        },
        required: ['root', 'layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      upward:
        '{{from}}/ may not import from {{to}}/: {{reach}}. Move the shared code down a layer, or pass it in from above.',
      unknownLayer:
        '{{folder}}/ is not in the layer table of eslint.config.js: add it with the layers it may import from.',
    },
  },
  create(context) {
    const options = context.options[0] as LayerOptions;
    const own = layerOf(path.relative(context.cwd, context.filename), options.root);
    if (own === null) return {};
    const allowed = options.layers[own];

    const check = (node: Rule.Node, specifier: unknown): void => {
      if (allowed === undefined || typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = path.relative(context.cwd, path.resolve(path.dirname(context.filename), specifier));
      const layer = layerOf(target, options.root);
      if (layer === null || layer === own || allowed.includes(layer)) return;
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
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
