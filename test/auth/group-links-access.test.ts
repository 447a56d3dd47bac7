/**
 * Access through groups shared with groups (GitLab's `GroupGroupLink`) and through the ancestors
 * of an invited group: what it gives, and that it costs a bounded number of BatchGetItem rounds.
 */
import { BatchGetCommand, type BatchGetCommandInput } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { groupAccessFor, projectAccessFor } from '../../shared/auth/access';
import { membershipToItem } from '../../shared/auth/store/memberships';
// Loading the namespaces store registers how access reads group items.
import { namespaceToItem, personalNamespace, type Namespace } from '../../shared/namespaces/store/namespaces';
import type { Project } from '../../shared/projects/store/projects';
import type { User } from '../../shared/users/store/users';
import { useMockedTable } from '../support/mocked-table';

const TABLE = 'group-links-access-test';
const ddb = useMockedTable(TABLE);
const user = { id: 7, admin: false, state: 'active', external: false } as User;
const table = new Map<string, Record<string, unknown>>();
const put = (item: Record<string, unknown>) => table.set(`${String(item.PK)}|${String(item.SK)}`, item);

const group = (id: number, ancestorIds: number[], sharedWithGroups: Namespace['sharedWithGroups'] = []): Namespace => ({
  ...personalNamespace({ id, username: `g${id}`, ownerId: 0, createdAt: '2026-01-01T00:00:00Z' }),
  kind: 'group',
  ownerId: null,
  parentId: ancestorIds[0] ?? null,
  ancestorIds,
  visibility: 'private',
  sharedWithGroups,
});
const member = (groupId: number, accessLevel: number) =>
  put(membershipToItem({ sourceKind: 'group', sourceId: groupId, userId: user.id, accessLevel, expiresAt: null, createdAt: '2026-01-01T00:00:00Z', createdById: null }));
const rounds = () => ddb.commandCalls(BatchGetCommand).length;

beforeEach(() => {
  table.clear();
  ddb.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => ({
    Responses: { [TABLE]: (input.RequestItems?.[TABLE].Keys ?? []).flatMap((key) => table.get(`${String(key.PK)}|${String(key.SK)}`) ?? []) },
  }));
});

describe('group links', () => {
  // 1 ← 2 (subgroup, shared with 11 as developer); 10 ← 11 (invited subgroup); the user is an owner of 10 only.
  const shared = (expiresAt: string | null = null) => group(2, [1], [{ groupId: 11, groupAccess: 30, expiresAt }]);
  const setUp = (expiresAt: string | null = null) => {
    [group(1, []), shared(expiresAt), group(10, []), group(11, [10])].forEach((g) => put(namespaceToItem(g)));
    member(10, 50);
  };

  it("gives the invited group's inherited members the link's level in the shared group's subgroup project, in three rounds", async () => {
    setUp();
    const project = { id: 42, namespaceId: 3, visibility: 'private', sharedWith: [] } as unknown as Project;
    const access = await projectAccessFor(user, project, group(3, [2, 1]));
    expect(access).toEqual({ level: 30, projectAccess: null, groupAccess: null });
    expect(rounds()).toBe(3);
  });

  it('gives the same level in the shared group itself, and nothing once the link expired', async () => {
    setUp();
    expect(await groupAccessFor(user, shared())).toBe(30);
    ddb.resetHistory();
    expect(await groupAccessFor(user, shared('2020-01-01'))).toBe(0);
  });

  it('reads one round when nothing is shared', async () => {
    setUp();
    member(1, 20);
    expect(await groupAccessFor(user, group(1, []))).toBe(20);
    expect(rounds()).toBe(1);
  });
});
