/**
 * Projects as GitLab's `BasicProjectDetails` entity shows them (the job token allowlist, an
 * environment's `project`): the Project entity's presenter, its fields kept.
 */
import { getNamespaces } from '../../namespaces';
import { getProjects, presentProjects, projectSubject } from '../../projects';
import type { ProjectSubject } from '../../auth';
import type { User } from '../../users';

/** The fields of GitLab's `BasicProjectDetails` entity, taken from the Project entity. */
const BASIC_PROJECT_FIELDS = [
  'id', 'description', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'created_at', 'default_branch', 'tag_list', 'topics',
  'ssh_url_to_repo', 'http_url_to_repo', 'web_url', 'readme_url', 'forks_count', 'avatar_url', 'star_count', 'last_activity_at', 'namespace',
] as const;

/** The projects of `ids` as GitLab's `BasicProjectDetails`, in that order (deleted ones left out). */
export async function presentBasicProjects(ids: number[], viewer: User) {
  const projects = await getProjects(ids);
  const namespaces = new Map((await getNamespaces([...new Set(projects.map((project) => project.namespaceId))])).map((namespace) => [namespace.id, namespace]));
  const byId = new Map(projects.map((project) => [project.id, project]));
  const subjects = await Promise.all(
    ids.flatMap((id) => {
      const project = byId.get(id);
      const namespace = project && namespaces.get(project.namespaceId);
      return project && namespace ? [projectSubject(project, namespace, viewer)] : [];
    }),
  );
  return presentBasicProjectsOf(subjects, viewer);
}

/** Projects already read (with their namespaces) as GitLab's `BasicProjectDetails`. */
export async function presentBasicProjectsOf(subjects: readonly ProjectSubject[], viewer: User) {
  const presented = (await presentProjects([...subjects], viewer)) as Array<Record<string, unknown>>;
  return presented.map((entity) => Object.fromEntries(BASIC_PROJECT_FIELDS.filter((field) => field in entity).map((field) => [field, entity[field]])));
}

