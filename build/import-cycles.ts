import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';

// Import cycles inside one folder of sources (main/tools/ is kept free of them): a module that
// loads, through its imports, back into itself sees the other's bindings before they are set, and
// its order of evaluation depends on which file was imported first. The graph is the imports that
// load a module: `import type` / `export type` are erased (verbatimModuleSyntax) and load nothing,
// and `import('…')` loads later, when called; both are left out. Tests are not part of it.

/** One module's static imports of files inside the folder, as absolute paths. */
async function loadedImports(file: string, folder: string): Promise<string[]> {
  const text = await readFile(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) specifier = statement.moduleSpecifier;
    if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), specifier.text);
    if (target.startsWith(folder + path.sep)) found.push(target);
  }
  return found;
}

async function sourcesUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    if (entry.name.endsWith('.d.ts')) continue;
    found.push(path.join(entry.parentPath, entry.name));
  }
  return found.sort();
}

/**
 * The import cycles among the sources under `folder`: each is the files of one strongly connected
 * part of the graph (Tarjan), relative to `folder` and sorted. Empty when there is none.
 */
export async function importCycles(folder: string): Promise<string[][]> {
  const root = path.resolve(folder);
  const files = await sourcesUnder(root);
  const graph = new Map<string, string[]>();
  for (const file of files) graph.set(file, await loadedImports(file, root));

  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    lowest.set(file, order.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue; // A file that is not there is the type checker's to report.
      if (!order.has(next)) {
        visit(next);
        lowest.set(file, Math.min(lowest.get(file) ?? 0, lowest.get(next) ?? 0));
      } else if (onStack.has(next)) {
        lowest.set(file, Math.min(lowest.get(file) ?? 0, order.get(next) ?? 0));
      }
    }
    if (lowest.get(file) !== order.get(file)) return;
    const part: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      part.push(member);
      if (member === file) break;
    }
    const selfImport = graph.get(file)?.includes(file) === true;
    if (part.length > 1 || selfImport) cycles.push(part.map((member) => path.relative(root, member)).sort());
  };
  for (const file of files) if (!order.has(file)) visit(file);
  return cycles;
}
