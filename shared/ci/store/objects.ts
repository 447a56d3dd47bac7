/**
 * The CI feature's S3 object keys (as `keys.ts` for items): a job's trace chunks while it runs,
 * its archived trace once it ended, its artifacts archive and the cases of its JUnit report. Everything of a job lives under
 * `ci/jobs/<jobId>/`.
 */
const jobPrefix = (jobId: number): string => `ci/jobs/${jobId}/`;

export const ciObjects = {
  jobPrefix,
  /** Live trace chunks, named by their byte offset (zero-padded, so listing is in order). */
  traceChunkPrefix: (jobId: number): string => `${jobPrefix(jobId)}trace-chunks/`,
  traceChunk: (jobId: number, offset: number): string => `${jobPrefix(jobId)}trace-chunks/${offset.toString().padStart(12, '0')}`,
  /** The whole trace, archived when the job ended. */
  trace: (jobId: number): string => `${jobPrefix(jobId)}trace.log`,
  /** The artifacts archive as the runner uploaded it. */
  artifacts: (jobId: number): string => `${jobPrefix(jobId)}artifacts`,
  /** The cases of its JUnit report, as read when it was uploaded (JSON, `JobTestResult`). */
  testReport: (jobId: number): string => `${jobPrefix(jobId)}test-report.json`,
} as const;
