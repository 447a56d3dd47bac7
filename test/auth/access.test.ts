import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { projectAccessFor } from '../../shared/auth/access';
import { membershipToItem, type Membership } from '../../shared/auth/store/memberships';
import type { Namespace } from '../../shared/namespaces/store/namespaces';
import type { Project } from '../../shared/projects/store/projects';
import type { User } from '../../shared/users/store/users';
import { useMockedTable } from '../support/mocked-table';
// The namespaces feature registers how group items are read, as it does in every function.
import '../../shared/namespaces';

const TABLE = 'access-test';
const ddb = useMockedTable(TABLE);

const user = { id: 7, admin: false, state: 'active', external: false } as User;
const group = { id: 3, kind: 'group', ancestorIds: [1], ownerId: null, visibility: 'private' } as unknown as Namespace;
const project = { id: 42, namespaceId: 3, visibility: 'private', sharedWith: [{ groupId: 9, groupAccess: 20, expiresAt: null }] } as unknown as Project;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const membership = (kind: 'group' | 'project', id: number, accessLevel: number, expiresAt: string | null = null): Membership => ({
  sourceKind: kind,
  sourceId: id,
  userId: user.id,
  accessLevel,
  expiresAt,
  createdAt: '2026-01-01T00:00:00Z',
  createdById: null,
});
const respondWith = (memberships: Membership[]) =>
  ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: memberships.map(membershipToItem) } });


describe('projectAccessFor', () => {
  it('asks for the project, its group chain and shared groups in one batch', async () => {
    respondWith([]);
    await projectAccessFor(user, project, group);
    const keys = ddb.commandCalls(BatchGetCommand)[0].args[0].input.RequestItems?.[TABLE].Keys?.map((k) => `${k.PK} ${k.SK}`);
    // The caller's memberships of the project and of every group in play, and the items of the
    // groups not at hand (the ancestor and the shared group) for their own ancestors and links.
    const member = 'MEMBER#000000000007';
    expect(keys?.sort()).toEqual(
      [`PROJECT#42 ${member}`, `NAMESPACE#3 ${member}`, `NAMESPACE#1 ${member}`, `NAMESPACE#9 ${member}`, 'NAMESPACE#1 NAMESPACE', 'NAMESPACE#9 NAMESPACE'].sort(),
    );
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(1);
  });

  it('takes the highest of direct, group (inherited from ancestors) and shared access', async () => {
    respondWith([membership('project', 42, 20), membership('group', 1, 30)]);
    expect(await projectAccessFor(user, project, group)).toEqual({ level: 30, projectAccess: 20, groupAccess: 30 });
  });

  it('caps access through a shared group at the share’s level', async () => {
    respondWith([membership('group', 9, 50)]);
    expect((await projectAccessFor(user, project, group)).level).toBe(20);
  });

  // GitLab's `Expirable`: `expires_at` is the first day without access.
  it.each([
    ['yesterday', day(-1), 0],
    ['today', day(0), 0],
    ['tomorrow', day(1), 40],
  ])('a membership expiring %s (%s) gives %s', async (_label, expiresAt, level) => {
    respondWith([membership('project', 42, 40, expiresAt)]);
    expect((await projectAccessFor(user, project, group)).level).toBe(level);
  });

  it.each([
    ['today', day(0), 0],
    ['tomorrow', day(1), 20],
  ])('a share with a group expiring %s (%s) gives %s (ProjectGroupLink is Expirable too)', async (_label, expiresAt, level) => {
    respondWith([membership('group', 9, 50)]);
    const shared = { ...project, sharedWith: [{ groupId: 9, groupAccess: 20, expiresAt }] } as Project;
    expect((await projectAccessFor(user, shared, group)).level).toBe(level);
  });

  it('gives nothing to anonymous callers without reading anything', async () => {
    expect(await projectAccessFor(null, project, group)).toEqual({ level: 0, projectAccess: null, groupAccess: null });
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
  });

  it('makes the owner of a personal namespace its owner (50)', async () => {
    respondWith([]);
    const personal = { id: 5, kind: 'user', ancestorIds: [], ownerId: user.id } as unknown as Namespace;
    expect((await projectAccessFor(user, { ...project, sharedWith: [] }, personal)).level).toBe(50);
  });
});
