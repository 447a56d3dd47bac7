import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { architectureDiagram, featureEdges } from '../../infra/architecture';

/** The cycles of a directed graph given by its edges (empty when it is a DAG). */
function cycles(edges: Array<[string, string]>): string[][] {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const found: string[][] = [];
  const visit = (node: string, path: string[]) => {
    if (path.includes(node)) {
      found.push([...path.slice(path.indexOf(node)), node]);
      return;
    }
    for (const to of next.get(node) ?? []) visit(to, [...path, node]);
  };
  for (const node of next.keys()) visit(node, []);
  return found;
}

describe('the house drawing', () => {
  // One walk of the import graph (seconds) serves every check.
  let edges: Array<[string, string]>;
  beforeAll(async () => {
    edges = await featureEdges();
  });

  it('has no circle between folders at run time (features, platform, catalog, Lambda entries)', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('finds a circle when there is one (the check itself can fail)', () => {
    expect(cycles([['a', 'b'], ['b', 'c'], ['c', 'a']])).toContainEqual(['a', 'b', 'c', 'a']);
  });

  it('is the one in the README, kept true (run `npm run architecture` and paste it when it changes)', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const drawn = /<!-- architecture:start -->\n([\s\S]*?)\n<!-- architecture:end -->/.exec(readme)?.[1];
    expect(drawn).toBe(await architectureDiagram(edges));
  });

  it('keeps the platform free of features', () => {
    expect(edges.filter(([from]) => from === 'platform')).toEqual([]);
  });
});
