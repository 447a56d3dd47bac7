/**
 * The one bundling configuration of every function, in esbuild's terms: the CDK functions
 * (`constructs/group-function.ts`) are built with {@link functionBuildOptions}, and so is the
 * bundle benchmark (`test/bench/bundles.ts`), which measures what is deployed.
 *
 * - ESM, minified, for Node.js 22; every dependency, `@aws-sdk/*` included, is bundled, so the SDK
 *   deployed is the one pinned in `package-lock.json` and tested locally.
 * - Split into chunks: `index.mjs` (exporting `handler`) and the chunks it imports hold what the
 *   function loads at cold start ({@link loadedAtImport}); a module the function reaches only
 *   through `import()` (the composition root's lazy wiring, `shared/platform/lazy.ts`; rarely used
 *   datasets and parsers) is in chunks of its own, loaded the first time a request needs it.
 *   esbuild places a module by the static import statements that reach it, used or not: a module
 *   that a feature's `index.ts` re-exports is reached by every function loading that index, and
 *   is then loaded at cold start (with every export, when it is also imported dynamically).
 * - No source map in the function: a map is several times the code, so it would grow the package
 *   Lambda fetches and unpacks on every cold start, and `--enable-source-maps` would make every
 *   `error.stack` read (each logged error) map positions in the request path. Builds are
 *   deterministic: `npm run bundles` rebuilds the same commit's bundles with their maps
 *   (`.data/bundles/<function>/maps/`: the chunks' hashed names differ there, their code and
 *   positions do not) to decode a logged stack.
 */
import { builtinModules } from 'node:module';
import type { BuildOptions, Metafile } from 'esbuild';

/**
 * Node.js's built-in modules, wherever the bundled code imports or requires them, are read through
 * `process.getBuiltinModule` (esbuild `alias`es each to a one-line CommonJS module, given as a
 * `data:` URL). An ES module importing a built-in makes Node.js build the built-in's module
 * namespace, which reads every export, lazy ones included: `node:http` (the SDK's HTTP handler
 * imports it) then loads undici (its `WebSocket`) and http2, `node:process` and `node:fs` evaluate
 * their getters. Measured on Node.js 22: importing `node:http` takes ~8× what requiring it does,
 * tens of milliseconds of every cold start. esbuild's CommonJS interop reads an export only when
 * the code uses it. (An `alias`, not a plugin: CDK bundles with esbuild's synchronous API.)
 */
export const BUILTINS_AS_COMMONJS: Record<string, string> = Object.fromEntries(
  builtinModules
    .filter((name) => !name.startsWith('_'))
    .flatMap((name) => {
      // The module's name first: esbuild's metafile names a `data:` input by its first characters.
      const shim = `data:text/javascript,var id=${JSON.stringify(`node:${name}`)};module.exports=process.getBuiltinModule(id)`;
      return name.startsWith('node:') ? [[name, shim]] : [[name, shim], [`node:${name}`, shim]];
    }),
);

export const BUNDLING = {
  format: 'esm',
  target: 'node22',
  platform: 'node',
  mainFields: ['module', 'main'],
  minify: true,
  // ESM output has no `require`; CommonJS dependencies bundled into it still call it. esbuild puts
  // the banner at the top of every output file, chunks included (each module has its own scope).
  banner: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);",
  /**
   * Left out of the bundles: the SDK's credential sources other than environment variables. The
   * default chain reads the environment first and Lambda always sets it (the function role's
   * keys), so these are never loaded there; the SDK imports them lazily (`await import`), so
   * leaving them out costs nothing unless reached. About 90 KB of every bundle (STS and SSO clients).
   */
  external: [
    '@aws-sdk/credential-provider-ini',
    '@aws-sdk/credential-provider-sso',
    '@aws-sdk/credential-provider-process',
    '@aws-sdk/credential-provider-web-identity',
    '@aws-sdk/credential-provider-http',
    '@smithy/credential-provider-imds',
  ],
} as const;

/** The file Lambda loads (`index.handler`), at the top of the function's code. */
export const FUNCTION_ENTRY_FILE = 'index.mjs';

/**
 * esbuild's options for one function: `entry` (a handler module exporting `handler`) built into
 * `outdir/index.mjs` plus `outdir/chunks/*.mjs`, with the metafile (what each output holds and imports).
 * @example
 * buildSync(functionBuildOptions('functions/users/handler.ts', outputDir));
 */
export function functionBuildOptions(entry: string, outdir: string): BuildOptions & { metafile: true } {
  return {
    ...BUNDLING,
    mainFields: [...BUNDLING.mainFields],
    external: [...BUNDLING.external],
    banner: { js: BUNDLING.banner },
    bundle: true,
    entryPoints: { index: entry },
    outdir,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // `.mjs`: Node.js loads them as ES modules with no package.json beside them.
    outExtension: { '.js': '.mjs' },
    sourcemap: false,
    metafile: true,
    alias: BUILTINS_AS_COMMONJS,
    logLevel: 'warning',
  };
}

/**
 * The output files a fresh process loads when it imports a function's build (`metafile` of
 * {@link functionBuildOptions}: one entry, `index.mjs`): the entry and every chunk reachable from
 * it through static imports; chunks reached only through `import()` are not loaded then. With
 * their total size.
 */
export function loadedAtImport(metafile: Metafile): { files: string[]; bytes: number } {
  // The function's entry, `<outdir>/index.mjs` (modules reached through `import()` are entry
  // points of their own too, under `chunks/`).
  const entry = Object.keys(metafile.outputs).find((file) => file === FUNCTION_ENTRY_FILE || file.endsWith(`/${FUNCTION_ENTRY_FILE}`))!;
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file) || !metafile.outputs[file]) return;
    files.add(file);
    for (const imported of metafile.outputs[file].imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(entry);
  return { files: [...files], bytes: [...files].reduce((sum, file) => sum + metafile.outputs[file].bytes, 0) };
}

/** What a function's code loaded at cold start may weigh (issue 12): above it, cold starts load and parse noticeably more. */
export const BUNDLE_LIMIT_BYTES = 1024 * 1024;
