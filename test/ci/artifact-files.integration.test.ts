/**
 * One file out of a job's artifacts archive (GitLab's `lib/api/ci/job_artifacts.rb`), as
 * python-gitlab asks for it: `job.artifact(path)` → `GET /projects/:id/jobs/:job_id/artifacts/<path>`
 * and `project.artifacts.raw(ref, path, job)` → `GET /projects/:id/jobs/artifacts/<ref>/raw/<path>?job=`;
 * with a user's token or another job's `JOB-TOKEN`. Then deleting artifacts before they expire:
 * `job.delete_artifacts()` (maintainers, 204) and `project.artifacts.delete()` (maintainers, 202,
 * done by the background worker, which keeps each ref's latest successful pipeline's, and resumes
 * where a run whose time was up stopped).
 */
import { randomBytes } from 'node:crypto';
import { zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, isLocalRuntime } from '../support/api';
import { CI_ARTIFACTS_DELETION, runProjectArtifactsDeletion } from '../../shared/ci';
import { getItem } from '../../shared/platform/dynamo/query';
import { jobFromImage, jobKeys } from '../../shared/platform/jobs';
import { eventually } from '../support/eventually';
import { holdJob, releaseJob } from '../support/held-jobs';
import { newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { cloneUrl, commitFiles, gitOk, pushNewRepository } from '../support/git';
import { TestRunner } from './runner';

const CI = `
stages: [build, test]
build:
  stage: build
  script: [echo build]
  artifacts:
    paths: [out/]
use:
  stage: test
  script: [echo use]
  rules:
    - if: $CI_COMMIT_BRANCH == "consumer"
`;

const DEVELOPER = 30;
const binary = randomBytes(70_000);
const report = 'pass\n'.repeat(5000);

/* eslint-disable @typescript-eslint/no-explicit-any -- the job payload is read field by field */
/** Uploads `files` as the job's artifacts archive, as gitlab-runner does (a zip, `artifact_format=zip`). */
async function uploadArtifacts(job: any, files: Parameters<typeof zipSync>[0]): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([zipSync(files)]), 'artifacts.zip');
  const upload = await api(`/jobs/${job.id}/artifacts`, { method: 'POST', headers: { 'JOB-TOKEN': job.token }, form, query: { artifact_format: 'zip', artifact_type: 'archive' } });
  expect(upload.status, JSON.stringify(upload.body)).toBe(201);
}

/** A GET of the Jobs API read as bytes. */
async function download(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(`${baseUrl()}/api/v4${path}`, { headers });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('job artifact files and their deletion', () => {
  let project: OwnedProject;
  let developer: TestUser;
  let runner: TestRunner;
  let build: any;
  let use: any;
  let owner: Record<string, string>;
  let work: string;

  beforeAll(async () => {
    project = await ownedProject('private');
    owner = { 'PRIVATE-TOKEN': project.owner.token };
    developer = await newMember(project, DEVELOPER);
    work = await pushNewRepository(project.fullPath, project.owner.token, { '.gitlab-ci.yml': CI });
    runner = await TestRunner.register((await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token);
    // `main`'s pipeline (build alone) succeeds: the ref's latest successful pipeline, whose artifacts are served by ref.
    build = await runner.pickNext();
    await uploadArtifacts(build, {
      'out/nested/deep/report.txt': Buffer.from(report),
      'out/bin/data.bin': [binary, { level: 0 }],
      'out/page.html': Buffer.from('<p>hi</p>'),
      'out/dir/': new Uint8Array(0),
      keep: Buffer.from('kept\n'),
    });
    expect((await runner.update(build, 'success')).status).toBe(200);
    // `consumer`'s pipeline: its build passes, its `use` job runs (a running job's JOB-TOKEN).
    await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), 'main:refs/heads/consumer'], { cwd: work });
    expect((await runner.update(await runner.pickNext(), 'success')).status).toBe(200);
    use = await runner.pickNext();
  });

  it('serves one file by job id: deflated and stored entries byte for byte, with their type and name, a root `keep` too; 404 for what is not a file', async () => {
    // Act
    const text = await download(`/projects/${project.id}/jobs/${build.id}/artifacts/out/nested/deep/report.txt`, owner);
    const bin = await download(`/projects/${project.id}/jobs/${build.id}/artifacts/out/bin/data.bin`, owner);
    const html = await download(`/projects/${project.id}/jobs/${build.id}/artifacts/out/page.html`, owner);

    // Assess: Workhorse's headers (type by extension, attachment with the base name, the size).
    expect({ status: text.status, body: text.bytes.toString(), type: text.headers.get('content-type'), disposition: text.headers.get('content-disposition') }).toEqual({
      status: 200,
      body: report,
      type: 'text/plain; charset=utf-8',
      disposition: 'attachment; filename="report.txt"',
    });
    expect({ status: bin.status, equal: bin.bytes.equals(binary), type: bin.headers.get('content-type'), length: bin.headers.get('content-length') }).toEqual({
      status: 200,
      equal: true,
      type: 'application/octet-stream',
      length: String(binary.length),
    });
    expect([html.status, html.headers.get('content-type'), html.headers.get('content-disposition')]).toEqual([200, 'text/html; charset=utf-8', 'attachment; filename="page.html"']);
    // A root file named `keep` is served (GET), while POST …/artifacts/keep still keeps the artifacts.
    const keep = await download(`/projects/${project.id}/jobs/${build.id}/artifacts/keep`, owner);
    expect([keep.status, keep.bytes.toString(), keep.headers.get('content-disposition')]).toEqual([200, 'kept\n', 'attachment; filename="keep"']);
    const kept = await api(`/projects/${project.id}/jobs/${build.id}/artifacts/keep`, { method: 'POST', token: project.owner.token });
    expect([kept.status, kept.body.id, kept.body.artifacts_expire_at]).toEqual([200, build.id, null]);
    for (const path of ['out/missing.txt', 'out/dir', 'out/dir/', 'nested/deep/report.txt']) {
      const missing = await api(`/projects/${project.id}/jobs/${build.id}/artifacts/${path}`, { token: project.owner.token });
      expect([path, missing.status]).toEqual([path, 404]);
    }
    expect((await api(`/projects/${project.id}/jobs/${use.id}/artifacts/out/bin/data.bin`, { token: project.owner.token })).status).toBe(404);
    expect((await api(`/projects/${project.id}/jobs/999999999/artifacts/out/bin/data.bin`, { token: project.owner.token })).status).toBe(404);
  });

  it('serves one file by ref and job name, also to another job with its JOB-TOKEN; hides it from strangers', async () => {
    // Act
    const byRef = await download(`/projects/${project.id}/jobs/artifacts/main/raw/out/bin/data.bin?job=build`, owner);
    const withJobToken = await download(`/projects/${project.id}/jobs/${build.id}/artifacts/out/nested/deep/report.txt`, { 'JOB-TOKEN': use.token });
    const byRefWithJobToken = await download(`/projects/${project.id}/jobs/artifacts/main/raw/out/nested/deep/report.txt?job=build`, { 'JOB-TOKEN': use.token });

    // Assess
    expect([byRef.status, byRef.bytes.equals(binary)]).toEqual([200, true]);
    expect([withJobToken.status, withJobToken.bytes.toString()]).toEqual([200, report]);
    expect([byRefWithJobToken.status, byRefWithJobToken.bytes.toString()]).toEqual([200, report]);
    expect((await api(`/projects/${project.id}/jobs/artifacts/main/raw/out/bin/data.bin`, { query: { job: 'use' }, token: project.owner.token })).status).toBe(404);
    expect((await api(`/projects/${project.id}/jobs/artifacts/other/raw/out/bin/data.bin`, { query: { job: 'build' }, token: project.owner.token })).status).toBe(404);
    expect((await api(`/projects/${project.id}/jobs/artifacts/main/raw/out/bin/data.bin`, { token: project.owner.token })).body).toEqual({ error: 'job is missing' });
    expect((await api(`/projects/${project.id}/jobs/${build.id}/artifacts/out/bin/data.bin`)).status).toBe(404);
  });

  it("deletes one job's artifacts: developers 403, maintainers 204; the archive and its files are gone", async () => {
    // Act
    const denied = await api(`/projects/${project.id}/jobs/${build.id}/artifacts`, { method: 'DELETE', token: developer.token });
    const deleted = await api(`/projects/${project.id}/jobs/${build.id}/artifacts`, { method: 'DELETE', token: project.owner.token });

    // Assess
    expect([denied.status, denied.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect(deleted.status).toBe(204);
    const job = (await api(`/projects/${project.id}/jobs/${build.id}`, { token: project.owner.token })).body;
    expect({ artifacts_file: job.artifacts_file, artifacts: job.artifacts, artifacts_expire_at: job.artifacts_expire_at }).toEqual({ artifacts_file: null, artifacts: [], artifacts_expire_at: null });
    expect((await api(`/projects/${project.id}/jobs/${build.id}/artifacts`, { token: project.owner.token })).status).toBe(404);
    expect((await api(`/projects/${project.id}/jobs/${build.id}/artifacts/out/bin/data.bin`, { token: project.owner.token })).status).toBe(404);
    expect((await api(`/projects/${project.id}/jobs/artifacts/main/download`, { query: { job: 'build' }, token: project.owner.token })).status).toBe(404);
    // Again, with nothing left: still 204 (GitLab's delete service has nothing to destroy).
    expect((await api(`/projects/${project.id}/jobs/${build.id}/artifacts`, { method: 'DELETE', token: project.owner.token })).status).toBe(204);
  });

  it("deletes the project's artifacts in the background, except each ref's latest successful pipeline's: developers 403, maintainers 202", async () => {
    // Prepare: `consumer`'s pipeline succeeds with `use`'s artifacts; a newer commit's pipeline fails after its build uploaded some.
    await uploadArtifacts(use, { 'report.txt': Buffer.from('use\n') });
    expect((await runner.update(use, 'success')).status).toBe(200);
    await commitFiles(work, { 'README.md': 'again\n' }, 'again');
    await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), 'main:refs/heads/consumer'], { cwd: work });
    const failed = await runner.pickNext();
    await uploadArtifacts(failed, { 'report.txt': Buffer.from('failed\n') });
    expect((await runner.update(failed, 'failed')).status).toBe(200);

    // Locally the worker's job is held (recorded as claimed) and run here a batch at a time before the worker goes on.
    const local = isLocalRuntime();
    if (local) await holdJob(CI_ARTIFACTS_DELETION, project.id);
    const heldJob = async () => jobFromImage((await getItem(jobKeys.job(CI_ARTIFACTS_DELETION, project.id)))!);

    // Act
    const denied = await api(`/projects/${project.id}/artifacts`, { method: 'DELETE', token: developer.token });
    const accepted = await api(`/projects/${project.id}/artifacts`, { method: 'DELETE', token: project.owner.token });

    // Assess: the failed pipeline's go; `use`'s are kept.
    expect([denied.status, denied.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect([accepted.status, accepted.body]).toEqual([202, { message: '202 Accepted' }]);
    if (local) {
      const jobIds = ((await api(`/projects/${project.id}/jobs`, { token: project.owner.token })).body as Array<{ id: number }>).map((job) => job.id).sort((a, b) => a - b);
      // A run whose time is up after its first batch of one job (none with artifacts: the time is checked per batch, not per deletion)...
      const first = await runProjectArtifactsDeletion(await heldJob(), () => true, { batchSize: 1 });
      const afterFirst = await heldJob();
      // ...the next resumes after the job it stored (walking jobs 2 and 3, not 1 and 2)...
      const second = await runProjectArtifactsDeletion(afterFirst, () => true, { batchSize: 2 });
      const afterSecond = await heldJob();
      expect({ first, second, progress: [afterFirst.progress, afterSecond.progress] }).toEqual({ first: 'continue', second: 'continue', progress: [String(jobIds[0]), String(jobIds[2])] });
      expect((await api(`/projects/${project.id}/jobs/${failed.id}`, { token: project.owner.token })).body.artifacts_file).not.toBeNull();
      // ...and the worker, its lease over, finishes from there.
      await releaseJob(CI_ARTIFACTS_DELETION, project.id);
    }
    await eventually(async () => {
      expect((await api(`/projects/${project.id}/jobs/${failed.id}`, { token: project.owner.token })).body.artifacts_file).toBeNull();
    });
    expect((await api(`/projects/${project.id}/jobs/${failed.id}/artifacts`, { token: project.owner.token })).status).toBe(404);
    expect((await api(`/projects/${project.id}/jobs/${use.id}/artifacts/report.txt`, { token: project.owner.token })).body).toBe('use\n');
    expect((await api(`/projects/${project.id}/jobs/artifacts/consumer/raw/report.txt`, { query: { job: 'use' }, token: project.owner.token })).body).toBe('use\n');
  });
});
