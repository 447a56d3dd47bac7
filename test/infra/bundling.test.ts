/**
 * Issue 12's cold start: functions built as deployed (`infra/bundling.ts`, split into `index.mjs`
 * and chunks) leave what they rarely need (CI's YAML parser, the emoji names, the SSH key parser,
 * linguist's table, the S3 SDK) to chunks loaded on first use. That what each loads at import stays under
 * `BUNDLE_LIMIT_BYTES` is checked by every build (`cdk synth`, part of `npm test`:
 * `infra/constructs/group-function.ts`). Built in memory (`write: false`); `npm run bundles`
 * prints the figures.
 */
import { execFile } from 'node:child_process';
import { isBuiltin } from 'node:module';
import { promisify } from 'node:util';
import { build, type Metafile, type OutputFile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { BUNDLING, functionBuildOptions, loadedAtImport } from '../../infra/bundling';

const OUTDIR = '/tmp/bundling-test';
type Built = { metafile: Metafile; files: OutputFile[]; loaded: { files: string[]; bytes: number } };
const builds = new Map<string, Promise<Built>>();

/** Internal: one function built as deployed, in memory (once per file). */
function built(group: string): Promise<Built> {
  if (!builds.has(group)) builds.set(group, buildOf(group));
  return builds.get(group)!;
}

async function buildOf(group: string): Promise<Built> {
  const result = await build({ ...functionBuildOptions(`functions/${group}/handler.ts`, `${OUTDIR}/${group}`), write: false });
  return { metafile: result.metafile, files: result.outputFiles, loaded: loadedAtImport(result.metafile) };
}

/** Internal: whether any input under `path` has code in `outputs`. */
const holds = (metafile: Metafile, outputs: string[], path: string) =>
  outputs.some((output) => Object.entries(metafile.outputs[output].inputs).some(([input, { bytesInOutput }]) => input.includes(path) && bytesInOutput > 0));

describe('function bundles', () => {
  it('leaves the rarely needed datasets and parsers to chunks loaded on first use', async () => {
    // Act
    const users = await built('users');
    const issues = await built('issues');
    const repository = await built('repository');
    const projects = await built('projects');

    // Assess: out of what a cold start loads, yet in the function's code
    for (const [{ metafile, loaded }, path] of [
      [users, 'node_modules/sshpk/'],
      [issues, 'node_modules/emojibase-data/'],
      [issues, 'node_modules/yaml/'],
      [repository, 'node_modules/linguist-languages/'],
      [projects, 'node_modules/yaml/'],
      [projects, 'shared/merge-requests/commands/push.ts'],
      [projects, 'shared/repository/lifecycle.ts'],
      // The S3 SDK: imported when an object is first read or written (`shared/platform/s3/client.ts`).
      [issues, 'node_modules/@aws-sdk/client-s3/'],
      [users, 'node_modules/@aws-sdk/client-s3/'],
      [projects, 'node_modules/@aws-sdk/client-s3/'],
      // Multipart bodies and the webhook secrets' key: on the first request that needs them.
      [issues, 'node_modules/busboy/'],
      [issues, 'node_modules/@aws-sdk/client-secrets-manager/'],
    ] as const) {
      expect(holds(metafile, loaded.files, path), `${path} loaded at start`).toBe(false);
      expect(holds(metafile, Object.keys(metafile.outputs), path), `${path} in the code`).toBe(true);
    }
  });

  it('gives every chunk the banner that defines require, and no source map', async () => {
    // Act
    const { files } = await built('ci_jobs');

    // Assess
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) {
      expect(file.path).toMatch(/\.mjs$/);
      expect(file.text.startsWith(BUNDLING.banner), file.path).toBe(true);
      expect(file.text).not.toContain('sourceMappingURL');
    }
  });

  it('reads built-in modules without building their ES module namespaces (no undici, no http2 at cold start)', async () => {
    // Prepare: one function written out as deployed
    const outdir = `${OUTDIR}/written/users`;
    const { metafile } = await build(functionBuildOptions('functions/users/handler.ts', outdir));
    const probe = `const before = new Set(process.moduleLoadList); await import(${JSON.stringify(`${outdir}/index.mjs`)});
      console.log(JSON.stringify(process.moduleLoadList.filter((name) => !before.has(name))));`;

    // Act
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', probe]);
    const loaded = JSON.parse(stdout) as string[];

    // Assess: the SDK's HTTP handler is there, what only an ES module import of node:http would load is not
    expect(loaded).toContain('NativeModule http');
    expect(loaded.filter((name) => /undici|http2/.test(name))).toEqual([]);
    const esmBuiltins = Object.values(metafile.outputs).flatMap(({ imports }) =>
      imports.filter(({ path, kind }) => kind === 'import-statement' && isBuiltin(path)).map(({ path }) => path),
    );
    expect(esmBuiltins).toEqual([]);
  });
});
