/**
 * `npm run test:durations`: writes `test/durations.json` (seconds per test file) from the report
 * of the last full run (`.data/test-report.json`), for the order files start in
 * (`vitest.config.ts`). Refresh it when files are added or grow.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

interface Report { testResults: Array<{ name: string; startTime: number; endTime: number }> }

const root = new URL('../..', import.meta.url).pathname;
const report: Report = JSON.parse(readFileSync(`${root}.data/test-report.json`, 'utf8'));
const durations = Object.fromEntries(
  report.testResults
    .map(({ name, startTime, endTime }) => [relative(root, name), Math.round((endTime - startTime) / 100) / 10] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(`${root}test/durations.json`, `${JSON.stringify(durations, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(durations).length} files`);
