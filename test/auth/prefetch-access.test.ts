/**
 * `prefetchProjectAccess`: a project's access read in the same BatchGetItem as its namespace
 * (`GET /projects/:id`), before the namespace is known. It must give exactly what
 * `projectAccessFor` gives, reading only what the namespace adds (a subgroup's ancestors).
 */
import { BatchGetCommand, GetCommand, type BatchGetCommandInput, type GetCommandInput } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { NO_PROJECT_ACCESS, prefetchProjectAccess, projectAccessFor } from '../../shared/auth/access';
import { membershipToItem, type Membership } from '../../shared/auth/store/memberships';
import type { Namespace } from '../../shared/namespaces/store/namespaces';
import { byKey } from '../../shared/platform/dynamo/batch';
import { NotFoundError } from '../../shared/platform/http/errors';
import { findProjectOrNotFound as findProjectToShow } from '../../shared/projects/finders';
import type { Project } from '../../shared/projects/store/projects';
import type { User } from '../../shared/users/store/users';
import { useMockedTable } from '../support/mocked-table';

const TABLE = 'prefetch-access-test';
const ddb = useMockedTable(TABLE);

const user = { id: 7, admin: false, state: 'active', external: false } as User;
const subgroup = { id: 3, kind: 'group', ancestorIds: [1], ownerId: null, visibility: 'private' } as unknown as Namespace;
const topGroup = { ...subgroup, ancestorIds: [] } as Namespace;
const personal = { id: 3, kind: 'user', ancestorIds: [], ownerId: 7, visibility: 'private' } as unknown as Namespace;
const project = { id: 42, namespaceId: 3, visibility: 'private', sharedWith: [{ groupId: 9, groupAccess: 20, expiresAt: null }] } as unknown as Project;

/** What is known of the project before reading it: its namespace (ancestors unknown) and shares. */
const guessOf = (p: Project) => ({ projectId: p.id, namespaceId: p.namespaceId, sharedGroupIds: p.sharedWith.map((s) => s.groupId) });

const membership = (kind: 'group' | 'project', id: number, accessLevel: number, expiresAt: string | null = null): Membership => ({
  sourceKind: kind,
  sourceId: id,
  userId: user.id,
  accessLevel,
  expiresAt,
  createdAt: '2026-01-01T00:00:00Z',
  createdById: null,
});
/** The items the caller's BatchGetItem found (namespace aside), by key. */
const found = (memberships: Membership[]) => byKey(memberships.map(membershipToItem));
/** A key as `PK kind`: `NAMESPACE#1 MEMBER` (a membership), `NAMESPACE#1 NAMESPACE` (the group item: its ancestors and links). */
const label = (key: Record<string, unknown>) => `${String(key.PK)} ${String(key.SK).split('#')[0]}`;
const batchKeys = () => ddb.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems?.[TABLE].Keys?.map(label));

describe('prefetchProjectAccess', () => {
  it('names the memberships the project alone determines (its own, its namespace as a group, its shares) and the shared groups', () => {
    expect(prefetchProjectAccess(user, guessOf(project)).keys.map(label)).toEqual(['PROJECT#42 MEMBER', 'NAMESPACE#3 MEMBER', 'NAMESPACE#9 MEMBER', 'NAMESPACE#9 NAMESPACE']);
  });

  it('reads only the ancestors of a subgroup more, and gives what projectAccessFor gives', async () => {
    const stored = [membership('project', 42, 20), membership('group', 9, 50), membership('group', 1, 30)];
    ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [membershipToItem(stored[2])] } });
    const access = await prefetchProjectAccess(user, guessOf(project)).resolve(project, subgroup, found(stored.slice(0, 2)));
    expect(batchKeys()).toEqual([['NAMESPACE#1 MEMBER', 'NAMESPACE#1 NAMESPACE']]);

    ddb.reset();
    ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: stored.map(membershipToItem) } });
    expect(access).toEqual(await projectAccessFor(user, project, subgroup));
    expect(access).toEqual({ level: 30, projectAccess: 20, groupAccess: 30 });
  });

  it('reads nothing more for a top-level group', async () => {
    const access = await prefetchProjectAccess(user, guessOf(project)).resolve(project, topGroup, found([membership('group', 3, 40)]));
    expect(batchKeys()).toEqual([]);
    expect(access).toEqual({ level: 40, projectAccess: null, groupAccess: 40 });
  });

  it('ignores a membership under the id of a personal namespace (not a group) and gives its owner 50', async () => {
    const access = await prefetchProjectAccess(user, guessOf(project)).resolve(project, personal, found([membership('group', 3, 10)]));
    expect(access).toEqual({ level: 50, projectAccess: null, groupAccess: null });
  });

  it('ignores an expired membership read with the namespace', async () => {
    const access = await prefetchProjectAccess(user, guessOf(project)).resolve(project, topGroup, found([membership('project', 42, 40, '2020-01-01')]));
    expect(access.level).toBe(0);
  });

  it('also names the ancestors when the guess knows them, and then reads nothing more for a subgroup', async () => {
    const prefetch = prefetchProjectAccess(user, { ...guessOf(project), ancestorIds: [1] });
    expect(prefetch.keys.map(label)).toEqual([
      'PROJECT#42 MEMBER', 'NAMESPACE#3 MEMBER', 'NAMESPACE#1 MEMBER', 'NAMESPACE#9 MEMBER', 'NAMESPACE#1 NAMESPACE', 'NAMESPACE#9 NAMESPACE',
    ]);
    const access = await prefetch.resolve(project, subgroup, found([membership('group', 1, 30)]));
    expect(batchKeys()).toEqual([]);
    expect(access).toEqual({ level: 30, projectAccess: null, groupAccess: 30 });
  });

  it('reads what a wrong guess missed: the project moved to another group and was shared anew', async () => {
    const moved = { ...project, namespaceId: 5, sharedWith: [{ groupId: 11, groupAccess: 30, expiresAt: null }] } as Project;
    const newGroup = { ...topGroup, id: 5 };
    ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [membershipToItem(membership('group', 11, 40))] } });
    // Guessed where it was: namespace 3, shared with 9; a membership there must not count.
    const access = await prefetchProjectAccess(user, guessOf(project)).resolve(moved, newGroup, found([membership('group', 3, 50)]));
    expect(batchKeys()).toEqual([['NAMESPACE#5 MEMBER', 'NAMESPACE#11 MEMBER', 'NAMESPACE#11 NAMESPACE']]);
    expect(access).toEqual({ level: 30, projectAccess: null, groupAccess: null });
  });

  it('names nothing and reads nothing for an anonymous caller', async () => {
    const prefetch = prefetchProjectAccess(null, guessOf(project));
    expect(prefetch.keys).toEqual([]);
    expect(await prefetch.resolve(project, subgroup, found([]))).toEqual(NO_PROJECT_ACCESS);
    expect(batchKeys()).toEqual([]);
  });
});

/**
 * `GET /projects/:id` (`findProjectToShow`): once a project was shown, the process remembers where
 * it lives and reads the project, its namespace and the caller's memberships in one BatchGetItem;
 * a moved or deleted project is still answered from what the table holds now.
 */
describe('findProjectToShow', () => {
  const table = new Map<string, Record<string, unknown>>();
  const put = (item: Record<string, unknown>) => table.set(`${String(item.PK)}|${String(item.SK)}`, item);
  const namespaceItem = (id: number, name: string) => ({
    PK: `NAMESPACE#${id}`, SK: 'NAMESPACE', type: 'Namespace', id, name, path: name, fullPath: name, kind: 'group', ancestorIds: [], parentId: null, ownerId: null, visibility: 'private',
  });
  const projectItem = (namespaceId: number) => ({
    PK: 'PROJECT#77', SK: 'PROJECT', type: 'Project', id: 77, namespaceId, path: 'p', name: 'p', visibility: 'private', sharedWith: [],
  });
  const calls = () => ddb.commandCalls(GetCommand).length + ddb.commandCalls(BatchGetCommand).length;

  beforeEach(() => {
    table.clear();
    ddb.on(GetCommand).callsFake((input: GetCommandInput) => ({ Item: table.get(`${String(input.Key?.PK)}|${String(input.Key?.SK)}`) }));
    ddb.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => ({
      Responses: {
        [TABLE]: (input.RequestItems?.[TABLE].Keys ?? []).flatMap((key) => table.get(`${String(key.PK)}|${String(key.SK)}`) ?? []),
      },
    }));
    put(namespaceItem(3, 'one'));
    put(namespaceItem(5, 'two'));
    put(membershipToItem(membership('group', 3, 30)));
    put(membershipToItem(membership('group', 5, 40)));
    put(projectItem(3));
  });

  it('reads a project shown before in one BatchGetItem, and answers what the table holds after it moved', async () => {
    const first = await findProjectToShow('77', user);
    expect([first.namespace.name, first.access.level, calls()]).toEqual(['one', 30, 2]);

    const again = await findProjectToShow('77', user);
    expect([again.namespace.name, again.access.level, calls()]).toEqual(['one', 30, 3]);

    put(projectItem(5)); // moved to group 5 (by another process)
    const moved = await findProjectToShow('77', user);
    expect([moved.namespace.name, moved.access]).toEqual(['two', { level: 40, projectAccess: null, groupAccess: 40 }]);
  });

  it('answers 404 for a project deleted since it was shown, and for one the caller may no longer read', async () => {
    await findProjectToShow('77', user);
    table.delete('NAMESPACE#3|MEMBER#000000000007');
    await expect(findProjectToShow('77', user)).rejects.toBeInstanceOf(NotFoundError);
    table.delete('PROJECT#77|PROJECT');
    await expect(findProjectToShow('77', user)).rejects.toBeInstanceOf(NotFoundError);
  });
});
