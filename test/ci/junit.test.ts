/**
 * The JUnit reader behind `artifacts:reports:junit` (GitLab's `Gitlab::Ci::Parsers::Test::Junit`):
 * which cases count and with what status, output and time; several documents in one text (a
 * gzip stream of several files); malformed XML and document type declarations refused (no
 * entity is ever expanded).
 */
import { describe, expect, it } from 'vitest';
import { parseJunit, sortedCases, summarize, testSuiteName } from '../../shared/ci/junit';

const REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<!-- made by a test tool -->
<testsuites name="all">
  <testcase classname="top" name="direct" time="0.5"/>
  <testsuite name="outer">
    <testcase classname="a" name="passes" time="1.25s"/>
    <testcase classname="a" name="fails" time="2"><failure message="boom" type="Assert">expected 1 &lt; 2 &amp;&#x20;got &#51;</failure><system-out>see [[ATTACHMENT|shots/fails.png]]</system-out></testcase>
    <testcase classname="a" name="errs"><error message="crashed"/></testcase>
    <testcase classname="a" name="skips"><skipped/></testcase>
    <testsuite name="inner"><testcase classname="b" name="nested" time="x"><![CDATA[<ignored>]]></testcase></testsuite>
  </testsuite>
  <other><testcase name="not counted"/></other>
</testsuites>
<?xml version="1.0"?>
<testsuite name="second file"><testcase classname="a" name="passes" time="1"/><testcase classname="a" name="passes" time="1"/></testsuite>
<testcase name="a root case is not counted"/>`;

describe('JUnit reports', () => {
  it('reads the cases of testsuites and nested testsuite elements, with their status, output, attachment and time', () => {
    const result = parseJunit(REPORT);
    expect(result.suiteError).toBeNull();
    const byName = Object.fromEntries(result.cases.map((c) => [c.name, c]));
    expect(Object.keys(byName).sort()).toEqual(['direct', 'errs', 'fails', 'nested', 'passes', 'skips']);
    expect(byName.fails).toMatchObject({ status: 'failed', classname: 'a', executionTime: 2, systemOutput: 'expected 1 < 2 & got 3', attachment: 'shots/fails.png' });
    expect(byName.errs).toMatchObject({ status: 'error', systemOutput: 'crashed', executionTime: 0, attachment: null });
    expect(byName.skips).toMatchObject({ status: 'skipped', systemOutput: null });
    expect(byName.passes).toMatchObject({ status: 'success', executionTime: 1, systemOutput: null });
    expect(byName.nested).toMatchObject({ status: 'success', classname: 'b', executionTime: 0 });
    // One case per status, suite, class and name (the second file's duplicate counts once, its
    // `passes` is another suite's); the times of every case read.
    expect(summarize(result)).toEqual({ time: 0.5 + 1.25 + 2 + 1 + 1, success: 4, failed: 1, skipped: 1, error: 1, suiteError: null });
    expect(sortedCases(result.cases).map((c) => [c.name, c.executionTime])).toEqual([['errs', 0], ['fails', 2], ['passes', 1.25], ['passes', 1], ['direct', 0.5], ['nested', 0], ['skips', 0]]);
  });

  it('leaves a report that is not well-formed XML, or declares a document type, errored with no cases', () => {
    const bomb = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><testsuite><testcase name="&b;"/></testsuite>';
    const xxe = '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><testsuite><testcase name="&e;"/></testsuite>';
    for (const xml of [bomb, xxe, '<testsuite><testcase name="&e;"/></testsuite>', '<testsuite><testcase></testsuite>', '', 'not xml', '<testsuite a="1" a="2"/>']) {
      const result = parseJunit(xml);
      expect(result.suiteError, xml).toMatch(/^JUnit XML parsing failed: /);
      expect(summarize(result)).toMatchObject({ success: 0, failed: 0, skipped: 0, error: 0 });
    }
    expect(parseJunit(bomb).suiteError).toContain('document type declaration is not allowed');
  });

  it("names a job's suite without its parallel suffix", () => {
    expect(['rspec 1/3', 'rspec 3/3', 'rspec: [ruby, 3]', 'rspec'].map(testSuiteName)).toEqual(['rspec', 'rspec', 'rspec', 'rspec']);
  });
});
