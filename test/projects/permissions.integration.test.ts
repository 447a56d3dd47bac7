/**
 * The permission model of projects, role by role, against each kind of operation: read, star,
 * fork (reporter and up on a private project), hooks/edit/share (maintainer and up),
 * visibility/archive/delete (owner or admin). A private project is 404 to whoever may not see it.
 */
import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { addMember, createGroup, createProject, createUser } from '../support/fixtures';

type Role = 'anonymous' | 'outsider' | 'guest' | 'reporter' | 'developer' | 'maintainer' | 'group owner' | 'personal owner' | 'admin';
type Operation = 'read' | 'star' | 'fork' | 'hooks' | 'edit' | 'share' | 'visibility' | 'archive' | 'delete';

const OK: Record<Operation, number> = { read: 200, star: 201, fork: 201, hooks: 200, edit: 200, share: 201, visibility: 200, archive: 201, delete: 202 };
const ORDER: Operation[] = ['read', 'star', 'fork', 'hooks', 'edit', 'share', 'visibility', 'archive', 'delete'];
const level: Record<Role, number> = {
  anonymous: -1,
  outsider: 0,
  guest: 10,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  'group owner': 50,
  'personal owner': 50,
  admin: 100,
};
const needs: Record<Operation, number> = { read: 10, star: 10, fork: 20, hooks: 40, edit: 40, share: 40, visibility: 50, archive: 50, delete: 50 };

/**
 * What a role gets: success; for anonymous callers 404 on the read (a private project is not
 * revealed) and 401 on everything needing a token; 404 when the caller may not see it; else 403.
 */
function expected(role: Role, operation: Operation): number {
  if (level[role] >= needs[operation]) return OK[operation];
  if (role === 'anonymous') return operation === 'read' ? 404 : 401;
  if (level[role] < 10) return 404;
  return 403;
}

async function setUp(role: Role) {
  const owner = await createUser();
  const inGroup = role === 'group owner';
  const group = await createGroup(owner.token);
  const project = await createProject(owner.token, inGroup ? { namespace_id: group.id } : {});
  const shareTarget = await createGroup(owner.token);
  let token: string | undefined;
  let forkNamespace = 'nobody';
  if (role === 'personal owner') {
    token = owner.token;
    forkNamespace = group.fullPath;
  } else if (role === 'admin') {
    token = rootToken();
    forkNamespace = 'root';
  } else if (role !== 'anonymous') {
    const user = await createUser();
    token = user.token;
    forkNamespace = user.username;
    if (role === 'group owner') await addMember('groups', group.id, user.id, 50);
    else if (level[role] >= 10) await addMember('projects', project.id, user.id, level[role]);
    // Sharing needs a group the caller can see: make them a member of the target group.
    await addMember('groups', shareTarget.id, user.id, 10);
  }
  return { token, project, forkNamespace, shareTarget };
}

describe.each<Role>(['anonymous', 'outsider', 'guest', 'reporter', 'developer', 'maintainer', 'group owner', 'personal owner', 'admin'])(
  'a private project, as %s',
  (role) => {
    it('allows exactly the operations of that role', async () => {
      // Prepare
      const { token, project, forkNamespace, shareTarget } = await setUp(role);
      const requests: Record<Operation, () => ReturnType<typeof api>> = {
        read: () => api(`/projects/${project.id}`, { token }),
        star: () => api(`/projects/${project.id}/star`, { token, method: 'POST' }),
        fork: () => api(`/projects/${project.id}/fork`, { token, body: { namespace: forkNamespace } }),
        hooks: () => api(`/projects/${project.id}/hooks`, { token }),
        edit: () => api(`/projects/${project.id}`, { token, method: 'PUT', body: { name: 'Edited' } }),
        share: () => api(`/projects/${project.id}/share`, { token, body: { group_id: shareTarget.id, group_access: 20 } }),
        visibility: () => api(`/projects/${project.id}`, { token, method: 'PUT', body: { name: 'Edited', visibility: 'internal' } }),
        archive: () => api(`/projects/${project.id}/archive`, { token, method: 'POST' }),
        delete: () => api(`/projects/${project.id}`, { token, method: 'DELETE' }),
      };
      // Act
      const actual: Record<string, number> = {};
      for (const operation of ORDER) actual[operation] = (await requests[operation]()).status;
      // Assess
      expect(actual).toEqual(Object.fromEntries(ORDER.map((operation) => [operation, expected(role, operation)])));
    });
  },
);
