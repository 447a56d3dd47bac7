/**
 * The house drawing: which feature imports which at run time, as a Mermaid flowchart, computed
 * by dependency-cruiser from the code (`npm run architecture` prints it). The README's
 * architecture section carries the same drawing between markers, and a unit test fails when the
 * two differ, so the drawing stays true.
 */
import { cruise, type ICruiseResult } from 'dependency-cruiser';

/**
 * The folder a module belongs to in the drawing: a feature, the platform, the catalog, the Lambda
 * entries. A feature's `catalog.ts` and `abilities.ts` are declarations that the catalog and the
 * policy (auth) assemble: they are drawn as parts of those.
 */
function unitOf(path: string): string | undefined {
  if (/^shared\/[^/]+\/catalog\.ts$/.test(path) || path === 'shared/catalog.ts') return 'catalog';
  if (/^shared\/[^/]+\/abilities\.ts$/.test(path)) return 'auth';
  const feature = /^shared\/([^/]+)\//.exec(path)?.[1];
  if (feature) return feature;
  if (path.startsWith('functions/')) return 'functions';
  return undefined;
}

/** The edges between folders, run-time imports only (type-only imports vanish when compiled). */
export async function featureEdges(): Promise<Array<[string, string]>> {
  const { output } = await cruise(['shared', 'functions'], {
    tsPreCompilationDeps: false,
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: 'node_modules' },
  });
  const edges = new Set<string>();
  for (const module of (output as ICruiseResult).modules) {
    const from = unitOf(module.source);
    if (!from) continue;
    for (const dependency of module.dependencies) {
      const to = unitOf(dependency.resolved);
      if (to && to !== from) edges.add(`${from} ${to}`);
    }
  }
  return [...edges].sort().map((edge) => edge.split(' ') as [string, string]);
}

/**
 * The Mermaid flowchart of {@link featureEdges} (or of `edges` already computed) between features. Left out, to keep it legible:
 * the Lambda entries (`functions/`, which import every feature) and the edges to the platform
 * (which every feature imports, and which imports none).
 */
export async function architectureDiagram(edges?: Array<[string, string]>): Promise<string> {
  const lines = (edges ?? (await featureEdges()))
    .filter(([from, to]) => from !== 'functions' && to !== 'platform')
    .map(([from, to]) => `  ${from} --> ${to}`);
  return ['```mermaid', 'flowchart TD', ...lines, '```'].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await architectureDiagram());
}
