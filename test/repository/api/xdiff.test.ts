import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../shared/repository/queries/diff';
import { xdiff } from '../../../shared/repository/queries/xdiff';

// Each expected text is what `git diff --no-index` (git 2.39, indent heuristic on) prints after
// the file headers for the same two files.
describe("git's line diff", () => {
  it('pairs repeated lines as git does', () => {
    const before = '  return 1;\n  return 1;\nx\n$dollar\n$dollar\n# comment\n\nbeta\n';
    const after = '  return 1;z\n  return 1;\nx\n$dollar\n$dollarz\n$dollar\n# comment\n\nbeta\n';
    expect(unifiedDiff(before, after).text).toBe('@@ -1,7 +1,8 @@\n-  return 1;\n+  return 1;z\n   return 1;\n x\n $dollar\n+$dollarz\n $dollar\n # comment\n \n');
  });

  it('places an inserted block where the indent heuristic prefers it', () => {
    const before = 'function a() {\n  one();\n}\n\nfunction c() {\n  three();\n}\n';
    const after = 'function a() {\n  one();\n}\n\nfunction b() {\n  two();\n}\n\nfunction c() {\n  three();\n}\n';
    expect(unifiedDiff(before, after).text).toBe(
      '@@ -2,6 +2,10 @@ function a() {\n   one();\n }\n \n+function b() {\n+  two();\n+}\n+\n function c() {\n   three();\n }\n',
    );
    const blocks = 'if (x) {\n  a();\n}\nif (y) {\n  b();\n}\n';
    expect(unifiedDiff(blocks, blocks.replace('if (y)', 'if (z) {\n  c();\n}\nif (y)')).text).toBe(
      '@@ -1,6 +1,9 @@\n if (x) {\n   a();\n }\n+if (z) {\n+  c();\n+}\n if (y) {\n   b();\n }\n',
    );
  });

  it('answers the changes of two record lists, and none for equal ones', () => {
    expect(xdiff(['a\n', 'b\n', 'c\n'], ['a\n', 'B\n', 'c\n', 'd\n'])).toEqual([
      { i1: 1, i2: 1, chg1: 1, chg2: 1 },
      { i1: 3, i2: 3, chg1: 0, chg2: 1 },
    ]);
    expect(xdiff(['a\n'], ['a\n'])).toEqual([]);
    expect(xdiff([], ['x\n'])).toEqual([{ i1: 0, i2: 0, chg1: 0, chg2: 1 }]);
  });

  it('diffs large files with many edits quickly', () => {
    const before = Array.from({ length: 20_000 }, (_, i) => `line ${i % 997}\n`);
    const after = before.filter((_, i) => i % 7 !== 0).map((line, i) => (i % 11 === 0 ? `${line}x` : line));
    const started = Date.now();
    const changes = xdiff(before, after);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(changes.reduce((sum, c) => sum + c.chg1, 0)).toBeGreaterThan(2800);
  });
});
