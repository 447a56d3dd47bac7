/**
 * A pipeline's test reports (GitLab's `Ci::Pipeline#test_reports` and its test report summary):
 * the JUnit reports of its latest jobs (retried ones left out), one suite per job name without
 * its `parallel:` suffix. The summary reads only the counts kept on the jobs (the pipeline's job
 * items, one query); the full report reads each reporting job's cases (one S3 object a job).
 */
import { sortedCases, testSuiteName, type JobTestSummary, type TestCaseResult } from '../junit';
import { readTestReport } from '../store/blobs';
import { readPipeline, type Job } from '../store/pipelines';

export interface SuiteCase extends TestCaseResult {
  jobId: number;
}

export interface TestSuiteReport {
  name: string;
  time: number;
  suiteError: string | null;
  /** Its cases, sorted as GitLab shows them (none when it is errored). */
  cases: SuiteCase[];
}

export interface TestSuiteSummary extends JobTestSummary {
  name: string;
  buildIds: number[];
}

async function reportingJobs(pipelineId: number): Promise<Array<Job & { testReport: JobTestSummary }>> {
  const read = await readPipeline(pipelineId);
  return (read?.jobs ?? [])
    .filter((job): job is Job & { testReport: JobTestSummary } => !job.retried && Boolean(job.testReport))
    .sort((a, b) => a.id - b.id);
}

export async function pipelineTestSummary(pipelineId: number): Promise<TestSuiteSummary[]> {
  const suites = new Map<string, TestSuiteSummary>();
  for (const job of await reportingJobs(pipelineId)) {
    const name = testSuiteName(job.name);
    const suite = suites.get(name) ?? { name, time: 0, success: 0, failed: 0, skipped: 0, error: 0, suiteError: null, buildIds: [] };
    const counts = job.testReport;
    suites.set(name, {
      ...suite,
      time: suite.time + counts.time,
      success: suite.success + counts.success,
      failed: suite.failed + counts.failed,
      skipped: suite.skipped + counts.skipped,
      error: suite.error + counts.error,
      suiteError: suite.suiteError ?? counts.suiteError,
      buildIds: [...suite.buildIds, job.id],
    });
  }
  return [...suites.values()];
}

/** The suites with their cases: the jobs of one suite read into it (a case of one status, class and name counts once). */
export async function pipelineTestReport(pipelineId: number): Promise<TestSuiteReport[]> {
  const jobs = await reportingJobs(pipelineId);
  const results = await Promise.all(jobs.map((job) => readTestReport(job.id)));
  const suites = new Map<string, { time: number; suiteError: string | null; cases: Map<string, SuiteCase> }>();
  jobs.forEach((job, i) => {
    const name = testSuiteName(job.name);
    const suite = suites.get(name) ?? { time: 0, suiteError: null, cases: new Map<string, SuiteCase>() };
    suites.set(name, suite);
    const result = results[i];
    if (!result) return;
    suite.time += result.time;
    suite.suiteError ??= result.suiteError;
    for (const found of result.cases) suite.cases.set(JSON.stringify([found.status, found.classname, found.name]), { ...found, jobId: job.id });
  });
  return [...suites.entries()].map(([name, suite]) => ({
    name,
    time: suite.time,
    suiteError: suite.suiteError,
    cases: suite.suiteError ? [] : (sortedCases([...suite.cases.values()]) as SuiteCase[]),
  }));
}
