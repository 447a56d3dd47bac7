/**
 * The reads behind the issue lists that span several partitions: the projects an issue list
 * touches, with their namespaces (BatchGetItem).
 */
import { byKey, getMany } from '../../platform/dynamo/batch';
import { namespaceFromItem, namespaceKeys, type Namespace } from '../../namespaces';
import { projectFromItem, projectKeys, type Project } from '../../projects';

/**
 * The given projects that exist and are not being deleted, each with its namespace (two
 * BatchGetItems, consistent), in the order read.
 */
export async function getProjectsWithNamespaces(projectIds: number[]): Promise<Array<{ project: Project; namespace: Namespace }>> {
  const projects = (await getMany(projectIds.map((id) => projectKeys.project(id)))).map(projectFromItem).filter((p) => !p.deleting);
  const namespaceItem = byKey(await getMany([...new Set(projects.map((p) => p.namespaceId))].map((id) => namespaceKeys.namespace(id))));
  return projects.flatMap((project) => {
    const item = namespaceItem(namespaceKeys.namespace(project.namespaceId));
    return item ? [{ project, namespace: namespaceFromItem(item) }] : [];
  });
}
