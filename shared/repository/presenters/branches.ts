/**
 * GitLab's `Branch` entity. The query works out every field (`queries/branches.ts`): the tip
 * commit, whether the branch is merged into the default branch, its protection, and whether the
 * caller may push to it.
 */
import type { CommitObject } from '../queries/objects';
import { presentCommit } from './commits';

export interface BranchView {
  name: string;
  commit: CommitObject;
  merged: boolean;
  protected: boolean;
  developersCanPush: boolean;
  developersCanMerge: boolean;
  canPush: boolean;
  default: boolean;
}

/** A URL path of a ref name: each segment escaped, slashes kept (as Rails' route helpers). */
export const refUrlPath = (name: string) => name.split('/').map(encodeURIComponent).join('/');

export function presentBranch(branch: BranchView, projectWebUrl: string) {
  return {
    name: branch.name,
    commit: presentCommit(branch.commit, { projectWebUrl }),
    merged: branch.merged,
    protected: branch.protected,
    developers_can_push: branch.developersCanPush,
    developers_can_merge: branch.developersCanMerge,
    can_push: branch.canPush,
    default: branch.default,
    web_url: `${projectWebUrl}/-/tree/${refUrlPath(branch.name)}`,
  };
}
