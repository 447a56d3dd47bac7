/**
 * `npm run bundles` (also the last part of `npm run bench`): every function built exactly as
 * deployed (`infra/bundling.ts`: split into `index.mjs` and chunks), with what it loads at cold
 * start (the entry and every chunk it imports statically; chunks reached only through `import()`
 * load when a request first needs them), the whole asset, and the time a fresh Node.js process
 * takes to import the entry (a cold start's module loading, what Lambda's init phase spends on
 * our code), beside the floor measured in the same run: a bundle holding only what any handler
 * needs (the DynamoDB document client), imported the same way. Also the process's resident memory
 * after the import, the base each function's memory size adds its requests to.
 *
 * Each function lands in `.data/bundles/<function>/` as deployed, with esbuild's metafile
 * (`metafile.json`: what each output holds and imports) and, in `maps/`, the same build with
 * source maps to decode a stack logged by a deployed function of the same commit (builds are
 * deterministic; there the chunks' hashed names differ, their code and positions do not).
 *
 * Environment: `BUNDLE_IMPORTS` imports per bundle (default 5; the median is shown).
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { BUNDLE_LIMIT_BYTES, FUNCTION_ENTRY_FILE, functionBuildOptions, loadedAtImport } from '../../infra/bundling';
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
  /** The entry and the chunks it imports statically: what a cold start loads. */
  loadedBytes: number;
  /** Every file of the function's code. */
  totalBytes: number;
  importMs: number;
  rssMb: number;
}

interface Built {
  entry: string;
  loadedBytes: number;
  totalBytes: number;
}

/** Builds `entry` as deployed into `.data/bundles/<name>/` (and again with maps into its `maps/`). */
async function bundle(name: string, entry: string): Promise<Built> {
  const outdir = join(OUT, name);
  await rm(outdir, { recursive: true, force: true });
  const { metafile } = await build(functionBuildOptions(entry, outdir));
  await build({ ...functionBuildOptions(entry, join(outdir, 'maps')), sourcemap: 'external' });
  await writeFile(join(outdir, 'metafile.json'), JSON.stringify(metafile));
  const { bytes } = loadedAtImport(metafile);
  return { entry: join(outdir, FUNCTION_ENTRY_FILE), loadedBytes: bytes, totalBytes: Object.values(metafile.outputs).reduce((sum, output) => sum + output.bytes, 0) };
}

/** The median import of `built`'s entry over `runs` fresh processes (Lambda-like environment variables set). */
async function measure(name: string, built: Built, runs: number): Promise<Figures> {
  const samples: Array<{ ms: number; rssMb: number }> = [];
  const env = { ...process.env, TABLE_NAME: 'bench', BUCKET_NAME: 'bench', EXTERNAL_URL: 'https://example.com', AWS_REGION: 'us-east-1', NODE_OPTIONS: '' };
  for (let i = 0; i < runs; i++) {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', PROBE, join(process.cwd(), built.entry)], { env });
    samples.push(JSON.parse(stdout.trim().split('\n').at(-1)!));
  }
  const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 0.5);
  return { name, loadedBytes: built.loadedBytes, totalBytes: built.totalBytes, importMs: median(samples.map((s) => s.ms)), rssMb: median(samples.map((s) => s.rssMb)) };
}

runBench(async () => {
  const runs = intEnv('BUNDLE_IMPORTS', 5);
  await mkdir(OUT, { recursive: true });
  const groups = (await readdir('functions', { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();

  progress('bundling the floor');
  const floorDir = join(OUT, '_floor');
  await mkdir(floorDir, { recursive: true });
  await writeFile(join(floorDir, 'floor.ts'), FLOOR_SOURCE);
  const floor = await measure('(floor)', await bundle('_floor/out', join(floorDir, 'floor.ts')), runs);
  const figures: Figures[] = [];
  for (const [i, group] of groups.entries()) {
    progress(`bundling ${group} (${i + 1}/${groups.length})`);
    figures.push(await measure(group, await bundle(group, `functions/${group}/handler.ts`), runs));
  }

  const kb = (bytes: number) => String(Math.round(bytes / 1024));
  const rows = [floor, ...figures].map((f) => [
    f.name,
    kb(f.loadedBytes),
    kb(f.totalBytes),
    f === floor ? '' : f.loadedBytes <= BUNDLE_LIMIT_BYTES ? 'PASS' : 'FAIL',
    String(round(f.importMs, 1)),
    f === floor ? '' : String(round(f.importMs / floor.importMs, 1)),
    f === floor ? '' : f.importMs <= IMPORT_LIMIT_MS ? 'PASS' : 'FAIL',
    String(Math.round(f.rssMb)),
  ]);
  const table = alignedTable(['function', 'KB at import', 'KB in all', `≤ ${kb(BUNDLE_LIMIT_BYTES)} KB`, 'import ms (p50)', '× floor', `≤ ${IMPORT_LIMIT_MS} ms`, 'RSS MB'], rows);
  process.stdout.write(`\n## Function bundles (as deployed: KB loaded at import, entry and static chunks; import in a fresh process, median of ${runs})\n\n${table}\n`);
  await writeFile(join(OUT, 'figures.json'), JSON.stringify({ floor, figures }, null, 2));
  return 0;
});
