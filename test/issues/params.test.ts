import { describe, expect, it } from 'vitest';
import { createParams, filtersFrom, inputFrom, projectListParams, updateParams, userListParams } from '../../shared/issues/routes/issues.params';
import { parseParams } from '../../shared/platform/http/params';

describe('issue parameters', () => {
  it.each([
    ['bug, ui', ['bug', 'ui']],
    [['bug', 'ui'], ['bug', 'ui']],
    ['', []],
    [null, []],
  ])('reads labels %j as %j', (labels, expected) => {
    // Act
    const params = parseParams(updateParams, { id: '1', issue_iid: '2', labels });

    // Assess
    expect(inputFrom(params).labels).toEqual(expected);
  });

  it('reads assignee_ids as repeats or a comma string, and a blank milestone_id as removal', () => {
    // Act
    const fromArray = inputFrom(parseParams(createParams, { id: '1', title: 't', assignee_ids: ['3', '4'], milestone_id: '' }));
    const fromString = inputFrom(parseParams(createParams, { id: '1', title: 't', assignee_ids: '5,6' }));

    // Assess
    expect(fromArray).toMatchObject({ assigneeIds: [3, 4], milestoneId: null });
    expect(fromString.assigneeIds).toEqual([5, 6]);
    expect(fromString.milestoneId).toBeUndefined();
  });

  it.each([
    ['2030-01-31', '2030-01-31'],
    ['2030-01-31T00:00:00Z', '2030-01-31'],
    ['2030-01-31 23:59:59+02:00', '2030-01-31'],
    ['', null],
  ])('reads due_date %j as the date %j (a timestamp keeps its date, as GitLab casts it)', (due_date, expected) => {
    // Act
    const params = parseParams(updateParams, { id: '1', issue_iid: '2', due_date });

    // Assess
    expect(inputFrom(params).dueDate).toEqual(expected);
  });

  it('refuses a due_date that is no date: 400 due_date is invalid', () => {
    expect(() => parseParams(updateParams, { id: '1', issue_iid: '2', due_date: '2030-02-30' })).toThrow('due_date is invalid');
  });

  it('requires a title on create and at least one change on edit', () => {
    expect(() => parseParams(createParams, { id: '1' })).toThrow('title is missing');
    expect(() => parseParams(updateParams, { id: '1', issue_iid: '2' })).toThrow('at least one parameter must be provided');
  });

  it('defaults the order to created_at desc and the scope to created_by_me, and splits label filters', async () => {
    // Act
    const list = parseParams(projectListParams, { id: '1', labels: 'a, b' });
    const mine = parseParams(userListParams, {});

    // Assess
    expect(list).toMatchObject({ order_by: 'created_at', sort: 'desc' });
    expect((await filtersFrom(list)).labels).toEqual(['a', 'b']);
    expect(mine.scope).toBe('created_by_me');
    expect(() => parseParams(userListParams, { scope: 'all' })).toThrow('scope does not have a valid value');
  });

  it('refuses a user filter given both by id and by username, as Grape\'s mutually_exclusive', () => {
    // Act + Assess
    expect(() => parseParams(projectListParams, { id: '1', author_id: '2', author_username: 'x' })).toThrow('author_id, author_username are mutually exclusive');
    expect(() => parseParams(userListParams, { assignee_id: '2', assignee_username: 'x' })).toThrow('assignee_id, assignee_username are mutually exclusive');
  });
});
