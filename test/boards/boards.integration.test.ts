/**
 * Project and group issue boards as python-gitlab calls them (`project.boards`, `board.lists`,
 * `group.boards`): board CRUD, label lists (project and group labels), reordering with positions
 * kept consecutive under concurrent moves, a deleted label taking its lists, and GitLab's answers
 * to bad input and missing rights.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { addMember, createGroup, createProject, createUser, unique, type TestUser } from '../support/fixtures';

const GUEST = 10;

describe('issue boards', () => {
  let owner: TestUser;
  let guest: TestUser;
  let group: { id: number; fullPath: string };
  let project: { id: number; fullPath: string };
  let groupLabel: { id: number; name: string };

  const label = async (kind: 'projects' | 'groups', id: number, name = unique('lbl')) => {
    const response = await api(`/${kind}/${id}/labels`, { token: owner.token, body: { name, color: '#FF0000' } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return { id: response.body.id as number, name };
  };

  beforeAll(async () => {
    // The guest is a member of the project only: the private group is not theirs to see.
    [owner, guest] = await Promise.all([createUser(), createUser()]);
    group = await createGroup(owner.token, { visibility: 'private' });
    project = await createProject(owner.token, { namespace_id: group.id, visibility: 'private' });
    [groupLabel] = await Promise.all([label('groups', group.id), addMember('projects', project.id, guest.id, GUEST)]);
  });

  it('creates, reads, edits and deletes a project board, its label lists numbered from 0', async () => {
    // Prepare
    const boards = `/projects/${project.id}/boards`;
    const [a, b, c] = await Promise.all([label('projects', project.id), label('projects', project.id), label('projects', project.id)]);
    const none = await api(boards, { token: owner.token });

    // Act
    const created = await api(boards, { token: owner.token, body: { name: 'Development' } });
    const path = `${boards}/${created.body.id}`;
    const edited = await api(path, { method: 'PUT', token: owner.token, body: { name: 'Sprint', hide_backlog_list: true } });
    const listA = await api(`${path}/lists`, { token: owner.token, body: { label_id: a.id } });
    // Three lists added at once: each takes the next position.
    const [listB, listG, listC] = await Promise.all([b.id, groupLabel.id, c.id].map((id) => api(`${path}/lists`, { token: owner.token, body: { label_id: id } })));
    const read = await api(path, { token: owner.token });
    const listed = await api(boards, { token: owner.token });
    const one = await api(`${path}/lists/${listB.body.id}`, { token: owner.token });

    // Assess
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: 'Development', hide_backlog_list: false, hide_closed_list: false, lists: [], group: null });
    expect(created.body.project).toMatchObject({ id: project.id, path_with_namespace: project.fullPath });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: created.body.id, name: 'Sprint', hide_backlog_list: true, hide_closed_list: false });
    expect(listA.status, JSON.stringify(listA.body)).toBe(201);
    expect(listA.body).toEqual({ id: expect.any(Number), label: { id: a.id, name: a.name, color: '#FF0000', description: null, text_color: '#FFFFFF' }, position: 0 });
    expect([listB.body.position, listG.body.position, listC.body.position].sort()).toEqual([1, 2, 3]);
    expect(listG.body.label).toMatchObject({ id: groupLabel.id, name: groupLabel.name });
    const byPosition = [listA, listB, listG, listC].map((list) => list.body).sort((x, y) => x.position - y.position);
    expect(read.body.lists).toEqual(byPosition);
    expect(listed.body).toEqual([read.body]);
    expect(one.body).toEqual(listB.body);

    // Act: reorder (the last list to the front), two concurrent moves, a removal, a deleted label
    const [first, second, third, last] = byPosition.map((list) => list.id as number);
    const moved = await api(`${path}/lists/${last}`, { method: 'PUT', token: owner.token, body: { position: 0 } });
    const afterMove = await api(`${path}/lists`, { token: owner.token });
    const concurrent = await Promise.all([
      api(`${path}/lists/${first}`, { method: 'PUT', token: owner.token, body: { position: 3 } }),
      api(`${path}/lists/${third}`, { method: 'PUT', token: owner.token, body: { position: 0 } }),
    ]);
    const afterConcurrent = await api(`${path}/lists`, { token: owner.token });
    const removed = await api(`${path}/lists/${listB.body.id}`, { method: 'DELETE', token: owner.token });
    const labelDeleted = await api(`/projects/${project.id}/labels/${c.id}`, { method: 'DELETE', token: owner.token });
    const remaining = await api(`${path}/lists`, { token: owner.token });
    const again = await api(`${path}/lists`, { token: owner.token, body: { label_id: b.id } });

    // Assess
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ id: last, position: 0 });
    expect(afterMove.body.map((list: { id: number; position: number }) => [list.id, list.position])).toEqual([
      [last, 0],
      [first, 1],
      [second, 2],
      [third, 3],
    ]);
    expect(concurrent.map((response) => response.status)).toEqual([200, 200]);
    expect(afterConcurrent.body.map((list: { position: number }) => list.position)).toEqual([0, 1, 2, 3]);
    expect(new Set(afterConcurrent.body.map((list: { id: number }) => list.id)).size).toBe(4);
    expect(removed.status).toBe(204);
    expect(labelDeleted.status).toBe(204);
    expect(remaining.body.map((list: { position: number }) => list.position)).toEqual([0, 1]);
    expect(remaining.body.map((list: { id: number }) => list.id).sort()).toEqual([listA.body.id, listG.body.id].sort());
    expect(again.body.position).toBe(2);

    // Act: delete the board
    const deleted = await api(path, { method: 'DELETE', token: owner.token });
    const gone = await api(path, { token: owner.token });

    // Assess
    expect(deleted.status).toBe(204);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: '404 Not found' });
  });

  it("answers GitLab's errors: 400 for bad input, 401, 403 without the right, 404 for what is not there", async () => {
    // Prepare
    const boards = `/projects/${project.id}/boards`;
    const board = await api(boards, { token: owner.token, body: { name: unique('board') } });
    const path = `${boards}/${board.body.id}`;
    const own = await label('projects', project.id);
    const list = await api(`${path}/lists`, { token: owner.token, body: { label_id: own.id } });

    // Act
    const [noName, noLabel, duplicate, unknownLabel, notMovable, noPosition, anonymous, guestRead, guestCreate, guestMove, guestList, noBoard, noList, otherParent] = await Promise.all([
      api(boards, { token: owner.token, body: {} }),
      api(`${path}/lists`, { token: owner.token, body: {} }),
      api(`${path}/lists`, { token: owner.token, body: { label_id: own.id } }),
      api(`${path}/lists`, { token: owner.token, body: { label_id: 999_999_999 } }),
      api(`${path}/lists/${list.body.id}`, { method: 'PUT', token: owner.token, body: { position: 5 } }),
      api(`${path}/lists/${list.body.id}`, { method: 'PUT', token: owner.token, body: {} }),
      api(boards),
      api(path, { token: guest.token }),
      api(boards, { token: guest.token, body: { name: 'mine' } }),
      api(`${path}/lists/${list.body.id}`, { method: 'PUT', token: guest.token, body: { position: 0 } }),
      api(`${path}/lists`, { token: guest.token, body: { label_id: own.id } }),
      api(`${boards}/999999999`, { token: owner.token }),
      api(`${path}/lists/999999999`, { token: owner.token }),
      // A project's board is not its group's.
      api(`/groups/${group.id}/boards/${board.body.id}`, { token: owner.token }),
    ]);

    // Assess
    expect([noName.status, noName.body]).toEqual([400, { error: 'name is missing' }]);
    expect([noLabel.status, noLabel.body]).toEqual([400, { error: 'label_id is missing' }]);
    expect([duplicate.status, duplicate.body]).toEqual([400, { message: { error: 'Label has already been taken' } }]);
    expect([unknownLabel.status, unknownLabel.body]).toEqual([400, { message: { error: 'Label not found' } }]);
    expect([notMovable.status, notMovable.body]).toEqual([400, { message: { error: 'List could not be moved!' } }]);
    expect([noPosition.status, noPosition.body]).toEqual([400, { error: 'position is missing' }]);
    expect(anonymous.status).toBe(401);
    expect(guestRead.status).toBe(200);
    expect([guestCreate.status, guestCreate.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect(guestMove.status).toBe(403);
    expect(guestList.status).toBe(403);
    expect([noBoard.status, noBoard.body]).toEqual([404, { message: '404 Not found' }]);
    expect([noList.status, noList.body]).toEqual([404, { message: '404 Not found' }]);
    expect([otherParent.status, otherParent.body]).toEqual([404, { message: '404 Not found' }]);
    const after = await api(`${path}/lists`, { token: owner.token });
    expect(after.body).toEqual([list.body]);
  });

  it("serves a group's one board and its lists of the group's labels", async () => {
    // Prepare
    const boards = `/groups/${encodeURIComponent(group.fullPath)}/boards`;
    const projectLabel = await label('projects', project.id);

    // Act
    const created = await api(boards, { token: owner.token, body: { name: 'Group board' } });
    const second = await api(boards, { token: owner.token, body: { name: 'Another' } });
    const path = `${boards}/${created.body.id}`;
    const list = await api(`${path}/lists`, { token: owner.token, body: { label_id: groupLabel.id } });
    const notAvailable = await api(`${path}/lists`, { token: owner.token, body: { label_id: projectLabel.id } });
    // A deleted group label takes its list with it.
    const doomed = await label('groups', group.id);
    const doomedList = await api(`${path}/lists`, { token: owner.token, body: { label_id: doomed.id } });
    const labelDeleted = await api(`/groups/${group.id}/labels/${doomed.id}`, { method: 'DELETE', token: owner.token });
    const listed = await api(boards, { token: owner.token });
    const outsiderRead = await api(boards, { token: guest.token });
    const guestEdit = await api(path, { method: 'PUT', token: guest.token, body: { name: 'x' } });
    const deleted = await api(path, { method: 'DELETE', token: owner.token });
    const recreated = await api(boards, { token: owner.token, body: { name: 'Group board' } });

    // Assess
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: 'Group board', project: null, group: { id: group.id, web_url: expect.stringContaining(`/groups/${group.fullPath}`) }, lists: [] });
    expect([second.status, second.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect(list.status).toBe(201);
    expect(list.body).toMatchObject({ label: { id: groupLabel.id }, position: 0 });
    expect([notAvailable.status, notAvailable.body]).toEqual([400, { message: { error: 'Label not found' } }]);
    expect([doomedList.status, doomedList.body.position, labelDeleted.status]).toEqual([201, 1, 204]);
    expect(listed.body).toEqual([{ ...created.body, lists: [list.body] }]);
    expect([outsiderRead.status, outsiderRead.body]).toEqual([404, { message: '404 Group Not Found' }]);
    expect(guestEdit.status).toBe(404);
    expect(deleted.status).toBe(204);
    expect(recreated.status).toBe(201);
  });
});
