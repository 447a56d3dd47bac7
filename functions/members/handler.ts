/** The Members endpoint group: direct members of groups and projects. */
import { authorize, type GroupSubject, type ProjectSubject } from '../../shared/auth/policy';
import { GROUP_ACCESS_LEVELS, PROJECT_ACCESS_LEVELS } from '../../shared/members/store/members';
import { findGroupOrNotFound, findProjectOrNotFound } from '../../shared/auth/finders';
import { createGroupHandler } from '../../shared/platform/group-handler';
import type { GroupRoutes } from '../../shared/platform/http/route';
import { memberRoutes, type MemberSourceKind } from '../../shared/members/routes/member-routes';

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
