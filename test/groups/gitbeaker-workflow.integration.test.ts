/**
 * A team's day with today's clients (issue 13), driven by @gitbeaker/rest as python-gitlab's users
 * script it: `save()` sending only the changed fields, HEAD requests, a group tree reorganised
 * (subgroups, a transfer, sharing with another group, a project transfer), and an issue discussed
 * in threads with award emoji.
 */
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { baseUrl } from '../support/api';
import { createUser, unique } from '../support/fixtures';

const DEVELOPER = 30;

describe('gitbeaker: a python-gitlab-style workflow', () => {
  it('edits with partial fields, answers HEAD, reorganises groups and discusses an issue with reactions', async () => {
    // Prepare: a lead, a designer in another group, and their clients
    const lead = await createUser();
    const designer = await createUser();
    const gitlab = new Gitlab({ host: baseUrl(), token: lead.token });
    const asDesigner = new Gitlab({ host: baseUrl(), token: designer.token });

    // save() with only what changed: a description, nothing else
    const project = await gitlab.Projects.create({ name: unique('app-'), visibility: 'private' });
    const saved = await gitlab.Projects.edit(project.id, { description: 'Now with a description' });
    expect(saved).toMatchObject({ id: project.id, name: project.name, description: 'Now with a description', visibility: 'private' });

    // HEAD answers the GET's status and headers, without a body
    const head = await fetch(`${baseUrl()}/api/v4/projects/${project.id}`, { method: 'HEAD', headers: { 'PRIVATE-TOKEN': lead.token } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await head.text()).toBe('');
    const hidden = await fetch(`${baseUrl()}/api/v4/projects/${project.id}`, { method: 'HEAD', headers: { 'PRIVATE-TOKEN': designer.token } });
    expect(hidden.status).toBe(404);

    // A group tree: a parent with a subgroup, then a second top-level group moved under the parent
    const company = await gitlab.Groups.create(unique('Company '), unique('company-'), { visibility: 'private' });
    const platform = await gitlab.Groups.create('Platform', unique('platform-'), { parentId: company.id, visibility: 'private' });
    const tools = await gitlab.Groups.create('Tools', unique('tools-'), { visibility: 'private' });
    await gitlab.Groups.transfer(tools.id, { groupId: company.id });
    const subgroups = await gitlab.Groups.allSubgroups(company.id);
    expect(subgroups.map((group) => group.id).sort()).toEqual([platform.id, tools.id].sort());
    const moved = await gitlab.Groups.show(tools.id);
    expect(moved).toMatchObject({ parent_id: company.id, full_path: `${company.path}/${tools.path}` });

    // The project joins the platform group; the company is shared with the designers' group
    await gitlab.Projects.transfer(project.id, platform.full_path);
    const transferred = await gitlab.Projects.show(project.id);
    expect(transferred.path_with_namespace).toBe(`${company.path}/${platform.path}/${project.path}`);
    // The lead must see the group they invite (a private group of others is 404 to them)
    const design = await asDesigner.Groups.create(unique('Design '), unique('design-'), { visibility: 'internal' });
    await expect(asDesigner.Projects.show(project.id)).rejects.toThrow();
    await gitlab.Groups.share(company.id, design.id, DEVELOPER, {});
    const shared = await gitlab.Groups.show(company.id);
    expect(shared.shared_with_groups).toEqual([expect.objectContaining({ group_id: design.id, group_access_level: DEVELOPER })]);
    // The designer reaches the project through the share, two levels down, as a developer
    expect((await asDesigner.Projects.show(project.id)).id).toBe(project.id);

    // An issue discussed in a thread, with reactions on the issue and on a reply
    const issue = await asDesigner.Issues.create(project.id, 'Buttons are misaligned');
    const thread = await gitlab.IssueDiscussions.create(project.id, issue.iid, 'Which browser?');
    const reply = await asDesigner.IssueDiscussions.addNote(project.id, issue.iid, thread.id, 'Firefox 140');
    await gitlab.IssueNotes.create(project.id, issue.iid, 'Thanks for the report');
    const discussions = await gitlab.IssueDiscussions.all(project.id, issue.iid);
    const threads = discussions.filter((discussion) => !discussion.notes?.[0]?.system);
    expect(threads.map((discussion) => [discussion.individual_note, discussion.notes?.map((note) => note.body)])).toEqual([
      [false, ['Which browser?', 'Firefox 140']],
      [true, ['Thanks for the report']],
    ]);
    await gitlab.IssueAwardEmojis.award(project.id, issue.iid, 'thumbsup');
    await asDesigner.IssueAwardEmojis.award(project.id, issue.iid, 'thumbsup');
    const heart = await gitlab.IssueNoteAwardEmojis.award(project.id, issue.iid, reply.id, 'heart');
    expect(heart).toMatchObject({ name: 'heart', user: expect.objectContaining({ id: lead.id }), awardable_id: reply.id, awardable_type: 'Note' });
    const reacted = await gitlab.Issues.show(issue.iid, { projectId: project.id });
    expect(reacted).toMatchObject({ upvotes: 2, downvotes: 0 });
    await expect(gitlab.IssueAwardEmojis.award(project.id, issue.iid, 'thumbsup')).rejects.toThrow();

    // Unsharing takes the access away again
    await gitlab.Groups.unshare(company.id, design.id, {});
    await expect(asDesigner.Projects.show(project.id)).rejects.toThrow();
  }, 60_000);
});
