/**
 * The reads behind the issue lists that span several partitions: a project's state partitions
 * merged by sort key (GSI1/GSI4), the projects of a group tree (the projects' and groups'
 * indexes) and the projects an issue list touches, with their namespaces (BatchGetItem).
 */
import { byKey, getMany } from '../../platform/dynamo/batch';
import type { Collection } from '../../platform/dynamo/keys';
import { queryCollection, type Item } from '../../platform/dynamo/query';
import { namespaceCollections, namespaceFromItem, namespaceKeys, type Namespace } from '../../namespaces';
import { projectCollections, projectFromItem, projectKeys, type Project } from '../../projects';
import { issueFromItem, type Issue } from './issues';

/**
 * The issues of several collections sharing one sort-key format (the list indexes' `issueOrderKey`),
 * merged in sort-key order, each with its sort key; only those past `after` (a sort key) when given.
 * Reads each collection a Query page (`pageSize`) at a time, as the consumer pulls.
 */
export async function* mergedIssues(
  colls: Collection[],
  options: { ascending: boolean; after?: string; pageSize: number },
): AsyncGenerator<{ issue: Issue; sortKey: string }> {
  const { ascending, after, pageSize } = options;
  const sortKeyOf = (item: Item) => item[colls[0].sortAttribute] as string;
  const iterators = colls.map((c) =>
    queryCollection(after === undefined ? c : { ...c, ...(ascending ? { from: after } : { below: after }) }, { ascending, pageSize })[Symbol.asyncIterator](),
  );
  const heads = await Promise.all(iterators.map((it) => it.next()));
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      if (heads[i].done) continue;
      if (best < 0) best = i;
      else {
        const cmp = sortKeyOf(heads[i].value).localeCompare(sortKeyOf(heads[best].value));
        if (ascending ? cmp < 0 : cmp > 0) best = i;
      }
    }
    if (best < 0) return;
    const item = heads[best].value as Item;
    heads[best] = await iterators[best].next();
    const sortKey = sortKeyOf(item);
    if (sortKey === after) continue; // `from` is inclusive
    yield { issue: issueFromItem(item), sortKey };
  }
}

/**
 * The ids of the projects of a group and of its live subgroups, walking the tree breadth-first
 * (one Query per group on the namespace's projects, one on its subgroups when it has some).
 * @returns the ids, or `'too_many'` as soon as there are more than `limit`.
 */
export async function groupProjectIds(group: Namespace, limit: number): Promise<number[] | 'too_many'> {
  const ids: number[] = [];
  const queue = [group];
  const seen = new Set([group.id]);
  for (let current = queue.shift(); current; current = queue.shift()) {
    for await (const item of queryCollection(projectCollections.namespaceProjects(current.id))) {
      ids.push(Number(item.id));
      if (ids.length > limit) return 'too_many';
    }
    if (!current.subgroupCount) continue;
    for await (const item of queryCollection(namespaceCollections.subgroups(current.id))) {
      const child = namespaceFromItem(item);
      if (child.deleting || seen.has(child.id)) continue;
      seen.add(child.id);
      queue.push(child);
    }
  }
  return ids;
}

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
