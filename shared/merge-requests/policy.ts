/**
 * The rules that need a merge request or a branch loaded (GitLab's `MergeRequestPolicy`,
 * `MergeRequest#can_be_merged_by?`); the project abilities are `abilities.ts`, through `can`.
 */
import { can, isAdmin, type ProjectSubject } from '../auth';
import type { Caller } from '../platform/http/context';
import { branchProtection, BranchRules } from '../repository';
import type { User } from '../users';

/** The people a merge request involves. */
export interface MergeRequestParties {
  authorId: number;
  assigneeId: number | null;
}

/** GitLab's `update_merge_request`: the author, the assignee, or developers and above. */
export function canUpdateMergeRequest(user: Caller | null, subject: ProjectSubject, mr: MergeRequestParties): boolean {
  if (!can(user, 'read_merge_request', subject)) return false;
  if (user !== null && (mr.authorId === user.id || mr.assigneeId === user.id)) return true;
  return can(user, 'admin_merge_request', subject);
}

/**
 * `MergeRequest#can_be_merged_by?`: the user may update the target branch: push to it, or merge
 * into it (a protected branch: maintainers, or developers when `developers_can_merge`; an
 * unprotected branch: developers and above).
 */
export async function canMergeInto(user: Caller, subject: ProjectSubject, branch: string): Promise<boolean> {
  if (isAdmin(user)) return true;
  if (!can(user, 'push_code', subject)) return false;
  const protection = await branchProtection(subject.project.id, branch);
  if (!protection) return true;
  const levels = [protection.mergeLevel, protection.pushLevel].filter((level) => level !== 0);
  // Admins returned above; 60 (instance admins only) lets no one else in.
  return levels.some((level) => level !== 60 && subject.access.level >= level);
}

/** Whether `user` may delete `branch` of the source project after a merge (`can_remove_source_branch?`). */
export async function canRemoveBranch(user: Caller, subject: ProjectSubject, branch: string): Promise<boolean> {
  if (branch === subject.project.defaultBranch) return false;
  if (!can(user, 'push_code', subject)) return false;
  const protection = await branchProtection(subject.project.id, branch);
  return protection === undefined;
}

/**
 * Why `user` may not rebase the source branch in `source` (GitLab's `RebaseService#validate`, in
 * its order), or `undefined` when they may: they must push to it (`can_push_to_branch?`), and a
 * protected branch must allow force pushes (`permits_force_push?`).
 */
export async function rebaseRefusal(user: User, source: ProjectSubject, branch: string): Promise<string | undefined> {
  const rules = await BranchRules.load(source.project.id);
  if (!rules.canPush(user, source, branch)) return 'Cannot push to source branch';
  const protection = rules.protection(branch);
  if (protection && !protection.allowForcePush) return 'Source branch is protected from force push';
  return undefined;
}
