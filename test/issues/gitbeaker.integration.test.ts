/**
 * The issues side of the API driven by a real GitLab client (@gitbeaker/rest): labels and a
 * milestone, an issue with an assignee, comments, subscriptions, todos, time tracking, moving
 * the issue to another project and closing it, as a team would script it.
 */
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { baseUrl } from '../support/api';
import { createUser, unique } from '../support/fixtures';

describe('gitbeaker: issues', () => {
  it('files, discusses, tracks, moves and closes an issue', async () => {
    // Prepare: a lead owning two projects, and a developer on both
    const lead = await createUser();
    const developer = await createUser();
    const gitlab = new Gitlab({ host: baseUrl(), token: lead.token });
    const asDeveloper = new Gitlab({ host: baseUrl(), token: developer.token });
    const backend = await gitlab.Projects.create({ name: unique('backend-'), visibility: 'private' });
    const frontend = await gitlab.Projects.create({ name: unique('frontend-'), visibility: 'private' });
    for (const project of [backend, frontend]) await gitlab.ProjectMembers.add(project.id, 30, { userId: developer.id });

    // Labels and a milestone, in both projects (the move maps them by name and title)
    for (const project of [backend, frontend]) {
      const bug = await gitlab.ProjectLabels.create(project.id, 'bug', '#FF0000');
      expect(bug).toMatchObject({ name: 'bug', color: '#FF0000' });
      await gitlab.ProjectMilestones.create(project.id, 'v1.0', { dueDate: '2030-06-30' });
    }
    await gitlab.ProjectLabels.create(backend.id, 'api', 'blue');
    const [backendMilestone] = await gitlab.ProjectMilestones.all(backend.id, { title: 'v1.0' });

    // File an issue with labels, a milestone and an assignee
    const issue = await gitlab.Issues.create(backend.id, 'Login fails with SSO', {
      description: 'Steps to reproduce…',
      labels: 'bug,api',
      milestoneId: backendMilestone.id,
      assigneeIds: [developer.id],
    });
    expect(issue).toMatchObject({
      iid: 1,
      state: 'opened',
      labels: ['api', 'bug'],
      milestone: { title: 'v1.0' },
      assignees: [expect.objectContaining({ id: developer.id })],
      author: expect.objectContaining({ id: lead.id }),
    });

    // Discuss it
    const note = await asDeveloper.IssueNotes.create(backend.id, issue.iid, 'Reproduced on main');
    expect(note).toMatchObject({ body: 'Reproduced on main', author: expect.objectContaining({ id: developer.id }) });
    const notes = await gitlab.IssueNotes.all(backend.id, issue.iid);
    expect(notes.map((n) => n.body)).toContain('Reproduced on main');

    // The assignee (and commenter) is subscribed as a participant; they opt out, then back in
    const unsubscribed = await asDeveloper.Issues.unsubscribe(backend.id, issue.iid);
    expect(unsubscribed).toMatchObject({ iid: issue.iid, subscribed: false });
    const subscribed = await asDeveloper.Issues.subscribe(backend.id, issue.iid);
    expect(subscribed).toMatchObject({ iid: issue.iid, subscribed: true });
    const todo = await gitlab.Issues.createTodo(backend.id, issue.iid);
    expect(todo).toMatchObject({ action_name: 'marked', target_type: 'Issue', state: 'pending' });

    // Track time
    const estimate = await asDeveloper.Issues.addTimeEstimate(backend.id, issue.iid, '3h30m');
    expect(estimate).toMatchObject({ time_estimate: 12_600, human_time_estimate: '3h 30m' });
    await asDeveloper.Issues.addSpentTime(backend.id, issue.iid, '1h');
    await asDeveloper.Issues.addSpentTime(backend.id, issue.iid, '30m');
    const stats = await gitlab.Issues.showTimeStats(backend.id, issue.iid);
    expect(stats).toMatchObject({ time_estimate: 12_600, total_time_spent: 5_400, human_total_time_spent: '1h30m' });

    // Move it to the frontend project: labels and milestone that exist there are kept
    const moved = await gitlab.Issues.move(backend.id, issue.iid, frontend.id);
    expect(moved).toMatchObject({
      project_id: frontend.id,
      iid: 1,
      title: 'Login fails with SSO',
      state: 'opened',
      labels: ['bug'],
      milestone: expect.objectContaining({ title: 'v1.0', project_id: frontend.id }),
      assignees: [expect.objectContaining({ id: developer.id })],
      author: expect.objectContaining({ id: lead.id }),
    });
    const original = await gitlab.Issues.show(issue.iid, { projectId: backend.id }) // gitbeaker puts this number in `issues/:issue_iid`;
    expect(original.state).toBe('closed');
    const originalNotes = await gitlab.IssueNotes.all(backend.id, issue.iid);
    expect(originalNotes.map((n) => n.body)).toContain(`moved to ${frontend.path_with_namespace}#${moved.iid}`);
    expect((await gitlab.Projects.show(backend.id)).open_issues_count).toBe(0);
    expect((await gitlab.Projects.show(frontend.id)).open_issues_count).toBe(1);

    // Close the moved issue
    const closed = await asDeveloper.Issues.edit(frontend.id, moved.iid, { stateEvent: 'close' });
    expect(closed).toMatchObject({ state: 'closed', closed_at: expect.any(String) });
    expect((await gitlab.Projects.show(frontend.id)).open_issues_count).toBe(0);
    const closedList = await gitlab.Issues.all({ projectId: frontend.id, state: 'closed' });
    expect(closedList.map((i) => i.iid)).toEqual([moved.iid]);
  });
});
