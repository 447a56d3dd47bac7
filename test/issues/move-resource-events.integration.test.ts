/**
 * A moved issue keeps its history: GitLab's `Issues::MoveService` copies the original's label,
 * milestone and state events to the new issue (`CopyResourceEventsService`): label events keep
 * their label, milestone events take the target's milestone of the same title (an `add` without
 * one is dropped, a `remove` keeps no milestone), state events are kept; the copies are new events
 * of the new issue, with their user and time.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createProject, createUser, openIssue, unique, type TestProject, type TestUser } from '../support/fixtures';

type Kind = 'label' | 'state' | 'milestone';
/** An event as the API shows it (the fields these tests read). */
type Event = Record<string, unknown> & {
  id: number;
  action: string;
  state: string;
  created_at: string;
  resource_id: number;
  label: { name: string };
  milestone: { id: number; title: string } | null;
};

const events = async (token: string, projectId: number, iid: number, kind: Kind) => {
  const response = await api(`/projects/${projectId}/issues/${iid}/resource_${kind}_events`, { token, query: { per_page: 100 } });
  expect(response.status).toBe(200);
  return response.body as Event[];
};

describe('POST /projects/:id/issues/:issue_iid/move: resource events', () => {
  let owner: TestUser;
  let source: TestProject;
  let target: TestProject;

  beforeAll(async () => {
    owner = await createUser();
    source = await createProject(owner.token, { visibility: 'private' });
    target = await createProject(owner.token, { visibility: 'private' });
  });

  const milestone = async (project: TestProject, title: string) => {
    const response = await api(`/projects/${project.id}/milestones`, { token: owner.token, body: { title } });
    expect(response.status).toBe(201);
    return response.body;
  };

  it("copies the original's label, milestone and state events to the moved issue", { timeout: 180_000 }, async () => {
    // Arrange: a history of labels, milestones (one also in the target, one only in the source) and states
    const shared = unique('both');
    const [sharedInSource, onlyInSource, sharedInTarget] = [await milestone(source, shared), await milestone(source, unique('only')), await milestone(target, shared)];
    const issue = await openIssue(source.id, owner.token, { labels: 'bug,ui', milestone_id: onlyInSource.id });
    const put = (body: Record<string, unknown>) => api(`/projects/${source.id}/issues/${issue.iid}`, { method: 'PUT', token: owner.token, body });
    for (const body of [{ milestone_id: sharedInSource.id }, { milestone_id: 0 }, { milestone_id: sharedInSource.id }, { state_event: 'close' }, { state_event: 'reopen' }, { labels: 'ui' }]) {
      expect((await put(body)).status).toBe(200);
    }
    const before = {
      label: await events(owner.token, source.id, issue.iid, 'label'),
      milestone: await events(owner.token, source.id, issue.iid, 'milestone'),
      state: await events(owner.token, source.id, issue.iid, 'state'),
    };
    expect(before.label.map((e) => `${e.action} ${e.label.name}`)).toEqual(['add bug', 'add ui', 'remove bug']);
    expect(before.milestone.map((e) => `${e.action} ${e.milestone?.title}`)).toEqual([
      `add ${onlyInSource.title}`,
      `add ${shared}`,
      `remove ${shared}`,
      `add ${shared}`,
    ]);

    // Act
    const response = await api(`/projects/${source.id}/issues/${issue.iid}/move`, { token: owner.token, body: { to_project_id: target.id } });

    // Assert
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const moved = response.body;
    const [label, milestoneEvents, state] = await Promise.all(
      (['label', 'milestone', 'state'] as const).map((kind) => events(owner.token, target.id, moved.iid, kind)),
    );
    // Label events: the same, naming the source's labels (GitLab keeps `label_id`), none of the copy's creation.
    expect(label.map(({ id: _id, resource_id, ...rest }) => ({ resource_id, ...rest }))).toEqual(
      before.label.map(({ id: _id, ...rest }) => ({ ...rest, resource_id: moved.id })),
    );
    // Milestone events: the add without a milestone in the target is gone; the others name the target's.
    expect(milestoneEvents.map((e) => ({ action: e.action, milestone: e.milestone?.id ?? null, state: e.state, resource_id: e.resource_id }))).toEqual([
      { action: 'add', milestone: sharedInTarget.id, state: 'opened', resource_id: moved.id },
      { action: 'remove', milestone: null, state: 'opened', resource_id: moved.id },
      { action: 'add', milestone: sharedInTarget.id, state: 'opened', resource_id: moved.id },
    ]);
    expect(milestoneEvents.map((e) => e.created_at)).toEqual(before.milestone.slice(1).map((e) => e.created_at));
    // State events: the original's close and reopen, not the close of the move.
    expect(state.map(({ id: _id, resource_id, ...rest }) => ({ resource_id, ...rest }))).toEqual(
      before.state.map(({ id: _id, ...rest }) => ({ ...rest, resource_id: moved.id })),
    );
    // The copies are events of their own: new ids, each readable by id on the moved issue.
    expect(label.filter((e) => before.label.some((b) => b.id === e.id))).toEqual([]);
    expect(state.filter((e) => before.state.some((b) => b.id === e.id))).toEqual([]);
    const single = await api(`/projects/${target.id}/issues/${moved.iid}/resource_label_events/${label[2].id}`, { token: owner.token });
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ id: label[2].id, action: 'remove', label: { name: 'bug' }, resource_id: moved.id });
    // The original keeps its history, with the close of the move after it.
    const after = await events(owner.token, source.id, issue.iid, 'state');
    expect(after.map((e) => e.state)).toEqual(['closed', 'reopened', 'closed']);
    expect(await events(owner.token, source.id, issue.iid, 'label')).toEqual(before.label);
  });

  it('moves an issue without history to a new issue without events', async () => {
    // Arrange
    const issue = await openIssue(source.id, owner.token);

    // Act
    const response = await api(`/projects/${source.id}/issues/${issue.iid}/move`, { token: owner.token, body: { to_project_id: target.id } });

    // Assert
    expect(response.status).toBe(201);
    for (const kind of ['label', 'milestone', 'state'] as const) {
      expect(await events(owner.token, target.id, response.body.iid, kind)).toEqual([]);
    }
  });

  it('copies nothing when the move is refused', async () => {
    // Arrange: a stranger cannot see the private source
    const stranger = await createUser();
    const issue = await openIssue(source.id, owner.token, { labels: 'bug' });
    const strangersProject = await createProject(stranger.token, { visibility: 'private' });
    const before = (await api(`/projects/${strangersProject.id}/issues`, { token: stranger.token })).body.length;

    // Act
    const response = await api(`/projects/${source.id}/issues/${issue.iid}/move`, { token: stranger.token, body: { to_project_id: strangersProject.id } });

    // Assert
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Project Not Found' });
    expect((await api(`/projects/${strangersProject.id}/issues`, { token: stranger.token })).body.length).toBe(before);
    expect((await events(owner.token, source.id, issue.iid, 'label')).map((e) => e.action)).toEqual(['add']);
  });
});
