/**
 * Project and group badges as python-gitlab calls them (`project.badges`, `group.badges`,
 * `.render(link_url, image_url)`): CRUD, placeholders rendered for a project, a project's list
 * holding its group's badges, permissions and GitLab's validation answers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { badgeKeys } from '../../shared/badges/store/keys';
import { getItem } from '../../shared/platform/dynamo/query';
import { api, isLocalRuntime, rootToken } from '../support/api';
import { eventually } from '../support/eventually';
import { addMember, createGroup, createProject, createUser, newMember, unique, type TestUser } from '../support/fixtures';

const MAINTAINER = 40;
const DEVELOPER = 30;

describe('project and group badges', () => {
  let owner: TestUser;
  let developer: TestUser;
  let groupMaintainer: TestUser;
  let group: { id: number; fullPath: string };
  let project: { id: number; path: string; fullPath: string; name: string; host: string };
  let commitSha: string;

  const badgesOf = (kind: 'projects' | 'groups', id: number) => `/${kind}/${id}/badges`;

  beforeAll(async () => {
    [owner, developer, groupMaintainer] = await Promise.all([createUser(), createUser(), createUser()]);
    group = await createGroup(owner.token, { visibility: 'public' });
    const name = unique('Badge Project ');
    const created = await createProject(owner.token, { name, namespace_id: group.id, visibility: 'public' });
    const detail = await api(`/projects/${created.id}`, { token: owner.token });
    project = { ...created, name, host: new URL(detail.body.web_url).hostname };
    await Promise.all([addMember('projects', project.id, developer.id, DEVELOPER), addMember('groups', group.id, groupMaintainer.id, MAINTAINER)]);
    const commit = await api(`/projects/${project.id}/repository/commits`, {
      token: owner.token,
      body: { branch: 'main', commit_message: 'first', actions: [{ action: 'create', file_path: 'README.md', content: 'hi' }] },
    });
    expect(commit.status, JSON.stringify(commit.body)).toBe(201);
    commitSha = commit.body.id;
    const tag = await api(`/projects/${project.id}/repository/tags`, { token: owner.token, body: { tag_name: 'v1.0', ref: 'main' } });
    expect(tag.status, JSON.stringify(tag.body)).toBe(201);
  });

  it('adds, reads, edits, lists and deletes a project badge (a maintainer)', async () => {
    // Prepare
    const maintainer = await newMember(project, MAINTAINER);
    const path = badgesOf('projects', project.id);

    // Act
    const added = await api(path, { token: maintainer.token, body: { link_url: ' https://ci.example.com/%{project_id} ', image_url: 'https://img.example.com/b.svg', name: 'ci' } });
    const id = added.body.id;
    const read = await api(`${path}/${id}`, { token: maintainer.token });
    const edited = await api(`${path}/${id}`, { method: 'PUT', token: maintainer.token, body: { name: 'ci status' } });
    const listed = await api(path, { token: maintainer.token, query: { name: 'ci status' } });
    // Two edits of different fields at once: neither is lost.
    await Promise.all([
      api(`${path}/${id}`, { method: 'PUT', token: maintainer.token, body: { image_url: 'https://img.example.com/c.svg' } }),
      api(`${path}/${id}`, { method: 'PUT', token: maintainer.token, body: { name: 'ci' } }),
    ]);
    const both = await api(`${path}/${id}`, { token: maintainer.token });
    const deleted = await api(`${path}/${id}`, { method: 'DELETE', token: maintainer.token });
    const gone = await api(`${path}/${id}`, { token: maintainer.token });

    // Assess
    const badge = {
      name: 'ci',
      link_url: 'https://ci.example.com/%{project_id}',
      image_url: 'https://img.example.com/b.svg',
      rendered_link_url: `https://ci.example.com/${project.id}`,
      rendered_image_url: 'https://img.example.com/b.svg',
      id: expect.any(Number),
      kind: 'project',
    };
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toEqual(badge);
    expect(read.body).toEqual(added.body);
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({ ...added.body, name: 'ci status' });
    expect(listed.body).toEqual([edited.body]);
    expect(both.body).toEqual({ ...added.body, image_url: 'https://img.example.com/c.svg', rendered_image_url: 'https://img.example.com/c.svg' });
    expect(deleted.status).toBe(204);
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Not found' }]);
  });

  it('renders every placeholder for the project; unknown values stay as written, encoded', async () => {
    // Prepare
    const link = '%{project_path}/%{project_title}/%{project_name}/%{project_id}/%{project_namespace}/%{group_name}/%{gitlab_server}/%{gitlab_pages_domain}';
    const image = '%{default_branch}/%{commit_sha}/%{latest_tag}';
    const personal = await createProject(owner.token);

    // Act
    const rendered = await api(`${badgesOf('projects', project.id)}/render`, { token: owner.token, query: { link_url: `https://x.example.com/${link}`, image_url: `https://i.example.com/${image}` } });
    const empty = await api(`${badgesOf('projects', personal.id)}/render`, { token: owner.token, query: { link_url: 'https://x.example.com/%{group_name}', image_url: `https://i.example.com/${image}` } });

    // Assess
    expect(rendered.status, JSON.stringify(rendered.body)).toBe(200);
    expect(rendered.body).toEqual({
      name: null,
      link_url: `https://x.example.com/${link}`,
      image_url: `https://i.example.com/${image}`,
      rendered_link_url: `https://x.example.com/${project.fullPath}/${project.name.replace(/ /g, '%20')}/${project.path}/${project.id}/${group.fullPath}/${group.fullPath}/${project.host}/example.com`,
      rendered_image_url: `https://i.example.com/main/${commitSha}/v1.0`,
    });
    expect(empty.body).toMatchObject({
      rendered_link_url: 'https://x.example.com/%25%7Bgroup_name%7D',
      rendered_image_url: 'https://i.example.com/%25%7Bdefault_branch%7D/%25%7Bcommit_sha%7D/%25%7Blatest_tag%7D',
    });
  });

  it("lists the group's badges in the project's, rendered for the project, and reaches them by id only through the group", async () => {
    // Prepare
    const groupPath = badgesOf('groups', group.id);
    const groupBadge = await api(groupPath, { token: owner.token, body: { link_url: 'https://g.example.com/%{project_path}', image_url: 'https://g.example.com/i.svg', name: 'shared' } });
    const own = await api(badgesOf('projects', project.id), { token: owner.token, body: { link_url: 'https://p.example.com', image_url: 'https://p.example.com/i.svg' } });
    expect([groupBadge.status, own.status]).toEqual([201, 201]);

    // Act
    const list = await api(badgesOf('projects', project.id));
    const named = await api(badgesOf('projects', project.id), { query: { name: 'shared' } });
    const viaProject = await api(`${badgesOf('projects', project.id)}/${groupBadge.body.id}`, { token: owner.token });
    const viaGroup = await api(`${groupPath}/${groupBadge.body.id}`);
    const groupList = await api(groupPath, { query: { per_page: 1 } });

    // Assess
    const inherited = { ...groupBadge.body, rendered_link_url: `https://g.example.com/${project.fullPath}`, kind: 'group' };
    expect(groupBadge.body.kind).toBe('group');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([inherited, { ...own.body, name: null, kind: 'project' }]);
    expect(named.body).toEqual([inherited]);
    expect(viaProject.status).toBe(404);
    expect(viaGroup.body).toEqual(inherited);
    expect(groupList.body).toEqual([inherited]);
    expect(groupList.headers.get('x-per-page')).toBe('1');
  });

  it('lets readers read, maintainers write project badges and only owners write group badges', async () => {
    // Prepare
    const body = { link_url: 'https://e.example.com', image_url: 'https://e.example.com/i.svg' };
    const privateProject = await createProject(owner.token, { visibility: 'private' });
    const stranger = await createUser();
    const render = { link_url: 'https://e.example.com', image_url: 'https://e.example.com/i.svg' };

    // Act
    const statuses = await Promise.all([
      api(badgesOf('projects', project.id), { token: developer.token }),
      api(badgesOf('projects', project.id), { token: developer.token, body }),
      api(`${badgesOf('projects', project.id)}/render`, { token: developer.token, query: render }),
      api(`${badgesOf('projects', project.id)}/render`, { query: render }),
      api(badgesOf('projects', project.id), { body }),
      api(badgesOf('groups', group.id), { token: groupMaintainer.token, body }),
      api(badgesOf('projects', privateProject.id)),
      api(badgesOf('projects', privateProject.id), { token: stranger.token }),
      api(badgesOf('projects', privateProject.id), { token: rootToken(), body }),
    ]).then((responses) => responses.map((response) => response.status));

    // Assess
    expect(statuses).toEqual([200, 403, 403, 401, 401, 403, 404, 404, 201]);
  });

  it.skipIf(!isLocalRuntime())('removes the badges of a deleted group and of its projects', async () => {
    // Prepare
    const doomed = await createGroup(owner.token);
    const inside = await createProject(owner.token, { namespace_id: doomed.id });
    const body = { link_url: 'https://d.example.com', image_url: 'https://d.example.com/i.svg' };
    const [groupBadge, projectBadge] = await Promise.all([api(badgesOf('groups', doomed.id), { token: owner.token, body }), api(badgesOf('projects', inside.id), { token: owner.token, body })]);

    // Act
    expect((await api(`/groups/${doomed.id}`, { method: 'DELETE', token: owner.token })).status).toBe(202);

    // Assess
    await eventually(async () => {
      const left = await Promise.all([
        getItem(badgeKeys.badge({ kind: 'group', id: doomed.id }, groupBadge.body.id)),
        getItem(badgeKeys.badge({ kind: 'project', id: inside.id }, projectBadge.body.id)),
      ]);
      expect(left).toEqual([undefined, undefined]);
    });
  });

  it("answers GitLab's parameter and URL validation errors and changes nothing", async () => {
    // Prepare
    const path = badgesOf('projects', project.id);
    const badge = (await api(path, { token: owner.token, body: { link_url: 'https://v.example.com', image_url: 'https://v.example.com/i.svg' } })).body;

    // Act
    const missing = await api(path, { token: owner.token, body: { name: 'x' } });
    const missingImage = await api(path, { token: owner.token, body: { link_url: 'https://v.example.com' } });
    const invalid = await api(path, { token: owner.token, body: { link_url: '', image_url: 'ftp://v.example.com/i.svg' } });
    const badEdit = await api(`${path}/${badge.id}`, { method: 'PUT', token: owner.token, body: { link_url: 'https://v example.com' } });
    const badRender = await api(`${path}/render`, { token: owner.token, query: { link_url: 'javascript:alert(1)', image_url: 'https://v.example.com' } });
    const after = await api(`${path}/${badge.id}`, { token: owner.token });
    const unknown = await api(`${path}/999999999`, { token: owner.token });
    const notAnId = await api(`${path}/abc`, { token: owner.token });

    // Assess
    expect([missing.status, missing.body]).toEqual([400, { error: 'link_url is missing, image_url is missing' }]);
    expect(missingImage.body).toEqual({ error: 'image_url is missing' });
    expect([invalid.status, invalid.body]).toEqual([400, { message: { link_url: ['must be a valid URL'], image_url: ['is blocked: Only allowed schemes are http, https'] } }]);
    expect([badEdit.status, badEdit.body]).toEqual([400, { message: { link_url: ['is blocked: URI is invalid'] } }]);
    expect([badRender.status, badRender.body]).toEqual([400, { message: { link_url: ['is blocked: Only allowed schemes are http, https'] } }]);
    expect(after.body).toEqual(badge);
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Not found' }]);
    expect([notAnId.status, notAnId.body]).toEqual([400, { error: 'badge_id is invalid' }]);
  });

});
