/**
 * What abilities are written with (each feature declares its own in `shared/<feature>/abilities.ts`;
 * `policy.ts` assembles them): GitLab's access levels, the subjects a rule looks at, and the
 * visibility rule every read ability starts from. Pure: no I/O, types only from other features.
 */
import type { Namespace } from '../namespaces';
import type { Caller } from '../platform/http/context';
import type { Project } from '../projects';
import type { ProjectAccess } from './access';

/** GitLab's access levels (`Gitlab::Access`). */
export const ACCESS_LEVELS = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;
export const GUEST = ACCESS_LEVELS.guest;
export const REPORTER = ACCESS_LEVELS.reporter;
export const DEVELOPER = ACCESS_LEVELS.developer;
export const MAINTAINER = ACCESS_LEVELS.maintainer;
export const OWNER = ACCESS_LEVELS.owner;
/** Levels a project member may have (owner is not a project level) and a group member may have. */
export const PROJECT_ACCESS_LEVELS = [GUEST, REPORTER, DEVELOPER, MAINTAINER] as const;
export const GROUP_ACCESS_LEVELS = [GUEST, REPORTER, DEVELOPER, MAINTAINER, OWNER] as const;

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

/** An ability that needs no subject (global), and one on a project or a group. */
export type GlobalRule = (user: Caller | null) => boolean;
export type ProjectRule = (user: Caller | null, subject: ProjectSubject) => boolean;
export type GroupRule = (user: Caller | null, subject: GroupSubject) => boolean;

/** One feature's abilities, by kind of subject. */
export interface Abilities {
  global?: Record<string, GlobalRule>;
  project?: Record<string, ProjectRule>;
  group?: Record<string, GroupRule>;
}

export function isAdmin(user: Caller | null): user is Caller {
  return user !== null && user.admin && user.state === 'active';
}

/** `private` needs a membership; `internal` any signed-in non-external user; `public` nobody. */
export function visibleTo(user: Caller | null, visibility: Namespace['visibility'], level: number): boolean {
  if (level >= GUEST) return true;
  if (visibility === 'public') return true;
  return visibility === 'internal' && user !== null && !user.external;
}

/** GitLab's `read_project`: the visibility rule on the project and the caller's access. */
export const readsProject: ProjectRule = (user, s) => visibleTo(user, s.project.visibility, s.access.level);

/** A project feature with an access level (GitLab's `ProjectFeature`), and its `…Enabled` flag on the project. */
export const PROJECT_FEATURES = {
  issues: 'issuesEnabled',
  merge_requests: 'mergeRequestsEnabled',
  builds: 'jobsEnabled',
  wiki: 'wikiEnabled',
  snippets: 'snippetsEnabled',
  container_registry: 'containerRegistryEnabled',
} as const satisfies Record<string, keyof Project>;
export type ProjectFeature = keyof typeof PROJECT_FEATURES;
export type FeatureAccessLevel = 'disabled' | 'private' | 'enabled';

/** A feature's access level: `disabled`, `private` (members only, `membersOnlyFeatures`) or `enabled`. */
export function featureAccessLevel(project: Pick<Project, ProjectFlag | 'membersOnlyFeatures'>, feature: ProjectFeature): FeatureAccessLevel {
  if (!project[PROJECT_FEATURES[feature]]) return 'disabled';
  return project.membersOnlyFeatures?.includes(feature) ? 'private' : 'enabled';
}
type ProjectFlag = (typeof PROJECT_FEATURES)[ProjectFeature];

/**
 * GitLab's `feature_available?`: a feature of the project on for everyone who reads the project,
 * or, at access level `private`, for its members from `minimum` up and admins.
 */
export function featureOpen(user: Caller | null, s: ProjectSubject, feature: ProjectFeature, minimum: number = GUEST): boolean {
  const level = featureAccessLevel(s.project, feature);
  if (level === 'disabled' || !readsProject(user, s)) return false;
  return level === 'enabled' || s.access.level >= minimum || isAdmin(user);
}
