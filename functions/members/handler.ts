/** The Members endpoint group: direct members of groups and projects. */
import { authorize, type GroupSubject, type ProjectSubject } from '../../shared/auth/policy';
import { GROUP_ACCESS_LEVELS, PROJECT_ACCESS_LEVELS } from '../../shared/data/members';
import { findGroupOrNotFound, findProjectOrNotFound } from '../../shared/domain/finders';
import { createGroupHandler } from '../../shared/http/group-handler';
import type { GroupRoutes } from '../../shared/http/route';
import { memberRoutes, type MemberSourceKind } from './routes';

/** Group members: levels 10–50; managed by the group's owners (and admins). */
const groups: MemberSourceKind<'groups', GroupSubject> = {
  segment: 'groups',
  accessLevels: GROUP_ACCESS_LEVELS,
  find: findGroupOrNotFound,
  source: (subject) => ({ kind: 'group', id: subject.group.id }),
  authorizeAdmin: (user, subject) => authorize(user, 'admin_group', subject),
};

/** Project members: levels 10–40 (owner is not a project level); managed by maintainers (and admins). */
const projects: MemberSourceKind<'projects', ProjectSubject> = {
  segment: 'projects',
  accessLevels: PROJECT_ACCESS_LEVELS,
  find: findProjectOrNotFound,
  source: (subject) => ({ kind: 'project', id: subject.project.id }),
  authorizeAdmin: (user, subject) => authorize(user, 'admin_project', subject),
};

export const groupMemberRoutes = memberRoutes(groups) satisfies GroupRoutes<'members'>;
export const projectMemberRoutes = memberRoutes(projects) satisfies GroupRoutes<'members'>;

export const handler = createGroupHandler('members', { ...groupMemberRoutes, ...projectMemberRoutes });
