/**
 * package.json declares which of our modules have side effects (`sideEffects`): esbuild then drops
 * every other module none of whose exports a function uses, with the packages it imports (sshpk,
 * for one, leaves every function but the users'). A module that registers something when it is
 * loaded (a top-level call such as `readYourWrites(...)` or `registerHookEventForms(...)`) must be
 * listed, or a bundle that needs the registration but none of the module's exports would silently
 * lose it. This test finds every such module from the source and compares with the list, both ways.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Every `.ts` file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Whether a module does something when loaded: a top-level statement that is not a declaration, an import or an export. */
function hasTopLevelEffects(file: string): boolean {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  return source.statements.some((statement) => ts.isExpressionStatement(statement) || ts.isIfStatement(statement) || ts.isForOfStatement(statement) || ts.isForStatement(statement));
}

describe('package.json sideEffects', () => {
  const declared: string[] = JSON.parse(readFileSync('package.json', 'utf8')).sideEffects;

  it('lists exactly the shared modules that do something when loaded (functions/ are entry points: all listed)', () => {
    // Act
    const effectful = sources('shared').filter(hasTopLevelEffects).map((file) => `./${file}`).sort();

    // Assess
    expect(declared.filter((entry) => entry.startsWith('./shared/')).sort()).toEqual(effectful);
    expect(declared).toContain('./functions/**');
  });
});
