/**
 * Unit test reports (`artifacts:reports:junit`): the runner is told to upload them (type `junit`,
 * gzip, whatever the job's outcome) and uploads one gzip member per file; the pipeline's test
 * report (`GET …/pipelines/:pipeline_id/test_report`, python-gitlab's `pipeline.test_report.get()`)
 * and its summary (`…/test_report_summary`, `pipeline.test_report_summary.get()`) read them: one
 * suite per job name without its `parallel:` suffix, an unreadable report an errored suite.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { ownedProject, type OwnedProject } from '../support/fixtures';
import { pushNewRepository } from '../support/git';
import { TestRunner } from './runner';

const CI = `
unit:
  parallel: 2
  script:
    - cp reports/unit-$CI_NODE_INDEX.xml report.xml
    - cp reports/shared.xml more.xml
  artifacts:
    reports:
      junit: [report.xml, more.xml]
lint:
  script:
    - cp reports/bad.xml lint.xml
    - mkdir out && echo x > out/x
    - exit 1
  artifacts:
    paths: [out/]
    reports:
      junit: lint.xml
`;

const UNIT_1 = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="models">
  <testcase classname="User" name="is valid" time="0.5"/>
  <testcase classname="User" name="saves" time="0.25"><failure message="not saved">expected true &amp; got false</failure><system-out>[[ATTACHMENT|shots/saves.png]]</system-out></testcase>
</testsuite></testsuites>`;
const UNIT_2 = `<testsuite name="api"><testcase classname="Api" name="lists" time="1.5"/><testcase classname="Api" name="pages"><skipped/></testcase></testsuite>`;
const SHARED = `<testsuite name="shared"><testcase classname="Shared" name="boots" time="0.125"/></testsuite>`;
const BAD = `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><testsuite><testcase name="&e;"/></testsuite>`;

/* eslint-disable @typescript-eslint/no-explicit-any -- runner and API bodies are read field by field */
describe('pipeline test reports', () => {
  let project: OwnedProject;
  let pipelineId: number;
  const payloads = new Map<string, any>();

  beforeAll(async () => {
    project = await ownedProject('private');
    const runnersToken = (await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token;
    const runner = await TestRunner.register(runnersToken);
    await pushNewRepository(project.fullPath, project.owner.token, {
      '.gitlab-ci.yml': CI,
      'reports/unit-1.xml': UNIT_1,
      'reports/unit-2.xml': UNIT_2,
      'reports/shared.xml': SHARED,
      'reports/bad.xml': BAD,
    });
    for (let i = 0; i < 3; i++) {
      const ran = await runner.runNext();
      payloads.set(ran!.job.job_info.name, ran);
    }
    pipelineId = (await api(`/projects/${project.id}/pipelines`, { token: project.owner.token })).body[0].id;
  });

  it('tells the runner to upload the junit reports, gzipped, whatever the outcome; the archive only when it has paths', () => {
    const junit = (paths: string[]) => ({ name: 'junit.xml', paths, when: 'always', artifact_type: 'junit', artifact_format: 'gzip', expire_in: null });
    expect(payloads.get('unit 1/2').job.artifacts).toEqual([junit(['report.xml', 'more.xml'])]);
    expect(payloads.get('lint').job.artifacts).toEqual([expect.objectContaining({ artifact_type: 'archive', artifact_format: 'zip', paths: ['out/'] }), junit(['lint.xml'])]);
    expect([...payloads.values()].map((ran) => ran.state).sort()).toEqual(['failed', 'success', 'success']);
  });

  it("answers the pipeline's suites with their cases, sorted, and an unreadable report as an errored suite", async () => {
    const response = await api(`/projects/${project.id}/pipelines/${pipelineId}/test_report`, { token: project.owner.token });
    expect(response.status).toBe(200);
    const unit1 = payloads.get('unit 1/2').job.id;
    const lint = response.body.test_suites.find((suite: any) => suite.name === 'lint');
    const unit = response.body.test_suites.find((suite: any) => suite.name === 'unit');
    expect(response.body.test_suites).toHaveLength(2);
    // The shared case, in both jobs of `unit`, counts once.
    expect(response.body).toMatchObject({ total_time: 0.5 + 0.25 + 1.5 + 0.125 * 2, total_count: 5, success_count: 3, failed_count: 1, skipped_count: 1, error_count: 0 });
    expect(unit).toMatchObject({ total_time: 2.5, total_count: 5, success_count: 3, failed_count: 1, skipped_count: 1, error_count: 0, suite_error: null });
    expect(unit.test_cases.map((c: any) => [c.status, c.classname, c.name, c.execution_time])).toEqual([
      ['failed', 'User', 'saves', 0.25],
      ['success', 'Api', 'lists', 1.5],
      ['success', 'User', 'is valid', 0.5],
      ['success', 'Shared', 'boots', 0.125],
      ['skipped', 'Api', 'pages', 0],
    ]);
    expect(unit.test_cases[0]).toEqual({
      status: 'failed',
      name: 'saves',
      classname: 'User',
      execution_time: 0.25,
      system_output: 'expected true & got false',
      stack_trace: null,
      attachment_url: expect.any(String),
    });
    expect(unit.test_cases[0].attachment_url.endsWith(`/${project.fullPath}/-/jobs/${unit1}/artifacts/file/shots/saves.png`)).toBe(true);
    expect(unit.test_cases.filter((c: any) => 'attachment_url' in c)).toHaveLength(1);
    expect(lint).toMatchObject({ total_count: 0, success_count: 0, failed_count: 0, test_cases: [] });
    expect(lint.suite_error).toMatch(/^JUnit XML parsing failed: .*document type declaration is not allowed/);
  });

  it('answers the summary from the counts kept per job: totals, and each suite with its jobs and error', async () => {
    const response = await api(`/projects/${project.id}/pipelines/${pipelineId}/test_report_summary`, { token: project.owner.token });
    const ids = (name: string) => payloads.get(name).job.id;
    expect(response.status).toBe(200);
    const lintError = response.body.test_suites.find((suite: any) => suite.name === 'lint')?.suite_error;
    expect(lintError).toMatch(/^JUnit XML parsing failed: /);
    // Per job as GitLab's build report results: the shared case counts in each job.
    expect(response.body.total).toEqual({ time: 2.5, count: 6, success: 4, failed: 1, skipped: 1, error: 0, suite_error: lintError });
    expect(response.body.test_suites).toEqual(
      expect.arrayContaining([
        { name: 'unit', total_time: 2.5, total_count: 6, success_count: 4, failed_count: 1, skipped_count: 1, error_count: 0, build_ids: [ids('unit 1/2'), ids('unit 2/2')].sort((a, b) => a - b), suite_error: null },
        { name: 'lint', total_time: 0, total_count: 0, success_count: 0, failed_count: 0, skipped_count: 0, error_count: 0, build_ids: [ids('lint')], suite_error: lintError },
      ]),
    );
  });

  it("leaves a retried job's report out (its copy has none until it uploads one)", async () => {
    const retried = await api(`/projects/${project.id}/jobs/${payloads.get('lint').job.id}/retry`, { method: 'POST', token: project.owner.token });
    expect(retried.status).toBe(201);
    const summary = await api(`/projects/${project.id}/pipelines/${pipelineId}/test_report_summary`, { token: project.owner.token });
    const report = await api(`/projects/${project.id}/pipelines/${pipelineId}/test_report`, { token: project.owner.token });
    expect([summary.body.test_suites.map((suite: any) => suite.name), summary.body.total.suite_error, report.body.test_suites.map((suite: any) => suite.name)]).toEqual([['unit'], null, ['unit']]);
  });

  it('is refused as the pipeline is: 404 to whom cannot see the project, for an unknown pipeline; empty without reports', async () => {
    expect((await api(`/projects/${project.id}/pipelines/${pipelineId}/test_report`)).status).toBe(404);
    expect((await api(`/projects/${project.id}/pipelines/999999999/test_report_summary`, { token: project.owner.token })).body).toEqual({ message: '404 Not Found' });
    const other = await ownedProject('private');
    await pushNewRepository(other.fullPath, other.owner.token, { '.gitlab-ci.yml': 'job:\n  script: [echo]\n' });
    const otherPipeline = (await api(`/projects/${other.id}/pipelines`, { token: other.owner.token })).body[0].id;
    expect((await api(`/projects/${other.id}/pipelines/${otherPipeline}/test_report`, { token: other.owner.token })).body).toEqual({
      total_time: 0, total_count: 0, success_count: 0, failed_count: 0, skipped_count: 0, error_count: 0, test_suites: [],
    });
    expect((await api(`/projects/${other.id}/pipelines/${otherPipeline}/test_report_summary`, { token: other.owner.token })).body).toEqual({
      total: { time: 0, count: 0, success: 0, failed: 0, skipped: 0, error: 0, suite_error: null }, test_suites: [],
    });
  });
});
