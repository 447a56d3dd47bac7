import { defineConfig } from 'vitest/config';

/**
 * Two projects: fast unit tests (including CDK assertions and aws-sdk-client-mock fault paths),
 * and HTTP integration tests against a base URL. The integration project's global setup starts
 * the local runtime (DynamoDB Local + s3rver + API) unless API_URL points at a deployment.
 */
export default defineConfig({
  test: {
    // The JSON report feeds the one-line summary printed by .ci/run.
    reporters: ['default', ['json', { outputFile: '.data/test-report.json' }]],
    // Three test files at once: vitest's default on a 2-core machine is one, and the integration
    // files mostly wait on HTTP, DynamoDB Local and git, so running them side by side (they share
    // one runtime and never assume an empty table) takes the suite from ~14 to ~10 minutes there.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'], exclude: ['test/**/*.integration.test.ts'],
          testTimeout: 60_000,
          // Synthesizing the CDK stack once per file (beforeAll) takes seconds on a busy machine.
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.integration.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
