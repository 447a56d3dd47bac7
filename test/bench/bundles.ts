/**
 * `npm run bundles` (also the last part of `npm run bench`): every function's bundle built exactly
 * as deployed (`infra/bundling.ts`), with its size and the time a fresh Node.js process takes to
 * import it (a cold start's module loading, what Lambda's init phase spends on our code), beside
 * the floor measured in the same run: a bundle holding only what any handler needs (the DynamoDB
 * document client), imported the same way. Also the process's resident memory after the import,
 * the base each function's memory size adds its requests to.
 *
 * Bundles and their source maps are written to `.data/bundles/<function>/` (the maps decode a
 * stack logged by a deployed function of the same commit: builds are deterministic).
 *
 * Environment: `BUNDLE_IMPORTS` imports per bundle (default 5; the median is shown).
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { BUNDLE_LIMIT_BYTES, BUNDLING } from '../../infra/bundling';
import { alignedTable, intEnv, percentile, progress, round, runBench } from './support';

const run = promisify(execFile);
const OUT = '.data/bundles';
/** What importing a function's bundle may take (issue 12). */
const IMPORT_LIMIT_MS = 100;
/** The floor: what every handler imports at least. */
const FLOOR_SOURCE = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { PK: 'a', SK: 'b' } }));
`;
/** Measures one import in a fresh process: milliseconds, and resident memory after it (MB). */
const PROBE = `
const started = performance.now();
await import(process.argv[1]);
console.log(JSON.stringify({ ms: performance.now() - started, rssMb: process.memoryUsage().rss / 1048576 }));
`;

interface Figures {
  name: string;
  bytes: number;
  importMs: number;
  rssMb: number;
}

/** Builds `entry` as deployed into `.data/bundles/<name>/index.mjs` (with its map beside it). */
async function bundle(name: string, entry: { path: string } | { contents: string }): Promise<string> {
  const outfile = join(OUT, name, 'index.mjs');
  await build({
    ...BUNDLING,
    mainFields: [...BUNDLING.mainFields],
    external: [...BUNDLING.external],
    banner: { js: BUNDLING.banner },
    bundle: true,
    sourcemap: 'external',
    outfile,
    logLevel: 'error',
    ...('path' in entry ? { entryPoints: [entry.path] } : { stdin: { contents: entry.contents, resolveDir: process.cwd(), loader: 'ts' } }),
  });
  return outfile;
}

/** The median import of `file` over `runs` fresh processes (Lambda-like environment variables set). */
async function measure(name: string, file: string, runs: number): Promise<Figures> {
  const samples: Array<{ ms: number; rssMb: number }> = [];
  const env = { ...process.env, TABLE_NAME: 'bench', BUCKET_NAME: 'bench', EXTERNAL_URL: 'https://example.com', AWS_REGION: 'us-east-1', NODE_OPTIONS: '' };
  for (let i = 0; i < runs; i++) {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', PROBE, join(process.cwd(), file)], { env });
    samples.push(JSON.parse(stdout.trim().split('\n').at(-1)!));
  }
  const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 0.5);
  return { name, bytes: (await stat(file)).size, importMs: median(samples.map((s) => s.ms)), rssMb: median(samples.map((s) => s.rssMb)) };
}

runBench(async () => {
  const runs = intEnv('BUNDLE_IMPORTS', 5);
  await mkdir(OUT, { recursive: true });
  const groups = (await readdir('functions', { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();

  progress('bundling the floor');
  const floor = await measure('(floor)', await bundle('_floor', { contents: FLOOR_SOURCE }), runs);
  const figures: Figures[] = [];
  for (const [i, group] of groups.entries()) {
    progress(`bundling ${group} (${i + 1}/${groups.length})`);
    figures.push(await measure(group, await bundle(group, { path: `functions/${group}/handler.ts` }), runs));
  }

  const kb = (bytes: number) => String(Math.round(bytes / 1024));
  const rows = [floor, ...figures].map((f) => [
    f.name,
    kb(f.bytes),
    f === floor ? '' : f.bytes <= BUNDLE_LIMIT_BYTES ? 'PASS' : 'FAIL',
    String(round(f.importMs, 1)),
    f === floor ? '' : String(round(f.importMs / floor.importMs, 1)),
    f === floor ? '' : f.importMs <= IMPORT_LIMIT_MS ? 'PASS' : 'FAIL',
    String(Math.round(f.rssMb)),
  ]);
  const table = alignedTable(['function', 'KB', `≤ ${kb(BUNDLE_LIMIT_BYTES)} KB`, 'import ms (p50)', '× floor', `≤ ${IMPORT_LIMIT_MS} ms`, 'RSS MB'], rows);
  process.stdout.write(`\n## Function bundles (as deployed; import in a fresh process, median of ${runs})\n\n${table}\n`);
  await writeFile(join(OUT, 'figures.json'), JSON.stringify({ floor, figures }, null, 2));
  return 0;
});
