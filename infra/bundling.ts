/**
 * The one bundling configuration of every function, in esbuild's terms: the CDK functions
 * (`constructs/group-function.ts`) are built with it, and so is the bundle benchmark
 * (`test/bench/bundles.ts`), which measures what is deployed.
 *
 * - ESM, minified, for Node.js 22; every dependency, `@aws-sdk/*` included, is bundled, so the SDK
 *   deployed is the one pinned in `package-lock.json` and tested locally.
 * - No source map in the function: a map is several times the code, so it would grow the package
 *   Lambda fetches and unpacks on every cold start, and `--enable-source-maps` would make every
 *   `error.stack` read (each logged error) map positions in the request path. Builds are
 *   deterministic: `npm run bundles` rebuilds the same commit's bundles with their maps
 *   (`.data/bundles/<function>/index.mjs.map`) to decode a logged stack.
 */
export const BUNDLING = {
  format: 'esm',
  target: 'node22',
  platform: 'node',
  mainFields: ['module', 'main'],
  minify: true,
  // ESM output has no `require`; CommonJS dependencies bundled into it still call it.
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
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

/** What a function's bundle may weigh (issue 12): above it, cold starts load and parse noticeably more. */
export const BUNDLE_LIMIT_BYTES = 1024 * 1024;
