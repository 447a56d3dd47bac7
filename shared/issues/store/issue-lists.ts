/**
 * The reads behind the issue lists that span several partitions: the projects an issue list
 * touches, with their namespaces (BatchGetItem).
 */
import { getMany } from '../../platform/dynamo/batch';
import { getNamespaces, type Namespace } from '../../namespaces';
import { projectFromItem, projectKeys, type Project } from '../../projects';

/**
 * The given projects that exist and are not being deleted, nor under a group being deleted, each
 * with its namespace (two BatchGetItems, consistent; a third for a subgroup's ancestors), in the
 * order read.
 */
export async function getProjectsWithNamespaces(projectIds: number[]): Promise<Array<{ project: Project; namespace: Namespace }>> {
  const projects = (await getMany(projectIds.map((id) => projectKeys.project(id)))).map(projectFromItem).filter((p) => !p.deleting);
  // Live namespaces only: none being deleted, none under a group being deleted.
  const namespaces = new Map((await getNamespaces([...new Set(projects.map((p) => p.namespaceId))])).map((namespace) => [namespace.id, namespace] as const));
  return projects.flatMap((project) => {
    const namespace = namespaces.get(project.namespaceId);
    return namespace ? [{ project, namespace }] : [];
  });
}
