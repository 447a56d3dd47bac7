/**
 * The projects a single group response (`GET /groups/:id`, and `PUT`) embeds. They come from the
 * projects feature, so this module sits above it and is reached only from the groups routes.
 */
import { can, projectAccessForMany, type ProjectSubject } from '../../auth';
import { projectList } from '../../projects';
import { paginate, type PageLinkBase, type PaginationParams } from '../../platform/http/pagination';
import type { User } from '../../users';
import { getNamespaces, type Namespace } from '../../namespaces';
import { getLiveProjects, projectIdsSharedWith } from '../store/projects';

/** How many projects `GET /groups/:id` embeds (`projects`, `shared_projects` each). */
export const DETAIL_PROJECTS_LIMIT = 20;

/**
 * The projects `GET /groups/:id` embeds: the group's own projects the caller may see (newest
 * first) and the projects shared with the group that the caller may see, up to
 * {@link DETAIL_PROJECTS_LIMIT} each. Costs one project list page plus one index query and three
 * batch reads for the shares.
 */
export async function groupDetailProjects(
  viewer: User | null,
  group: Namespace,
  link: PageLinkBase,
): Promise<{ projects: ProjectSubject[]; sharedProjects: ProjectSubject[] }> {
  const firstPage: PaginationParams = { page: 1, per_page: DETAIL_PROJECTS_LIMIT };
  const [own, sharedProjects] = await Promise.all([
    projectList(viewer, { namespaceId: group.id }, firstPage).then((list) => paginate(firstPage, link, list)),
    sharedWith(viewer, group),
  ]);
  return { projects: own.items, sharedProjects };
}

/** The projects shared with `group` that `viewer` may read, up to {@link DETAIL_PROJECTS_LIMIT}, by id. Internal. */
async function sharedWith(viewer: User | null, group: Namespace): Promise<ProjectSubject[]> {
  const subjects: ProjectSubject[] = [];
  let ids: number[] = [];
  const load = async () => {
    const projects = await getLiveProjects(ids);
    const namespaces = new Map((await getNamespaces([...new Set(projects.map((p) => p.namespaceId))])).map((n) => [n.id, n]));
    const entries = projects.flatMap((project) => {
      const namespace = namespaces.get(project.namespaceId);
      return namespace ? [{ project, namespace }] : [];
    });
    const access = await projectAccessForMany(viewer, entries);
    entries.forEach((entry, i) => {
      const subject: ProjectSubject = { kind: 'project', ...entry, access: access[i] };
      if (can(viewer, 'read_project', subject) && subjects.length < DETAIL_PROJECTS_LIMIT) subjects.push(subject);
    });
    ids = [];
  };
  for await (const projectId of projectIdsSharedWith(group.id)) {
    ids.push(projectId);
    if (ids.length >= DETAIL_PROJECTS_LIMIT) {
      await load();
      if (subjects.length >= DETAIL_PROJECTS_LIMIT) break;
    }
  }
  if (ids.length > 0) await load();
  return subjects.sort((a, b) => a.project.id - b.project.id);
}
