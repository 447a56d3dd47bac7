/**
 * The CI Lint API as glab (`glab ci lint`) and python-gitlab (`project.ci_lint.create({...})`,
 * `.validate(...)`, `.get()`) call it: given content or the project's own file, checked as pipeline
 * creation reads it (local includes at the default branch's head or `content_ref`), with
 * `merged_yaml`, `includes`, the jobs with `include_jobs`, a simulated push pipeline with
 * `dry_run`; GitLab's errors and rights; nothing is created.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';

const REPORTER = 20;
const DEVELOPER = 30;

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are read field by field */
describe('CI Lint API', () => {
  let project: OwnedProject;
  let developer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  let head: string;
  let webUrl: string;
  const lint = (body: Record<string, unknown>, token = developer.token) => api(`/projects/${project.id}/ci/lint`, { token, body });
  const lintFile = (query: Record<string, string | boolean> = {}, token: string | undefined = developer.token) => api(`/projects/${project.id}/ci/lint`, { token, query });
  const pipelineCount = async () => (await api(`/projects/${project.id}/pipelines`, { token: project.owner.token })).body.length;

  beforeAll(async () => {
    project = await ownedProject('private');
    [developer, reporter, stranger] = await Promise.all([newMember(project, DEVELOPER), newMember(project, REPORTER), createUser()]);
    const settings = await api(`/projects/${project.id}`, { method: 'PUT', token: project.owner.token, body: { default_branch: 'main' } });
    expect(settings.status).toBe(200);
    webUrl = settings.body.web_url;
    const commit = await api(`/projects/${project.id}/repository/commits`, {
      token: project.owner.token,
      body: {
        branch: 'main',
        commit_message: 'ci',
        actions: [
          // The project's own file: valid only because of its local include (`stages:`).
          { action: 'create', file_path: '.gitlab-ci.yml', content: 'include:\n  - local: ci/stages.yml\nbuild:\n  stage: build\n  script: [make]\n' },
          { action: 'create', file_path: 'ci/stages.yml', content: 'stages: [build, test]\nlint:\n  stage: test\n  script: [lint]\n' },
        ],
      },
    });
    expect(commit.status, JSON.stringify(commit.body)).toBe(201);
    head = commit.body.id;
  });

  it('checks given content with its local includes: valid, merged_yaml, includes, and the jobs with include_jobs', async () => {
    // Act
    const content = 'include:\n  - local: /ci/stages.yml\nvariables:\n  A: "1"\ndeploy:\n  stage: test\n  script: [ship]\n  environment: production\n  needs: [lint]\n  rules:\n    - if: $CI_COMMIT_BRANCH == "nope"\n';
    const [plain, withJobs] = await Promise.all([lint({ content }), lint({ content, include_jobs: true })]);

    // Assess
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(Object.keys(plain.body)).toEqual(['valid', 'errors', 'warnings', 'merged_yaml', 'includes']);
    expect(plain.body).toMatchObject({ valid: true, errors: [], warnings: [] });
    expect(plain.body.merged_yaml).toMatch(/^---\n/);
    expect(plain.body.merged_yaml).toContain('stages:\n  - build\n  - test\n');
    expect(plain.body.merged_yaml).toContain('deploy:\n');
    expect(plain.body.merged_yaml).not.toContain('include');
    expect(plain.body.includes).toEqual([
      {
        type: 'local',
        location: 'ci/stages.yml',
        blob: `${webUrl}/-/blob/${head}/ci/stages.yml`,
        raw: `${webUrl}/-/raw/${head}/ci/stages.yml`,
        extra: {},
        context_project: project.fullPath,
        context_sha: head,
      },
    ]);
    // Every job the file defines (rules not applied), in stage order: GitLab's static entity.
    expect(withJobs.body.jobs).toEqual([
      { name: 'lint', stage: 'test', before_script: [], script: ['lint'], after_script: [], tag_list: [], only: { refs: ['branches', 'tags'] }, except: null, environment: null, when: 'on_success', allow_failure: false, needs: null },
      { name: 'deploy', stage: 'test', before_script: [], script: ['ship'], after_script: [], tag_list: [], only: null, except: null, environment: 'production', when: 'on_success', allow_failure: false, needs: [{ name: 'lint', artifacts: true, optional: false }] },
    ]);
  });

  it('answers invalid YAML, an invalid configuration, a missing include and blank content as invalid, and a missing content as 400', async () => {
    // Act
    const [syntax, config, include, blank, missing] = await Promise.all([
      lint({ content: 'build:\n  script: [a\n' }),
      lint({ content: 'build:\n  stage: nope\n  script: [make]\n', include_jobs: true }),
      lint({ content: 'include: ci/missing.yml\nbuild:\n  script: [make]\n' }),
      lint({ content: '' }),
      lint({}),
    ]);

    // Assess
    expect(syntax.status).toBe(200);
    expect(syntax.body).toMatchObject({ valid: false, warnings: [], merged_yaml: null });
    expect(syntax.body.errors).toEqual([expect.stringMatching(/^\(<unknown>\): /)]);
    expect(config.body).toMatchObject({ valid: false, errors: ['build job: chosen stage nope does not exist; available stages are .pre, build, test, deploy, .post'], jobs: [] });
    expect(config.body.merged_yaml).toContain('stage: nope');
    expect(include.body).toMatchObject({ valid: false, errors: ['Local file `ci/missing.yml` does not exist!'] });
    expect(blank.body).toMatchObject({ valid: false, errors: ['Please provide content of .gitlab-ci.yml'] });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'content is missing' });
  });

  it('simulates a push pipeline with dry_run: rules applied on the ref, its errors, and nothing created', async () => {
    // Prepare (the default branch is protected: its maintainers run pipelines there, a developer is refused)
    const before = await pipelineCount();
    const content = 'main-only:\n  script: [a]\n  rules:\n    - if: $CI_COMMIT_BRANCH == "main"\nother-only:\n  script: [b]\n  tags: [docker]\n  rules:\n    - if: $CI_COMMIT_BRANCH == "other"\n      when: manual\n';

    // Act
    const owner = project.owner.token;
    const [onMain, unknownRef, filtered, noJobs, protectedRef] = await Promise.all([
      lint({ content, dry_run: true, include_jobs: true }, owner),
      lint({ content, dry_run: true, ref: 'nope' }, owner),
      lint({ content: `workflow:\n  rules:\n    - if: $CI_COMMIT_TAG\n${content}`, dry_run: true }, owner),
      lint({ content: 'x:\n  script: [a]\n  only: [tags]\n', dry_run: true }, owner),
      lint({ content, dry_run: true }),
    ]);

    // Assess
    expect(onMain.body).toMatchObject({ valid: true, errors: [], warnings: [], includes: [] });
    expect(onMain.body.jobs).toEqual([{ name: 'main-only', stage: 'test', before_script: [], script: ['a'], after_script: [], tag_list: [], environment: null, when: 'on_success', allow_failure: false }]);
    expect(unknownRef.body).toMatchObject({ valid: false, errors: ['Reference not found'] });
    expect(filtered.body).toMatchObject({ valid: false, errors: ['Pipeline filtered out by workflow rules.'] });
    expect(noJobs.body).toMatchObject({ valid: false, errors: ['Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.'] });
    expect(protectedRef.body).toMatchObject({ valid: false, errors: ["You do not have sufficient permission to run a pipeline on 'main'. Please select a different branch or contact your administrator for assistance."] });
    expect(await pipelineCount()).toBe(before);
  });

  it("GET checks the project's own file at the default branch or content_ref, with dry_run and include_jobs", async () => {
    // Act
    const [latest, atSha, dryRun, both, unknown] = await Promise.all([
      lintFile(),
      lintFile({ content_ref: head, include_jobs: true }, reporter.token),
      lintFile({ dry_run: true, dry_run_ref: 'main', include_jobs: true }, project.owner.token),
      lintFile({ sha: head, content_ref: head }),
      lintFile({ content_ref: 'f'.repeat(40) }),
    ]);

    // Assess
    expect(latest.status, JSON.stringify(latest.body)).toBe(200);
    expect(latest.body).toMatchObject({ valid: true, errors: [], includes: [{ type: 'local', location: 'ci/stages.yml', context_sha: head }] });
    expect(latest.body.jobs).toBeUndefined();
    expect(atSha.body.jobs.map((job: any) => job.name)).toEqual(['build', 'lint']);
    expect(dryRun.body.jobs.map((job: any) => [job.name, job.stage])).toEqual([['build', 'build'], ['lint', 'test']]);
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: 'sha, content_ref are mutually exclusive' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Commit Not Found' });
  });

  it('lets developers lint given content and readers of the code lint the file; 403 below, 404 to strangers, 401 anonymous', async () => {
    // Act
    const [reporterPost, strangerPost, strangerGet, anonymousPost] = await Promise.all([
      lint({ content: 'a:\n  script: [a]\n' }, reporter.token),
      lint({ content: 'a:\n  script: [a]\n' }, stranger.token),
      lintFile({}, stranger.token),
      api(`/projects/${project.id}/ci/lint`, { body: { content: 'a:\n  script: [a]\n' } }),
    ]);

    // Assess
    expect(reporterPost.status).toBe(403);
    expect(strangerPost.status).toBe(404);
    expect(strangerPost.body).toEqual({ message: '404 Project Not Found' });
    expect(strangerGet.status).toBe(404);
    expect([401, 404]).toContain(anonymousPost.status);
  });
});
