import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order test files start in: longest first, across both projects, so that the slow files
 * (git protocol, concurrency, a runtime of their own) do not start last and leave one worker busy
 * while the others idle. vitest orders by the durations of the last run it cached, which a fresh
 * clone (CI) does not have: there it falls back to file size, a poor guess for these files. This
 * reads `test/durations.json` (seconds per file, from a full run: `npm run test:durations`),
 * falls back to vitest's cache, then runs files that neither knows first, as vitest does.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const recorded: Record<string, number> = JSON.parse(readFileSync('test/durations.json', 'utf8'));
    const seconds = (spec: TestSpecification): number => {
      const cached = this.ctx.cache.getTestSpecificationResult(spec)?.duration;
      return recorded[relative(spec.project.config.root, spec.moduleId)] ?? (cached === undefined ? Infinity : cached / 1000);
    };
    return [...files].sort((a, b) => seconds(b) - seconds(a));
  }
}

/**
 * Two projects: fast unit tests (including CDK assertions and aws-sdk-client-mock fault paths),
 * and HTTP integration tests against a base URL. The integration project's global setup starts
 * the local runtime (DynamoDB Local + s3rver + API) unless API_URL points at a deployment.
 */
/** Unit files that replace modules with `vi.mock` (run isolated: a shared module graph may hold the real ones). */
const MODULE_MOCKING = ['test/hooks/delivery-handler.test.ts', 'test/platform/observability.test.ts', 'test/platform/bootstrap-handler.test.ts'];
// Synthesizing the CDK stack once per file (beforeAll) takes seconds on a busy machine.
const UNIT_TIMEOUTS = { testTimeout: 60_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    // The JSON report feeds the one-line summary printed by .ci/run.
    reporters: ['default', ['json', { outputFile: '.data/test-report.json' }]],
    // Three test files at once: vitest's default on a 2-core machine is one, and the integration
    // files mostly wait on HTTP, DynamoDB Local and git, so running them side by side (they share
    // one runtime and never assume an empty table) takes the suite from ~14 to ~10 minutes there.
    maxWorkers: 3,
    // Longest files first, whichever project they are in (test/durations.json).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.integration.test.ts', ...MODULE_MOCKING],
          // The unit files share a worker's module graph instead of importing the platform again
          // per file (that import was a fifth of the unit run). Each file sets up what it relies
          // on (clients, config, mocks) and resets it after; features register themselves once.
          isolate: false,
          setupFiles: ['test/support/unit-setup.ts'],
          ...UNIT_TIMEOUTS,
        },
      },
      {
        // Unit files that replace modules (`vi.mock`) need a module graph of their own.
        test: { name: 'unit-isolated', include: MODULE_MOCKING, ...UNIT_TIMEOUTS },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.integration.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          // As the unit files: a worker runs file after file in one module graph instead of a fresh
          // process each (about 0.6 s of CPU per file, a minute of the suite on 2 cores). The files
          // only share the runtime they talk to, and leave no module state behind (spies restored).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
