/**
 * GitLab's CI/CD job token scope as jobs and clients use it: `GET /job` answers the job of the
 * presented token; a job of project A reaches project B (artifacts, releases, git clone) only
 * while B lets A in (A or a group above A on B's allowlist, or B's inbound scope disabled), and
 * the scope API (`/projects/:id/job_token_scope…`) is the maintainers', with GitLab's errors.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createGroup, createProject, createUser, newMember, type TestUser } from '../support/fixtures';
import { cloneUrl, git, gitOk, pushNewRepository } from '../support/git';
import { TestRunner } from './runner';

/* eslint-disable @typescript-eslint/no-explicit-any -- the job payload is read field by field */
const CI = `
build:
  script: [echo "built" > out.txt]
  artifacts:
    paths: [out.txt]
`;

async function pushed(project: { fullPath: string }, token: string): Promise<string> {
  const work = await pushNewRepository(project.fullPath, token, { '.gitlab-ci.yml': CI });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: work })).trim();
}

async function runnerOf(projectId: number, token: string): Promise<TestRunner> {
  return TestRunner.register((await api(`/projects/${projectId}`, { token })).body.runners_token);
}

const scope = (id: number, rest = '') => `/projects/${id}/job_token_scope${rest}`;

describe('CI/CD job token scope', () => {
  let owner: TestUser;
  let group: { id: number; fullPath: string };
  let a: { id: number; fullPath: string };
  let b: { id: number; fullPath: string };
  let bSha: string;
  let job: any;

  beforeAll(async () => {
    owner = await createUser();
    group = await createGroup(owner.token);
    // A (the job's project) in a group, B (the one reached) private in the owner's namespace: the job's user may read both.
    a = await createProject(owner.token, { namespace_id: group.id, visibility: 'private' });
    b = await createProject(owner.token, { visibility: 'private' });
    [, bSha] = await Promise.all([pushed(a, owner.token), pushed(b, owner.token)]);
    const [runnerA, runnerB] = await Promise.all([runnerOf(a.id, owner.token), runnerOf(b.id, owner.token)]);
    expect((await runnerB.runNext())?.state).toBe('success');
    expect((await api(`/projects/${b.id}/releases`, { token: owner.token, body: { tag_name: 'v1', ref: 'main', name: 'One' } })).status).toBe(201);
    job = await runnerA.pickNext();
  });

  it('GET /job answers the job of the JOB-TOKEN header or job_token parameter; 404 for a user token, 401 for no running job', async () => {
    const byHeader = await api('/job', { headers: { 'JOB-TOKEN': job.token } });
    expect(byHeader.status).toBe(200);
    expect(byHeader.body).toMatchObject({ id: job.id, name: 'build', status: 'running', ref: 'main', stage: 'test', user: { username: owner.username } });
    expect(byHeader.body.pipeline).toMatchObject({ project_id: a.id, ref: 'main' });
    expect(byHeader.body.web_url).toContain(`/${a.fullPath}/-/jobs/${job.id}`);
    expect((await api('/job', { query: { job_token: job.token } })).body.id).toBe(job.id);

    expect(await api('/job', { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Job Not Found' } });
    expect(await api('/job', { headers: { 'JOB-TOKEN': `${job.token}x` } })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect((await api('/job')).status).toBe(401);
  });

  /** What A's job gets from B: artifacts by ref, a release, and `git ls-remote` with `gitlab-ci-token`. */
  async function reach(): Promise<{ artifacts: number; release: number; git: string | undefined }> {
    const asJob = { headers: { 'JOB-TOKEN': job.token } };
    const [artifacts, release, listed] = await Promise.all([
      api(`/projects/${b.id}/jobs/artifacts/main/download`, { ...asJob, query: { job: 'build' } }),
      api(`/projects/${b.id}/releases/v1`, asJob),
      git(['ls-remote', cloneUrl(b.fullPath, job.token, 'gitlab-ci-token'), 'refs/heads/main']),
    ]);
    return { artifacts: artifacts.status, release: release.status, git: listed.code === 0 ? listed.stdout.split('\t')[0] : undefined };
  }

  const refused = { artifacts: 404, release: 404, git: undefined };

  it('lets A’s job into B only while B allowlists A, a group above A, or disables its inbound scope', async () => {
    const allowed = { artifacts: 200, release: 200, git: bSha };
    const as = { token: owner.token };
    expect(await reach()).toEqual(refused);

    expect(await api(scope(b.id, '/allowlist'), { ...as, body: { target_project_id: a.id } })).toMatchObject({ status: 201, body: { source_project_id: b.id, target_project_id: a.id } });
    expect(await reach()).toEqual(allowed);
    expect((await api(scope(b.id, `/allowlist/${a.id}`), { ...as, method: 'DELETE' })).status).toBe(204);
    expect(await reach()).toEqual(refused);

    expect(await api(scope(b.id, '/groups_allowlist'), { ...as, body: { target_group_id: group.id } })).toMatchObject({ status: 201, body: { source_project_id: b.id, target_group_id: group.id } });
    expect(await reach()).toEqual(allowed);
    expect((await api(scope(b.id, `/groups_allowlist/${group.id}`), { ...as, method: 'DELETE' })).status).toBe(204);
    expect(await reach()).toEqual(refused);

    expect((await api(scope(b.id), { ...as, method: 'PATCH', body: { enabled: false } })).status).toBe(204);
    expect(await api(scope(b.id), as)).toMatchObject({ status: 200, body: { inbound_enabled: false, outbound_enabled: false } });
    expect(await reach()).toEqual(allowed);
    expect((await api(scope(b.id), { ...as, method: 'PATCH', body: { enabled: true } })).status).toBe(204);
    expect(await reach()).toEqual(refused);
  });

  it('is the maintainers’ API, with GitLab’s answers and errors', async () => {
    const as = { token: owner.token };
    const developer = await newMember(b, 30);
    const stranger = await createUser();
    expect(await api(scope(b.id), as)).toMatchObject({ status: 200, body: { inbound_enabled: true, outbound_enabled: false } });
    expect(await api(scope(b.id), { token: developer.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await api(scope(b.id, '/allowlist'), { token: stranger.token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api(scope(b.id), { ...as, method: 'PATCH', body: {} })).toMatchObject({ status: 400, body: { error: 'enabled is missing' } });

    // Adding: missing, unknown, unreadable, itself, twice.
    const add = (body: unknown, kind = 'allowlist') => api(scope(b.id, `/${kind}`), { ...as, body });
    expect(await add({})).toMatchObject({ status: 400, body: { error: 'target_project_id is missing' } });
    expect(await add({ target_project_id: 999_999_999 })).toMatchObject({ status: 404, body: { message: '404 target_project_id not found Not Found' } });
    const foreign = await createProject(stranger.token, { visibility: 'private' });
    expect(await add({ target_project_id: foreign.id })).toMatchObject({
      status: 400,
      body: { message: "400 Bad request - The target_project that you are attempting to access does not exist or you don't have permission to perform this action" },
    });
    expect(await add({ target_project_id: b.id })).toMatchObject({ status: 400, body: { message: "400 Bad request - Validation failed: Target project can't be the same as the source project" } });
    // Parallel adds of one target: one wins, the others are told it is there already.
    const racing = await Promise.all(Array.from({ length: 4 }, () => add({ target_project_id: a.id })));
    expect(racing.map((response) => response.status).sort()).toEqual([201, 400, 400, 400]);
    expect(await add({ target_project_id: a.id })).toMatchObject({ status: 400, body: { message: '400 Bad request - Target project is already in the job token scope' } });

    const foreignGroup = await createGroup(stranger.token, { visibility: 'private' });
    expect(await add({ target_group_id: 999_999_999 }, 'groups_allowlist')).toMatchObject({ status: 404, body: { message: '404 target_group_id not found Not Found' } });
    expect(await add({ target_group_id: foreignGroup.id }, 'groups_allowlist')).toMatchObject({
      status: 400,
      body: { message: "400 Bad request - The target_group that you are attempting to access does not exist or you don't have permission to perform this action" },
    });
    expect((await add({ target_group_id: group.id }, 'groups_allowlist')).status).toBe(201);
    expect(await add({ target_group_id: group.id }, 'groups_allowlist')).toMatchObject({ status: 400, body: { message: '400 Bad request - Target group is already in the job token scope' } });

    // Lists: the project itself first, then its entries (BasicProjectDetails); groups as BasicGroupDetails; paged.
    const projects = await api(scope(b.id, '/allowlist'), as);
    expect(projects.status).toBe(200);
    expect(projects.body.map((project: any) => project.id)).toEqual([b.id, a.id]);
    expect(projects.body[1]).toMatchObject({ path_with_namespace: a.fullPath, namespace: { id: group.id } });
    expect(projects.headers.get('x-total')).toBe('2');
    const firstPage = await api(scope(b.id, '/allowlist'), { ...as, query: { per_page: 1 } });
    expect(firstPage.body.map((project: any) => project.id)).toEqual([b.id]);
    expect(firstPage.headers.get('x-next-page')).toBe('2');
    const groups = await api(scope(b.id, '/groups_allowlist'), as);
    expect(groups.body).toEqual([{ id: group.id, name: expect.any(String), web_url: expect.stringContaining(`/groups/${group.fullPath}`) }]);

    // Removing: a developer, the project itself, what is not on the list, an unknown target.
    const remove = (rest: string, token = owner.token) => api(scope(b.id, rest), { token, method: 'DELETE' });
    expect(await remove(`/groups_allowlist/${group.id}`, developer.token)).toMatchObject({ status: 403, body: { message: '403 Forbidden - Insufficient permissions to modify the job token scope' } });
    // GitLab finds the target project as the caller first: one they cannot see is a 404.
    expect(await remove(`/allowlist/${a.id}`, developer.token)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await remove(`/allowlist/${b.id}`)).toMatchObject({ status: 400, body: { message: '400 Bad request - Source project cannot be removed from the job token scope' } });
    expect(await remove(`/allowlist/${foreign.id}`)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect((await remove(`/allowlist/${a.id}`)).status).toBe(204);
    expect(await remove(`/allowlist/${a.id}`)).toMatchObject({ status: 400, body: { message: '400 Bad request - Target project is not in the job token scope' } });
    expect((await remove(`/groups_allowlist/${group.id}`)).status).toBe(204);
    expect(await remove(`/groups_allowlist/${group.id}`)).toMatchObject({ status: 400, body: { message: '400 Bad request - Target group is not in the job token scope' } });
    expect(await reach()).toEqual(refused);
  });

  it('drops the entries of deleted projects and groups from the lists, taking them off; such an entry can still be deleted', async () => {
    // Prepare: a source project allowlisting two projects and two groups, then one of each kind deleted before a list and one after.
    const as = { token: owner.token };
    const source = await createProject(owner.token, { visibility: 'private' });
    const [kept, listedGone, removedGone] = await Promise.all([1, 2, 3].map(() => createProject(owner.token, { visibility: 'private' })));
    const [keptGroup, listedGoneGroup, removedGoneGroup] = await Promise.all([1, 2, 3].map(() => createGroup(owner.token)));
    for (const target of [kept, listedGone, removedGone]) expect((await api(scope(source.id, '/allowlist'), { ...as, body: { target_project_id: target.id } })).status).toBe(201);
    for (const target of [keptGroup, listedGoneGroup, removedGoneGroup]) expect((await api(scope(source.id, '/groups_allowlist'), { ...as, body: { target_group_id: target.id } })).status).toBe(201);
    for (const gone of [listedGone, removedGone]) expect((await api(`/projects/${gone.id}`, { ...as, method: 'DELETE' })).status).toBe(202);
    for (const gone of [listedGoneGroup, removedGoneGroup]) expect((await api(`/groups/${gone.id}`, { ...as, method: 'DELETE' })).status).toBe(202);

    // Act
    const removed = [
      (await api(scope(source.id, `/allowlist/${removedGone.id}`), { ...as, method: 'DELETE' })).status,
      (await api(scope(source.id, `/groups_allowlist/${removedGoneGroup.id}`), { ...as, method: 'DELETE' })).status,
    ];
    const projects = await api(scope(source.id, '/allowlist'), as);
    const groups = await api(scope(source.id, '/groups_allowlist'), as);

    // Assess: what is gone is neither listed nor counted, and once taken off, not on the list any more (404 as for any unknown target).
    expect(removed).toEqual([204, 204]);
    expect({ projects: projects.body.map((project: any) => project.id), total: projects.headers.get('x-total') }).toEqual({ projects: [source.id, kept.id], total: '2' });
    expect({ groups: groups.body.map((group: any) => group.id), total: groups.headers.get('x-total') }).toEqual({ groups: [keptGroup.id], total: '1' });
    expect(await api(scope(source.id, `/allowlist/${listedGone.id}`), { ...as, method: 'DELETE' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await api(scope(source.id, `/groups_allowlist/${listedGoneGroup.id}`), { ...as, method: 'DELETE' })).toMatchObject({ status: 404, body: { message: '404 target_group_id not found Not Found' } });
  });
});
