/**
 * Every permission decision is made here, by name. Handlers call `authorize(user, 'admin_users')`
 * or `authorize(user, 'archive_project', project)` and the `find…OrNotFound` helpers; they never
 * compare roles or access levels inline.
 */
import type { Namespace } from '../groups';
import type { Project } from '../projects';
import type { User } from '../users';
import { ForbiddenError, UnauthorizedError } from '../platform/http/errors';
import type { ProjectAccess } from './access';

/** A project as the caller sees it: with its namespace and the caller's access, resolved once. */
export interface ProjectSubject {
  kind: 'project';
  project: Project;
  namespace: Namespace;
  access: ProjectAccess;
}

/** A group as the caller sees it, with the caller's level in it (inherited from ancestors). */
export interface GroupSubject {
  kind: 'group';
  group: Namespace;
  level: number;
}

type GlobalAbility =
  /** Create, modify, delete, block users; manage other users' keys, emails, tokens; see activities. */
  | 'admin_users'
  /** See admin-only fields and filters of users (email, identities, `external`, `extern_uid`). */
  | 'read_users_admin_fields'
  /** List all users (`GET /users` without `username`): any signed-in user. */
  | 'read_users_list'
  /** Create a top-level group. */
  | 'create_group'
  /** Create projects for other users, create and remove fork relations. */
  | 'admin_projects';

type ProjectAbility =
  | 'read_project'
  | 'fork_project'
  | 'star_project'
  /** Create, edit and delete the project's labels: reporter or above. */
  | 'admin_label'
  /** Edit settings, manage hooks and members, share with groups. */
  | 'admin_project'
  /** Owner-only: delete, archive, change visibility, rename the path. */
  | 'remove_project'
  | 'archive_project'
  | 'rename_project'
  | 'change_visibility_level'
  /** Create, edit, close and delete milestones: reporter or above. */
  | 'admin_milestone'
  /** See the project's (non-confidential) issues: whoever reads the project, when issues are enabled. */
  | 'read_issue'
  /** See every confidential issue of the project: reporter or above. */
  | 'read_confidential_issues'
  /** Open an issue: any signed-in user who can read the project's issues. */
  | 'create_issue'
  /** Edit any issue, set its labels, milestone and assignee: reporter or above. */
  | 'admin_issue'
  /** Delete an issue: owner only. */
  | 'destroy_issue'
  /** Set an issue's `created_at` / `updated_at`: owner only (admins too, as for everything). */
  | 'set_issue_timestamps';

type GroupAbility =
  | 'read_group'
  | 'create_projects'
  /** Owner-only: edit and delete the group, manage its members, create subgroups. */
  | 'admin_group';

export type Ability = GlobalAbility | ProjectAbility | GroupAbility;

const GUEST = 10;
const REPORTER = 20;
const MAINTAINER = 40;
const OWNER = 50;

export function isAdmin(user: User | null): user is User {
  return user !== null && user.admin && user.state === 'active';
}

/** `private` needs a membership; `internal` any signed-in non-external user; `public` nobody. */
function visibleTo(user: User | null, visibility: Namespace['visibility'], level: number): boolean {
  if (level >= GUEST) return true;
  if (visibility === 'public') return true;
  return visibility === 'internal' && user !== null && !user.external;
}

const globalRules: Record<GlobalAbility, (user: User | null) => boolean> = {
  admin_users: isAdmin,
  read_users_admin_fields: isAdmin,
  read_users_list: (user) => user !== null,
  create_group: (user) => user !== null && (user.canCreateGroup || isAdmin(user)),
  admin_projects: isAdmin,
};

const projectRules: Record<ProjectAbility, (user: User | null, s: ProjectSubject) => boolean> = {
  read_project: (user, s) => visibleTo(user, s.project.visibility, s.access.level),
  fork_project: (user, s) => user !== null && projectRules.read_project(user, s) && (s.access.level >= REPORTER || s.project.visibility !== 'private'),
  star_project: (user, s) => user !== null && projectRules.read_project(user, s),
  admin_label: (_user, s) => s.access.level >= REPORTER,
  admin_project: (_user, s) => s.access.level >= MAINTAINER,
  remove_project: (_user, s) => s.access.level >= OWNER,
  archive_project: (_user, s) => s.access.level >= OWNER,
  rename_project: (_user, s) => s.access.level >= OWNER,
  change_visibility_level: (_user, s) => s.access.level >= OWNER,
  admin_milestone: (_user, s) => s.access.level >= REPORTER,
  read_issue: (user, s) => projectRules.read_project(user, s) && s.project.issuesEnabled,
  read_confidential_issues: (user, s) => projectRules.read_issue(user, s) && s.access.level >= REPORTER,
  create_issue: (user, s) => user !== null && projectRules.read_issue(user, s),
  admin_issue: (user, s) => projectRules.read_issue(user, s) && s.access.level >= REPORTER,
  destroy_issue: (_user, s) => s.access.level >= OWNER,
  set_issue_timestamps: (_user, s) => s.access.level >= OWNER,
};

/** The people an issue involves, for the per-issue rules ({@link canReadIssue}, {@link canUpdateIssue}). */
export interface IssueParties {
  confidential: boolean;
  authorId: number;
  assigneeIds: number[];
}

const involved = (user: User | null, issue: IssueParties) =>
  user !== null && (issue.authorId === user.id || issue.assigneeIds.includes(user.id));

/**
 * GitLab's `read_issue` on one issue: a confidential issue only for its author, its assignees,
 * reporters and above, and admins.
 */
export function canReadIssue(user: User | null, subject: ProjectSubject, issue: IssueParties): boolean {
  if (!can(user, 'read_issue', subject)) return false;
  return !issue.confidential || involved(user, issue) || can(user, 'read_confidential_issues', subject);
}

/** Whether a feed event may be shown: its project is readable, and a confidential issue's event only to those who may read the issue. */
export function canReadEvent(user: User | null, subject: ProjectSubject, event: { restrictedTo?: number[] | null }): boolean {
  if (!can(user, 'read_project', subject)) return false;
  if (!event.restrictedTo) return true;
  return (user !== null && event.restrictedTo.includes(user.id)) || can(user, 'read_confidential_issues', subject);
}

/** GitLab's `update_issue`: the author, an assignee, or reporter and above (admins included). */
export function canUpdateIssue(user: User | null, subject: ProjectSubject, issue: IssueParties): boolean {
  return canReadIssue(user, subject, issue) && (involved(user, issue) || can(user, 'admin_issue', subject));
}

const groupRules: Record<GroupAbility, (user: User | null, s: GroupSubject) => boolean> = {
  read_group: (user, s) => visibleTo(user, s.group.visibility, s.level),
  create_projects: (_user, s) => s.level >= MAINTAINER,
  admin_group: (_user, s) => s.level >= OWNER,
};

/** Whether `user` (null: anonymous) may do `ability`, on `subject` for project and group abilities. */
export function can(user: User | null, ability: GlobalAbility): boolean;
export function can(user: User | null, ability: ProjectAbility, subject: ProjectSubject): boolean;
export function can(user: User | null, ability: GroupAbility, subject: GroupSubject): boolean;
export function can(user: User | null, ability: Ability, subject?: ProjectSubject | GroupSubject): boolean {
  if (ability in globalRules) return globalRules[ability as GlobalAbility](user);
  // Admins may do everything to every project and group (blocked admins are never authenticated).
  if (isAdmin(user)) return true;
  if (subject?.kind === 'project') return projectRules[ability as ProjectAbility](user, subject);
  if (subject?.kind === 'group') return groupRules[ability as GroupAbility](user, subject);
  return false;
}

/** Throws 403 (401 when anonymous) unless `user` may do `ability`. */
export function authorize(user: User | null, ability: GlobalAbility, reason?: string): asserts user is User;
export function authorize(user: User | null, ability: ProjectAbility, subject: ProjectSubject): asserts user is User;
export function authorize(user: User | null, ability: GroupAbility, subject: GroupSubject): asserts user is User;
export function authorize(user: User | null, ability: Ability, subjectOrReason?: ProjectSubject | GroupSubject | string): asserts user is User {
  const subject = typeof subjectOrReason === 'object' ? subjectOrReason : undefined;
  if ((can as (u: User | null, a: Ability, s?: ProjectSubject | GroupSubject) => boolean)(user, ability, subject)) return;
  if (user === null) throw new UnauthorizedError();
  throw new ForbiddenError(typeof subjectOrReason === 'string' ? subjectOrReason : undefined);
}
