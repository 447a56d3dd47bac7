/**
 * The projects of a group and the projects shared with it, read from the projects feature's
 * collections (GSI3 `NAMESPACE_PROJECTS#<id>`, GSI1 `GROUP_SHARES#<id>`) for the group's own
 * writes and reads: visibility checks, deletion, the projects `GET /groups/:id` embeds.
 *
 * The one store module of the groups feature that imports the projects feature: it sits above
 * projects in the feature DAG, like the group commands and queries that use it, and the feature's
 * index.ts never exports it.
 */
import { projectCollections, projectFromItem, projectKeys, type Project } from '../../projects';
import { getMany } from '../../platform/dynamo/batch';
import { queryCollection } from '../../platform/dynamo/query';

/**
 * A namespace's projects as the namespace-projects index has them (eventually consistent; ones
 * being deleted included), by id, read a Query page at a time as the consumer pulls.
 */
export async function* indexedProjectsOf(namespaceId: number): AsyncGenerator<Project> {
  for await (const item of queryCollection(projectCollections.namespaceProjects(namespaceId))) yield projectFromItem(item);
}

/** The ids of the projects shared with a group (GSI1, eventually consistent), a Query page at a time. */
export async function* projectIdsSharedWith(groupId: number): AsyncGenerator<number> {
  for await (const item of queryCollection(projectCollections.groupShares(groupId))) yield Number(item.projectId);
}

/** Projects by id (one BatchGetItem per 100, consistent); missing ones and those being deleted are left out. */
export async function getLiveProjects(ids: number[]): Promise<Project[]> {
  return (await getMany(ids.map((id) => projectKeys.project(id)))).map(projectFromItem).filter((project) => !project.deleting);
}
