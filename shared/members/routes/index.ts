/** The members feature's HTTP slice: direct members of groups and projects (for the Lambda entries in `functions/`). */
import { authorize, type GroupSubject, type ProjectSubject, GROUP_ACCESS_LEVELS, PROJECT_ACCESS_LEVELS } from '../../auth';
import { findGroupOrNotFound } from '../../groups';
import { findProjectOrNotFound } from '../../projects';
import type { RoutesOf } from '../../platform/http/route';
import type { catalog } from '../catalog';
import { memberRoutes, type MemberSourceKind } from './member-routes';

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

const groupMemberRoutes = memberRoutes(groups) satisfies RoutesOf<typeof catalog.members>;
const projectMemberRoutes = memberRoutes(projects) satisfies RoutesOf<typeof catalog.members>;

export const routes = {
  members: { ...groupMemberRoutes, ...projectMemberRoutes },
};
