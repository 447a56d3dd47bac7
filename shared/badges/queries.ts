/**
 * Reads of badges: a project's list (its own badges and its groups'), a group's, one badge, and
 * the values a page's placeholders need. The caller is authorized by the route (reading a
 * project or group is enough to read its badges, as in GitLab).
 */
import type { ProjectSubject } from '../auth';
import type { Namespace } from '../namespaces';
import { projectFullPath, projectList, type Project } from '../projects';
import type { User } from '../users';
import { config } from '../platform/config';
import { RecordNotFoundError } from '../platform/http/errors';
import { mergedCollections, type StreamSource } from '../platform/http/pagination';
import { lazily } from '../platform/lazy';
import { placeholdersIn, type Placeholder, type PlaceholderValues } from './placeholders';
import { badgeFromItem, getBadge, type Badge } from './store/badges';
import { badgeCollections, isBadgeSortKey, type BadgeSource } from './store/keys';

/**
 * The badges of a project or a group, oldest first, those named `name` (exact, case-sensitive)
 * when it is given. A project's list holds its own badges and those of its group and every
 * ancestor group (GitLab's `Project#badges`), merged in creation (id) order: one Query per source,
 * a page at a time, so a page costs what it shows whatever the badges of other pages.
 */
export function badgeList(source: BadgeSource, namespace: Namespace | undefined, name: string | undefined): StreamSource<Badge> {
  const groups = source.kind === 'project' && namespace?.kind === 'group' ? [namespace.id, ...namespace.ancestorIds] : [];
  const sources: BadgeSource[] = [source, ...groups.map((id) => ({ kind: 'group' as const, id }))];
  return mergedCollections(sources.map(badgeCollections.badges), {
    ascending: true,
    isSortKey: isBadgeSortKey,
    select: (item) => {
      const badge = badgeFromItem(item);
      return name === undefined || badge.name === name ? badge : undefined;
    },
  });
}

/** A badge of the project or group itself (not an inherited group badge); GitLab's `404 Not found` otherwise. */
export async function findBadgeOrNotFound(source: BadgeSource, badgeId: number): Promise<Badge> {
  const badge = await getBadge(source, badgeId);
  if (!badge) throw new RecordNotFoundError();
  return badge;
}

/**
 * The project a group's badges are rendered with (GitLab's `GroupProjectsFinder…first`): the
 * group's newest project the caller may read; `undefined` when there is none, and the group's
 * badges are then shown unrendered. One page of the group's project list.
 */
export async function renderingProjectOf(group: Namespace, viewer: User | null): Promise<ProjectSubject | undefined> {
  const list = await projectList(viewer, { namespaceId: group.id }, {});
  if (Array.isArray(list)) return list[0];
  for await (const entry of list.read(undefined, 1, 1)) if (entry.value) return entry.value;
  return undefined;
}

// The repository is read only when a URL asks for its commit or tag (loaded on first use: the
// projects' and groups' functions do not load the repository's code at cold start for it).
const defaultBranchHead = lazily(() => import('../repository'), (m) => m.defaultBranchHead);
const latestTagName = lazily(() => import('../repository'), (m) => m.latestTagName);

/** GitLab's `Gitlab.config.pages.host` where Pages are not set up (none are here). */
const PAGES_HOST = 'example.com';

/**
 * The values of the placeholders `urls` use, from `subject`'s project (GitLab's `Badge::PLACEHOLDERS`);
 * `undefined` without a project: nothing is rendered. A value GitLab would not know (a commit of an
 * empty repository, a tag where there is none, the group of a project in a user's namespace) is
 * left out, and its placeholder stays as written. Only `default_branch`, `commit_sha` (the default
 * branch's ref: none, an empty repository) and `latest_tag` (every tag) read anything, and only when
 * asked for.
 */
export async function placeholderValues(subject: { project: Project; namespace: Namespace } | undefined, urls: string[]): Promise<PlaceholderValues | undefined> {
  if (!subject) return undefined;
  const { project, namespace } = subject;
  const wanted = new Set<Placeholder>(urls.flatMap((url) => [...placeholdersIn(url)]));
  const [commitSha, latestTag] = await Promise.all([
    wanted.has('commit_sha') || wanted.has('default_branch') ? defaultBranchHead(project) : undefined,
    wanted.has('latest_tag') ? latestTagName(project) : undefined,
  ]);
  return {
    project_path: projectFullPath(namespace, project),
    project_title: project.name,
    project_name: project.path,
    project_id: String(project.id),
    project_namespace: namespace.fullPath,
    group_name: namespace.kind === 'group' ? namespace.fullPath : undefined,
    gitlab_server: new URL(config().externalUrl).hostname,
    gitlab_pages_domain: PAGES_HOST,
    // An empty repository has no default branch in GitLab (`Project#default_branch` is nil).
    default_branch: commitSha ? project.defaultBranch : undefined,
    commit_sha: commitSha,
    latest_tag: latestTag,
  };
}
