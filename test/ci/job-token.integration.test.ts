/**
 * A running job's token as a git credential, as gitlab-runner uses it: the job's `repo_url`
 * (`http://gitlab-ci-token:<job token>@host/<path>.git`) clones its own project, private or not,
 * with the real git CLI. Nothing can be pushed with it (GitLab's 403 "You are not allowed to
 * upload code."), another private project stays hidden (404, as for any stranger), and once the
 * job has finished the token authenticates nothing (401).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { ownedProject, type OwnedProject } from '../support/fixtures';
import { cloneUrl, commitFiles, git, gitOk, pushNewRepository, scratch } from '../support/git';
import { TestRunner } from './runner';

const CI = `
job:
  script: [echo "hello from $CI_PROJECT_PATH"]
`;

/* eslint-disable @typescript-eslint/no-explicit-any -- the job payload is read field by field */
async function pushed(project: OwnedProject, files: Record<string, string>): Promise<string> {
  const work = await pushNewRepository(project.fullPath, project.owner.token, files);
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: work })).trim();
}


/** The job's `repo_url` without its credentials, and an `Authorization` header for the job token (for plain HTTP requests). */
function addressOf(job: any): { url: string; authorization: string } {
  const url = new URL(job.git_info.repo_url);
  const authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  url.username = '';
  url.password = '';
  return { url: url.toString(), authorization };
}

/** The same repository address, for the job token, of another project. */
function withJobToken(project: { fullPath: string }, job: any): string {
  return cloneUrl(project.fullPath, job.token, 'gitlab-ci-token');
}

describe('the job token over smart HTTP', () => {
  let project: OwnedProject;
  let sha: string;
  let runner: TestRunner;
  let job: any;

  beforeAll(async () => {
    project = await ownedProject('private');
    sha = await pushed(project, { '.gitlab-ci.yml': CI, 'README.md': '# job token\n' });
    const token = (await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token;
    runner = await TestRunner.register(token);
    job = await runner.pickNext();
  });

  it('hands the runner a repo_url with gitlab-ci-token and the job token', () => {
    const url = new URL(job.git_info.repo_url);
    expect(url.username).toBe('gitlab-ci-token');
    expect(decodeURIComponent(url.password)).toBe(job.token);
    expect(url.pathname).toBe(`/${project.fullPath}.git`);
  });

  it('clones the job’s own private project with the job’s repo_url while the job runs', async () => {
    const dir = scratch('job-clone-');
    await gitOk(['clone', '-q', job.git_info.repo_url, dir]);
    expect((await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim()).toBe(sha);
    expect((await gitOk(['ls-remote', job.git_info.repo_url, 'refs/heads/main'])).split('\t')[0]).toBe(sha);
    // The refspecs gitlab-runner fetches.
    await gitOk(['fetch', '-q', 'origin', ...job.git_info.refspecs], { cwd: dir });
  });

  it('refuses a push with the job token: 403 "You are not allowed to upload code."', async () => {
    const dir = scratch('job-push-');
    await gitOk(['clone', '-q', job.git_info.repo_url, dir]);
    await commitFiles(dir, { 'from-job.txt': 'pushed by a job\n' }, 'a commit made by a job');
    const pushedByJob = await git(['push', 'origin', 'HEAD:refs/heads/from-job'], { cwd: dir });
    expect(pushedByJob.code).not.toBe(0);
    expect(pushedByJob.stderr).toContain('You are not allowed to upload code.');
    expect(pushedByJob.stderr).toContain('403');
    expect((await api(`/projects/${project.id}/repository/branches/from-job`, { token: project.owner.token })).status).toBe(404);

    // The same answer for the receive-pack advertisement itself, before any pack is sent.
    const { url, authorization } = addressOf(job);
    const advertised = await fetch(`${url}/info/refs?service=git-receive-pack`, { headers: { Authorization: authorization } });
    expect(advertised.status).toBe(403);
    expect(await advertised.text()).toBe('You are not allowed to upload code.\n');
  });

  it('does not read another private project (404, as for a stranger), but reads a public one as anyone can', async () => {
    const other = await ownedProject('private');
    await pushed(other, { 'secret.txt': 'not for that job\n' });
    const hidden = await git(['ls-remote', withJobToken(other, job)]);
    expect(hidden.code).not.toBe(0);
    expect(hidden.stderr).toMatch(/not found/);
    const response = await fetch(`${cloneUrl(other.fullPath)}/info/refs?service=git-upload-pack`, { headers: { Authorization: addressOf(job).authorization } });
    expect(response.status).toBe(404);
    await response.text();

    const open = await ownedProject('public');
    const openSha = await pushed(open, { 'README.md': '# open\n' });
    expect((await gitOk(['ls-remote', withJobToken(open, job), 'refs/heads/main'])).split('\t')[0]).toBe(openSha);
  });

  it('is no credential under another username (it is not a personal access token)', async () => {
    const result = await git(['ls-remote', cloneUrl(project.fullPath, job.token, 'oauth2')]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Authentication failed');
  });

  it('stops working once the job has finished (401)', async () => {
    expect(await runner.run(job)).toBe('success');
    expect((await api(`/projects/${project.id}/jobs/${job.id}`, { token: project.owner.token })).body.status).toBe('success');
    const result = await git(['ls-remote', job.git_info.repo_url]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Authentication failed');
    const { url, authorization } = addressOf(job);
    const response = await fetch(`${url}/info/refs?service=git-upload-pack`, { headers: { Authorization: authorization } });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
    await response.text();
  });
});
