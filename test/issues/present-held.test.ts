/**
 * A written issue is presented from the records its write already read (author, labels,
 * milestone, assignee): the response reads only what the writer does not hold.
 */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { presentIssues } from '../../shared/issues/presenters/issues';
import { issueKeys } from '../../shared/issues/store/keys';
import type { Label } from '../../shared/issues/store/labels';
import type { Milestone } from '../../shared/issues/store/milestones';
import { userKeys, type User } from '../../shared/users';
import { useMockedTable } from '../support/mocked-table';
import { issueRecord } from '../support/records';

const ddb = useMockedTable('present-held-test');

const user = (id: number, username: string) => ({ id, username, name: username, state: 'active', avatar: null }) as unknown as User;
const label = (id: number, name: string) => ({ id, projectId: 5, name }) as Label;
const milestone = { id: 9, iid: 1, projectId: 5, title: 'v1', description: null, state: 'active', dueDate: null, startDate: null, createdAt: 'x', updatedAt: 'x', version: 1 } as unknown as Milestone;
const issue = issueRecord({ authorId: 1, assigneeIds: [2], labelIds: [11, 12], milestoneId: 9 });
const requestedKeys = () => ddb.commandCalls(BatchGetCommand).flatMap((call) => Object.values(call.args[0].input.RequestItems ?? {}).flatMap((request) => request.Keys ?? []));

describe('presenting issues with held records', () => {
  it('reads nothing the writer holds, and shows it', async () => {
    // Act
    const [body] = await presentIssues([issue], () => 'group/app', {
      held: { users: [user(1, 'ann'), user(2, 'bob')], labels: [label(12, 'ui'), label(11, 'bug')], milestones: [milestone] },
    });

    // Assess
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
    expect(body).toMatchObject({ author: { username: 'ann' }, assignee: { username: 'bob' }, labels: ['bug', 'ui'], milestone: { id: 9, title: 'v1' } });
  });

  it('reads only what it does not hold', async () => {
    // Prepare: the label 12, the assignee and the milestone are read.
    ddb.on(BatchGetCommand).resolves({
      Responses: {
        'present-held-test': [
          { ...issueKeys.label(5, 12), type: 'Label', id: 12, projectId: 5, name: 'ui' },
          { ...userKeys.user(2), type: 'User', id: 2, username: 'bob', name: 'Bob', state: 'active' },
          { ...issueKeys.milestone(5, 9), type: 'Milestone', ...milestone },
        ],
      },
    });

    // Act
    const [body] = await presentIssues([issue], () => 'group/app', { held: { users: [user(1, 'ann')], labels: [label(11, 'bug')] } });

    // Assess
    expect(requestedKeys()).toEqual([userKeys.user(2), issueKeys.milestone(5, 9), issueKeys.label(5, 12)]);
    expect(body).toMatchObject({ author: { username: 'ann' }, assignee: { username: 'bob' }, labels: ['bug', 'ui'], milestone: { id: 9, title: 'v1' } });
  });
});
