/**
 * Merge requests across repositories (a source branch in a fork): the target repository must read
 * the source's commits, to diff, merge and then point its branch at a merge commit whose second
 * parent is the source's tip.
 *
 * A fork reads and writes its source's object pool (`lifecycle.ts`), so a fork's pushes land in
 * the pool its upstream reads: opened afresh, the upstream reads them with no copy, and this is a
 * no-op. Repositories with different pools (a fork made while its source had no repository yet, or
 * any two unrelated projects) need the objects copied, as GitLab fetches a fork's source branch into
 * the target repository (`MergeRequests::FetchSourceBranch`): this copies what the target lacks
 * (`git rev-list --objects head --not <target's refs>`) as one pack into the target's pool.
 */
import { objectsToSend } from '../git/walk';
import type { GitObject } from '../git/objects/types';
import type { Repository } from '../repository';

/**
 * Makes `head` (a commit of `source`) and its history readable in `target`; answers how many
 * objects were copied (0 when the two share their pool, or `target` had them).
 *
 * @example
 * await fetchCommits(await openRepository(targetProject), await openRepository(forkProject), sourceSha);
 */
export async function fetchCommits(target: Repository, source: Repository, head: string): Promise<number> {
  if (target.pool !== undefined && target.pool === source.pool) return 0;
  // Objects enter a pool with their whole history (pushes are checked connected; copies are whole).
  if (await target.read(head)) return 0;
  const read = async (oid: string) => (await target.read(oid)) ?? source.read(oid);
  const haves = (await target.refs()).map((ref) => ref.oid);
  const { oids } = await objectsToSend({ read, wants: [head], haves });
  const objects: GitObject[] = [];
  for (const oid of oids) {
    const object = await source.read(oid);
    if (object) objects.push(object);
  }
  await target.writeObjects(objects);
  return objects.length;
}
