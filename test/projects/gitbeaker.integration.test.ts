/**
 * The projects side of the API driven by a real GitLab client (@gitbeaker/rest): groups, projects
 * in them, members, forks, stars, sharing and uploads, as a team would script them.
 */
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { baseUrl, rootToken } from '../support/api';
import { createUser, unique } from '../support/fixtures';
import { eventually } from '../support/eventually';

describe('gitbeaker: groups and projects', () => {
  it('creates a group with a project, adds members, forks, stars, shares and uploads', async () => {
    // Prepare: a team lead with their own token, and a colleague
    const lead = await createUser();
    const colleague = await createUser();
    const gitlab = new Gitlab({ host: baseUrl(), token: lead.token });
    const asColleague = new Gitlab({ host: baseUrl(), token: colleague.token });

    // A group, and a project in it
    const path = unique('team');
    const group = await gitlab.Groups.create(`Team ${path}`, path, { visibility: 'private' });
    expect(group).toMatchObject({ path, full_path: path, visibility: 'private' });
    const project = await gitlab.Projects.create({ name: 'Service API', namespaceId: group.id, visibility: 'private' });
    expect(project).toMatchObject({ path: 'service-api', path_with_namespace: `${path}/service-api` });

    // The colleague cannot see it until added
    await expect(asColleague.Projects.show(project.id)).rejects.toThrow();
    const member = await gitlab.ProjectMembers.add(project.id, 30, { userId: colleague.id });
    expect(member).toMatchObject({ id: colleague.id, access_level: 30 });
    const seen = await asColleague.Projects.show(`${path}/service-api`);
    expect(seen.id).toBe(project.id);
    const members = await gitlab.ProjectMembers.all(project.id);
    expect(members.map((m) => m.id)).toEqual([colleague.id]);

    // Fork into the colleague's namespace, star, and read counts back
    const fork = await asColleague.Projects.fork(project.id, { namespacePath: colleague.username });
    expect(fork).toMatchObject({ path_with_namespace: `${colleague.username}/service-api`, forked_from_project: { id: project.id } });
    await asColleague.Projects.star(project.id);
    const counted = await gitlab.Projects.show(project.id);
    expect(counted).toMatchObject({ forks_count: 1, star_count: 1 });

    // Share with another group, then unshare
    const other = await gitlab.Groups.create(`Other ${path}`, `${path}-other`);
    await gitlab.Projects.share(project.id, other.id, 20);
    expect((await gitlab.Projects.show(project.id)).shared_with_groups).toEqual([
      expect.objectContaining({ group_id: other.id, group_access_level: 20 }),
    ]);
    await gitlab.Projects.unshare(project.id, other.id);
    expect((await gitlab.Projects.show(project.id)).shared_with_groups).toEqual([]);

    // Upload a file and find it in the markdown
    const upload = await asColleague.Projects.uploadForReference(project.id, {
      content: new Blob(['hello from gitbeaker']),
      filename: 'notes.txt',
    });
    expect(upload).toMatchObject({ alt: 'notes.txt', markdown: expect.stringMatching(/^\[notes\.txt\]\(\/uploads\/[0-9a-f]{32}\/notes\.txt\)$/) });

    // Lists through the client's own pagination
    const mine = await asColleague.Projects.all({ membership: true });
    expect(mine.map((p) => p.id).sort()).toEqual([project.id, fork.id].sort());
    const groups = await gitlab.Groups.all({ search: path });
    expect(groups.map((g) => g.id).sort()).toEqual([group.id, other.id].sort());

    // Clean up as root: the group goes with its project
    const root = new Gitlab({ host: baseUrl(), token: rootToken() });
    await root.Groups.remove(group.id);
    await eventually(() => expect(root.Projects.show(project.id)).rejects.toThrow());
  });
});
