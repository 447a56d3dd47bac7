/**
 * The refs a merge request keeps in its target repository, as GitLab does:
 * `refs/merge-requests/<iid>/head` holds the source branch's head, so the commits of every diff
 * version stay reachable (housekeeping keeps what refs reach) after the source branch or the fork
 * is gone, and clients can fetch a merge request by its ref. Pushes can neither see nor change
 * them (`isHiddenFromPush`).
 */
import type { Repository } from '../repository';
import { updateRef } from '../store/refs';

export const mergeRequestHeadRef = (iid: number): string => `refs/merge-requests/${iid}/head`;

/** Points the merge request's head ref at `sha` (created when missing); concurrent writers converge on the last one. */
export async function keepMergeRequestHead(repository: Repository, iid: number, sha: string): Promise<void> {
  const name = mergeRequestHeadRef(iid);
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await repository.ref(name);
    if (current?.oid === sha) return;
    if (await updateRef(repository.project.id, { name, oldOid: current?.oid ?? null, newOid: sha })) return;
  }
  throw new Error(`${name} of project ${repository.project.id} kept changing`);
}
