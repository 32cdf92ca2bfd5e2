import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';

// What a module loads as it starts: the sources and packages its static imports reach, one after
// another. `import type` / `export type` load nothing and `import('…')` loads later, when called;
// both are left out (as in import-cycles.ts). An inline `import { type X }` still loads its module.

/** Each package a source reaches as it loads (its name as imported, `zod`, `@scope/name/sub.js`), with the chain of sources that leads there. */
export async function startupPackages(entry: string): Promise<Map<string, string[]>> {
  const start = path.resolve(entry);
  const reachedFrom = new Map<string, string | null>([[start, null]]);
  const packages = new Map<string, string[]>();
  const chain = (file: string) => {
    const files: string[] = [];
    for (let at: string | null | undefined = file; at; at = reachedFrom.get(at)) files.unshift(at);
    return files;
  };
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const specifier of await loadedSpecifiers(file)) {
      if (!specifier.startsWith('.')) {
        if (!packages.has(specifier) && !specifier.startsWith('node:')) packages.set(specifier, chain(file));
        continue;
      }
      const target = path.resolve(path.dirname(file), specifier);
      if (reachedFrom.has(target) || !existsSync(target)) continue;
      reachedFrom.set(target, file);
      queue.push(target);
    }
  }
  return packages;
}

async function loadedSpecifiers(file: string): Promise<string[]> {
  if (!/\.[cm]?[jt]sx?$/.test(file)) return [];
  const source = ts.createSourceFile(file, await readFile(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) specifier = statement.moduleSpecifier;
    if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) specifier = statement.moduleSpecifier;
    if (specifier && ts.isStringLiteral(specifier)) found.push(specifier.text);
  }
  return found;
}
