/**
 * A pipeline's test report (GitLab's `TestReportEntity` with details: suites with their cases) and
 * its summary (`TestReportSummaryEntity`: totals, and suites with their jobs and error).
 */
import type { TestSuiteReport, TestSuiteSummary } from '../queries/test-reports';

const countsOf = (suite: TestSuiteReport) => {
  const count = (status: string) => (suite.suiteError ? 0 : suite.cases.filter((c) => c.status === status).length);
  const success = count('success');
  const failed = count('failed');
  const skipped = count('skipped');
  const error = count('error');
  return { total_count: success + failed + skipped + error, success_count: success, failed_count: failed, skipped_count: skipped, error_count: error };
};

/** `webUrl` is the project's: an attachment (`[[ATTACHMENT|path]]`) is a file of the job's artifacts there. */
export function presentTestReport(suites: readonly TestSuiteReport[], webUrl: string) {
  const presented = suites.map((suite) => ({
    name: suite.name,
    total_time: suite.time,
    ...countsOf(suite),
    suite_error: suite.suiteError,
    test_cases: suite.cases.map((c) => ({
      status: c.status,
      name: c.name,
      classname: c.classname,
      execution_time: c.executionTime,
      system_output: c.systemOutput,
      stack_trace: null,
      ...(c.attachment ? { attachment_url: `${webUrl}/-/jobs/${c.jobId}/artifacts/file/${c.attachment}` } : {}),
    })),
  }));
  const sum = (field: 'total_time' | 'total_count' | 'success_count' | 'failed_count' | 'skipped_count' | 'error_count') => presented.reduce((total, suite) => total + suite[field], 0);
  return {
    total_time: sum('total_time'),
    total_count: sum('total_count'),
    success_count: sum('success_count'),
    failed_count: sum('failed_count'),
    skipped_count: sum('skipped_count'),
    error_count: sum('error_count'),
    test_suites: presented,
  };
}

export function presentTestReportSummary(suites: readonly TestSuiteSummary[]) {
  const sum = (field: 'time' | 'success' | 'failed' | 'skipped' | 'error') => suites.reduce((total, suite) => total + suite[field], 0);
  const countOf = (s: { success: number; failed: number; skipped: number; error: number }) => s.success + s.failed + s.skipped + s.error;
  return {
    total: {
      time: sum('time'),
      count: suites.reduce((total, suite) => total + countOf(suite), 0),
      success: sum('success'),
      failed: sum('failed'),
      skipped: sum('skipped'),
      error: sum('error'),
      suite_error: suites.find((suite) => suite.suiteError)?.suiteError ?? null,
    },
    test_suites: suites.map((suite) => ({
      name: suite.name,
      total_time: suite.time,
      total_count: countOf(suite),
      success_count: suite.success,
      failed_count: suite.failed,
      skipped_count: suite.skipped,
      error_count: suite.error,
      build_ids: suite.buildIds,
      suite_error: suite.suiteError,
    })),
  };
}
