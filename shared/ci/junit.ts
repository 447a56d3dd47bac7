/**
 * A job's JUnit report (`artifacts:reports:junit`), read as GitLab's `Gitlab::Ci::Parsers::Test::Junit`
 * reads it: the root is `testsuites` or `testsuite`; test cases are the `testcase` elements of
 * the root `testsuites` and of `testsuite` elements at any depth below it; a case with `failure`
 * failed (its `system-out` may name an attachment, `[[ATTACHMENT|path]]`), with `error` errored,
 * with `skipped` was skipped, else succeeded; its `time` read as Ruby's `to_f`. Cases of one
 * status with the same suite, class name and name count once. A report that is not XML leaves
 * the suite errored (`suite_error`), with no cases.
 */
import { parseXmlDocuments, XmlError, type XmlElement } from './xml';

export type TestCaseStatus = 'success' | 'failed' | 'skipped' | 'error';

export interface TestCaseResult {
  status: TestCaseStatus;
  name: string | null;
  classname: string | null;
  file: string | null;
  executionTime: number;
  systemOutput: string | null;
  attachment: string | null;
}

/** What a job's report holds: its cases (none when it is errored). */
export interface JobTestResult {
  suiteError: string | null;
  /** Seconds of every case read (a case counted once still adds each time it is read, as GitLab's). */
  time: number;
  cases: TestCaseResult[];
}

/** The compact counts kept on the job, which summaries read. */
export interface JobTestSummary {
  time: number;
  success: number;
  failed: number;
  skipped: number;
  error: number;
  suiteError: string | null;
}

const ATTACHMENT = /\[\[ATTACHMENT\|(.+?)\]\]/;

/** Ruby's `String#to_f`: the leading decimal number, else 0. */
function toF(value: string | undefined): number {
  const match = /^\s*[+-]?(?:\d[\d_]*(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(value ?? '');
  const number = match ? Number(match[0].replaceAll('_', '')) : 0;
  return Number.isFinite(number) ? number : 0;
}

const child = (element: XmlElement, name: string) => element.children.find((c) => c.name === name);

/** An outcome element's text, else (an empty element with a message) its message, else null. */
function outputOf(element: XmlElement): string | null {
  if (element.text.trim() !== '') return element.text;
  return element.attributes.message ?? null;
}

function caseOf(element: XmlElement, suiteName: string | null): TestCaseResult & { key: string } {
  const failure = child(element, 'failure');
  const error = child(element, 'error');
  const skipped = child(element, 'skipped');
  let status: TestCaseStatus = 'success';
  let systemOutput: string | null = null;
  let attachment: string | null = null;
  if (failure) {
    status = 'failed';
    systemOutput = outputOf(failure);
    const out = child(element, 'system-out');
    attachment = out ? (ATTACHMENT.exec(out.text)?.[1] ?? null) : null;
  } else if (error) {
    status = 'error';
    systemOutput = outputOf(error);
  } else if (skipped) {
    status = 'skipped';
    systemOutput = outputOf(skipped);
  }
  const name = element.attributes.name ?? null;
  const classname = element.attributes.classname ?? null;
  return {
    status,
    name,
    classname,
    file: element.attributes.file ?? null,
    executionTime: toF(element.attributes.time),
    systemOutput,
    attachment,
    key: JSON.stringify([status, suiteName, classname, name]),
  };
}

/** Reads the report's text (every document of it); never throws. */
export function parseJunit(xml: string): JobTestResult {
  let roots: XmlElement[];
  try {
    roots = parseXmlDocuments(xml);
  } catch (error) {
    if (error instanceof XmlError) return { suiteError: `JUnit XML parsing failed: ${error.message}`, time: 0, cases: [] };
    throw error;
  }
  const cases = new Map<string, TestCaseResult>();
  let time = 0;
  const add = (element: XmlElement, suiteName: string | null) => {
    const { key, ...found } = caseOf(element, suiteName);
    cases.set(key, found);
    time += found.executionTime;
  };
  const suite = (element: XmlElement) => {
    const queue = [element];
    for (let next = 0; next < queue.length; next++) {
      const current = queue[next];
      for (const node of current.children) {
        if (node.name === 'testcase') add(node, current.attributes.name ?? null);
        else if (node.name === 'testsuite') queue.push(node);
      }
    }
  };
  for (const root of roots) {
    if (root.name === 'testsuite') suite(root);
    else if (root.name === 'testsuites') suite(root);
  }
  return { suiteError: null, time, cases: [...cases.values()] };
}

export function summarize(result: JobTestResult): JobTestSummary {
  const count = (status: TestCaseStatus) => (result.suiteError ? 0 : result.cases.filter((c) => c.status === status).length);
  return {
    time: result.time,
    success: count('success'),
    failed: count('failed'),
    skipped: count('skipped'),
    error: count('error'),
    suiteError: result.suiteError,
  };
}

/** GitLab's order of a suite's cases: errors, failures, successes, skipped; the slowest first within each. */
const ORDER: readonly TestCaseStatus[] = ['error', 'failed', 'success', 'skipped'];
export function sortedCases(cases: readonly TestCaseResult[]): TestCaseResult[] {
  return ORDER.flatMap((status) => cases.filter((c) => c.status === status).sort((a, b) => b.executionTime - a.executionTime));
}

/**
 * A job's test suite name (GitLab's `group_name`): its name without a `parallel:` suffix such as
 * ` 1/3` or a matrix's `: [a, b]`.
 */
export function testSuiteName(jobName: string): string {
  return jobName.replace(/(?:[\s:]+(?:\[.*\]|\d+[\s:/\\]+\d+)){1,3}\s*$/, '').trim();
}
