/**
 * The releases API over HTTP, as its clients use it: semantic-release's flow (create with a tag
 * from `ref`, a description and asset links, then read by tag), python-gitlab's (create, list,
 * add a link) and a real client's (gitbeaker), the entity's fields by who asks, the permissions, one release per tag under
 * parallel creates, and a deleted tag taking its release with it.
 */
import { Gitlab } from '@gitbeaker/rest';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl } from '../support/api';
import { newMember, ownedProject, type OwnedProject } from '../support/fixtures';
import { createFiles, enc } from '../repository/api/helpers';
import { pushNewRepository } from '../support/git';
import { TestRunner } from '../ci/runner';

const GUEST = 10;
const REPORTER = 20;
const DEVELOPER = 30;

const releases = (projectId: number, path = '') => `/projects/${projectId}/releases${path}`;

describe('releases', () => {
  let project: OwnedProject;
  let head: { id: string };
  beforeAll(async () => {
    project = await ownedProject('public');
    head = await createFiles(project.id, project.owner.token, { 'a.txt': 'a' });
  });

  it('creates a release and its tag from a ref, with links, and reads it by tag (semantic-release)', async () => {
    // Act
    const create = await api(releases(project.id), {
      token: project.owner.token,
      body: {
        tag_name: 'v1.0.0',
        ref: head.id,
        name: 'v1.0.0',
        description: '## Changes\n\n* first',
        assets: { links: [{ name: 'dist.tgz', url: 'https://example.com/dist.tgz', link_type: 'package', direct_asset_path: '/bin/dist' }] },
      },
    });
    const show = await api(releases(project.id, '/v1.0.0'), { token: project.owner.token });
    const tag = await api(`/projects/${project.id}/repository/tags/v1.0.0`, { token: project.owner.token });
    const anonymous = await api(releases(project.id, '/v1.0.0'));

    // Assess
    expect(create.status, JSON.stringify(create.body)).toBe(201);
    expect(Object.keys(create.body)).toEqual([
      'name', 'tag_name', 'description', 'created_at', 'released_at', 'author', 'commit', 'upcoming_release',
      'commit_path', 'tag_path', 'assets', 'evidences', '_links',
    ]);
    expect(create.body).toMatchObject({
      name: 'v1.0.0',
      tag_name: 'v1.0.0',
      description: '## Changes\n\n* first',
      author: { id: project.owner.id },
      commit: { id: head.id },
      upcoming_release: false,
      commit_path: `/${project.fullPath}/-/commit/${head.id}`,
      tag_path: `/${project.fullPath}/-/tags/v1.0.0`,
      evidences: [],
    });
    expect(create.body.assets.count).toBe(5);
    expect(create.body.assets.sources.map((s: { format: string }) => s.format)).toEqual(['zip', 'tar.gz', 'tar.bz2', 'tar']);
    expect(create.body.assets.sources[0].url).toMatch(new RegExp(`/api/v4/projects/${project.id}/repository/archive\\.zip\\?sha=v1\\.0\\.0$`));
    expect(create.body.assets.links).toEqual([
      {
        id: expect.any(Number),
        name: 'dist.tgz',
        url: 'https://example.com/dist.tgz',
        direct_asset_url: expect.stringMatching(new RegExp(`/${project.fullPath}/-/releases/v1\\.0\\.0/downloads/bin/dist$`)),
        external: true,
        link_type: 'package',
      },
    ]);
    expect(create.body._links.self).toMatch(new RegExp(`/${project.fullPath}/-/releases/v1\\.0\\.0$`));
    expect(create.body._links.edit_url).toMatch(/\/-\/releases\/v1\.0\.0\/edit$/);
    expect(show.status).toBe(200);
    expect(show.body).toEqual(create.body);
    expect(tag.status).toBe(200);
    expect(tag.body.commit.id).toBe(head.id);
    // Anonymous callers of a public project read the code, so they see it all but the edit link.
    const { edit_url: _edit, ...links } = create.body._links;
    expect(anonymous.body).toEqual({ ...create.body, _links: links });
  });

  it('creates, lists and adds links as python-gitlab does; orders by released_at or created_at', async () => {
    // Prepare: releases of existing tags, released in another order than created.
    for (const [tag, releasedAt] of [['r1', '2020-01-01T00:00:00Z'], ['r2', '2019-01-01T00:00:00Z'], ['r3', '2030-01-01T00:00:00Z']] as const) {
      expect((await api(`/projects/${project.id}/repository/tags`, { token: project.owner.token, body: { tag_name: tag, ref: 'main' } })).status).toBe(201);
      const response = await api(releases(project.id), { token: project.owner.token, body: { tag_name: tag, released_at: releasedAt } });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body.name).toBe(tag);
    }

    // Act
    const byReleased = await api(releases(project.id), { token: project.owner.token, query: { per_page: 2 } });
    const next = await api(releases(project.id), { token: project.owner.token, query: { per_page: 2, page: 2 } });
    const byCreated = await api(releases(project.id), { token: project.owner.token, query: { order_by: 'created_at', sort: 'asc' } });
    const link = await api(releases(project.id, '/r3/assets/links'), { token: project.owner.token, body: { name: 'doc', url: `https://example.com/doc` } });
    const duplicate = await api(releases(project.id, '/r3/assets/links'), { token: project.owner.token, body: { name: 'doc', url: 'https://example.com/other' } });
    const edited = await api(releases(project.id, `/r3/assets/links/${link.body.id}`), { method: 'PUT', token: project.owner.token, body: { name: 'docs' } });
    const links = await api(releases(project.id, '/r3/assets/links'), { token: project.owner.token });
    const upcoming = await api(releases(project.id, '/r3'), { token: project.owner.token });

    // Assess
    expect(byReleased.body.map((r: { tag_name: string }) => r.tag_name)).toEqual(['r3', 'v1.0.0']);
    expect(next.body.map((r: { tag_name: string }) => r.tag_name)).toEqual(['r1', 'r2']);
    expect(byCreated.body.map((r: { tag_name: string }) => r.tag_name)).toEqual(['v1.0.0', 'r1', 'r2', 'r3']);
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({ name: 'doc', link_type: 'other', direct_asset_url: 'https://example.com/doc' });
    expect(duplicate).toMatchObject({ status: 400, body: { message: ['Name has already been taken'] } });
    expect(edited.body).toMatchObject({ id: link.body.id, name: 'docs', url: 'https://example.com/doc' });
    expect(links.body.map((l: { name: string }) => l.name)).toEqual(['docs']);
    expect(upcoming.body).toMatchObject({ upcoming_release: true, assets: { count: 5 } });
  });

  it('answers GitLab errors: one release per tag, a tag without ref, unknown tags and links', async () => {
    // Act
    const again = await api(releases(project.id), { token: project.owner.token, body: { tag_name: 'v1.0.0' } });
    const noRef = await api(releases(project.id), { token: project.owner.token, body: { tag_name: 'nothing-yet' } });
    const badRef = await api(releases(project.id), { token: project.owner.token, body: { tag_name: 'nothing-yet', ref: 'nope' } });
    const missing = await api(releases(project.id, '/nope'), { token: project.owner.token });
    const editMissing = await api(releases(project.id, '/nope'), { method: 'PUT', token: project.owner.token, body: { name: 'x' } });
    const empty = await api(releases(project.id, '/v1.0.0'), { method: 'PUT', token: project.owner.token, body: {} });
    const milestone = await api(releases(project.id, '/v1.0.0'), { method: 'PUT', token: project.owner.token, body: { milestones: ['m-nope'] } });
    const linkMissing = await api(releases(project.id, '/nope/assets/links'), { token: project.owner.token });

    // Assess
    expect(again).toMatchObject({ status: 409, body: { message: 'Release already exists' } });
    expect(noRef).toMatchObject({ status: 422, body: { message: 'Ref is not specified' } });
    expect(badRef.status).toBe(400);
    expect(missing).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect(editMissing.status).toBe(403);
    expect(empty).toMatchObject({ status: 400, body: { message: 'params is empty' } });
    expect(milestone).toMatchObject({ status: 400, body: { message: 'Milestone(s) not found: m-nope' } });
    expect(linkMissing).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('writes exactly one of parallel creates of one tag', async () => {
    // Act
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) => api(releases(project.id), { token: project.owner.token, body: { tag_name: 'race/1', ref: 'main', description: `d${i}` } })),
    );

    // Assess
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const show = await api(releases(project.id, `/${enc('race/1')}`), { token: project.owner.token });
    expect(show.body).toMatchObject({ tag_name: 'race/1', description: responses.find((r) => r.status === 201)!.body.description });
  });

  it('edits, deletes (the tag stays) and drops the release of a deleted tag', async () => {
    // Prepare
    expect((await api(releases(project.id), { token: project.owner.token, body: { tag_name: 'gone/1', ref: 'main' } })).status).toBe(201);
    expect((await api(releases(project.id), { token: project.owner.token, body: { tag_name: 'kept', ref: 'main' } })).status).toBe(201);

    const milestone = await api(`/projects/${project.id}/milestones`, { token: project.owner.token, body: { title: 'M1' } });
    expect(milestone.status).toBe(201);

    // Act
    const edited = await api(releases(project.id, '/kept'), { method: 'PUT', token: project.owner.token, body: { name: 'Kept', description: 'new', milestones: ['M1'] } });
    const deleted = await api(releases(project.id, '/kept'), { method: 'DELETE', token: project.owner.token });
    const tagKept = await api(`/projects/${project.id}/repository/tags/kept`, { token: project.owner.token });
    const tagDeleted = await api(`/projects/${project.id}/repository/tags/${enc('gone/1')}`, { method: 'DELETE', token: project.owner.token });

    // Assess
    expect(edited.body).toMatchObject({ name: 'Kept', description: 'new', tag_name: 'kept', milestones: [{ id: milestone.body.id, title: 'M1' }] });
    expect(deleted).toMatchObject({ status: 200, body: { tag_name: 'kept', name: 'Kept' } });
    expect((await api(releases(project.id, '/kept'), { token: project.owner.token })).status).toBe(404);
    expect(tagKept.status).toBe(200);
    expect(tagDeleted.status).toBe(204);
    expect((await api(releases(project.id, `/${enc('gone/1')}`), { token: project.owner.token })).status).toBe(404);
  });
});

describe('releases permissions', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject('private');
    await createFiles(project.id, project.owner.token, { 'a.txt': 'a' });
    const response = await api(releases(project.id), { token: project.owner.token, body: { tag_name: 'v1', ref: 'main' } });
    expect(response.status).toBe(201);
  });

  it('lets developers write; reporters read; guests list without the code; strangers see nothing', async () => {
    // Prepare
    const [developer, reporter, guest] = await Promise.all([newMember(project, DEVELOPER), newMember(project, REPORTER), newMember(project, GUEST)]);

    // Act
    const byDeveloper = await api(releases(project.id), { token: developer.token, body: { tag_name: 'v2', ref: 'main' } });
    const byReporter = await api(releases(project.id), { token: reporter.token, body: { tag_name: 'v3', ref: 'main' } });
    const reporterShow = await api(releases(project.id, '/v1'), { token: reporter.token });
    const guestList = await api(releases(project.id), { token: guest.token });
    const guestShow = await api(releases(project.id, '/v1'), { token: guest.token });
    const reporterEdit = await api(releases(project.id, '/v1'), { method: 'PUT', token: reporter.token, body: { name: 'x' } });
    const anonymous = await api(releases(project.id));

    // Assess
    expect(byDeveloper.status).toBe(201);
    expect(byReporter.status).toBe(403);
    expect(reporterShow.status).toBe(200);
    expect(reporterShow.body._links).not.toHaveProperty('edit_url');
    expect(guestList.status).toBe(200);
    const hidden = guestList.body.find((r: { name: string }) => r.name === 'v1');
    expect(hidden).not.toHaveProperty('tag_name');
    expect(hidden).not.toHaveProperty('commit');
    expect(hidden.assets).toEqual({ count: 0, links: [] });
    expect(guestShow.status).toBe(403);
    expect(reporterEdit.status).toBe(403);
    expect(anonymous.status).toBe(404);
  });

  it('keeps a protected tag’s releases to those its protection lets create the tag', async () => {
    // Prepare: tags `stable-*` are created by maintainers only.
    const developer = await newMember(project, DEVELOPER);
    const protect = await api(`/projects/${project.id}/protected_tags`, { token: project.owner.token, body: { name: 'stable-*', create_access_level: 40 } });
    expect(protect.status).toBe(201);

    // Act
    const byDeveloper = await api(releases(project.id), { token: developer.token, body: { tag_name: 'stable-1', ref: 'main' } });
    const byOwner = await api(releases(project.id), { token: project.owner.token, body: { tag_name: 'stable-1', ref: 'main' } });
    const developerEdit = await api(releases(project.id, '/stable-1'), { method: 'PUT', token: developer.token, body: { name: 'x' } });
    const developerLink = await api(releases(project.id, '/stable-1/assets/links'), { token: developer.token, body: { name: 'bin', url: 'https://example.com/bin' } });
    const developerDelete = await api(releases(project.id, '/stable-1'), { method: 'DELETE', token: developer.token });
    const developerElsewhere = await api(releases(project.id), { token: developer.token, body: { tag_name: 'dev-1', ref: 'main' } });

    // Assess
    expect(byDeveloper.status).toBe(403);
    expect(byOwner.status).toBe(201);
    expect([developerEdit.status, developerLink.status, developerDelete.status]).toEqual([403, 403, 403]);
    expect(developerElsewhere.status).toBe(201);
    expect((await api(releases(project.id, '/stable-1'), { token: project.owner.token })).body.name).toBe('stable-1');
  });
});

describe('releases through gitbeaker', () => {
  it('creates a release of a new tag with a slash, adds, edits and removes a link, lists and deletes it', async () => {
    // Prepare
    const project = await ownedProject('private');
    await createFiles(project.id, project.owner.token, { 'a.txt': 'a' });
    const gitlab = new Gitlab({ host: baseUrl(), token: project.owner.token });

    // Act
    const release = await gitlab.ProjectReleases.create(project.id, { tagName: 'release/2.0', ref: 'main', description: 'notes', tagMessage: 'annotated' });
    const link = await gitlab.ReleaseLinks.create(project.id, 'release/2.0', 'installer', 'https://example.com/setup.exe', { linkType: 'package' });
    const edited = await gitlab.ReleaseLinks.edit(project.id, 'release/2.0', link.id, { url: 'https://example.com/setup2.exe' });
    const shown = await gitlab.ProjectReleases.show(project.id, 'release/2.0');
    await gitlab.ReleaseLinks.remove(project.id, 'release/2.0', link.id);
    const links = await gitlab.ReleaseLinks.all(project.id, 'release/2.0');
    const all = await gitlab.ProjectReleases.all(project.id);
    await gitlab.ProjectReleases.remove(project.id, 'release/2.0');
    const tag = await gitlab.Tags.show(project.id, 'release/2.0');

    // Assess
    expect(release).toMatchObject({ tag_name: 'release/2.0', name: 'release/2.0', description: 'notes' });
    expect(link).toMatchObject({ name: 'installer', link_type: 'package' });
    expect(edited).toMatchObject({ id: link.id, url: 'https://example.com/setup2.exe' });
    expect((shown.assets as { links: unknown[] }).links).toEqual([edited]);
    expect(links).toEqual([]);
    expect(all.map((r) => r.tag_name)).toEqual(['release/2.0']);
    expect(tag).toMatchObject({ name: 'release/2.0', message: 'annotated' });
    expect((await api(releases(project.id), { token: project.owner.token })).body).toEqual([]);
  });
});

describe('releases from CI: the `release:` keyword’s step, and a job’s token (release-cli, curl with $CI_JOB_TOKEN)', () => {
  it('authenticates a running job as its user in its own project only, and nowhere once the job is done', async () => {
    // Prepare: `build` leaves artifacts; `release` runs after it and is held running.
    const project = await ownedProject('private');
    const other = await ownedProject('private');
    await pushNewRepository(project.fullPath, project.owner.token, { '.gitlab-ci.yml': 'build:\n  stage: build\n  script: [mkdir -p out, echo built > out/a.txt]\n  artifacts:\n    paths: [out/]\nrelease:\n  stage: deploy\n  script: [echo]\n  release: { tag_name: v1.0, ref: main, description: from CI }\n' });
    const runner = await TestRunner.register((await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token);
    const built = await runner.runNext();
    expect(built?.state).toBe('success');
    const job = await runner.pickNext();
    const asJob = { headers: { 'JOB-TOKEN': job.token } };

    // Act: what the job's release step (release-cli) sends
    const created = await api(releases(project.id), { ...asJob, body: { tag_name: 'v1.0', ref: 'main', description: 'from CI' } });
    const read = await api(releases(project.id, '/v1.0'), asJob);
    const artifacts = await api(`/projects/${project.id}/jobs/${built!.job.id}/artifacts`, asJob);
    const elsewhere = await api(releases(other.id), asJob);
    const notTaken = await api(`/projects/${project.id}/issues`, asJob);
    const forged = await api(releases(project.id), { headers: { 'JOB-TOKEN': `${job.token}x` } });
    expect((await runner.update(job, 'success')).status).toBe(200);
    const afterwards = await api(releases(project.id), asJob);

    // Assess
    expect(job.steps.map((step: { name: string }) => step.name)).toEqual(['script', 'release']);
    expect(job.steps[1]).toMatchObject({ script: ['release-cli create --description "from CI" --tag-name "v1.0" --ref "main"'], when: 'on_success', allow_failure: false });
    expect(created).toMatchObject({ status: 201, body: { tag_name: 'v1.0', description: 'from CI', author: { id: project.owner.id } } });
    expect(read.status).toBe(200);
    expect(artifacts.status).toBe(200);
    expect(elsewhere).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(notTaken.status).toBe(401);
    expect(forged.status).toBe(401);
    expect(afterwards.status).toBe(401);
  });
});
