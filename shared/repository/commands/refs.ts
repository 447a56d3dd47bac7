/**
 * Ref changes made through the API (commits, branches, tags, a merge request's merge) and what
 * follows them, as after a push: each change is a compare-and-swap on the ref (`store/refs.ts`), and a change that landed is
 * reported like a push (`push/`: activity, the default branch of an empty repository, feed events,
 * webhooks), as GitLab's API writes run the same post-receive work as `git push`.
 *
 * The checks GitLab's pre-receive hook makes on API changes (`Gitlab::Checks::BranchCheck` and
 * `TagCheck`, for changes made "from the web") are here too, with their messages; pushes make the
 * tag checks too.
 */
import { can, type ProjectSubject } from '../../auth';
import { getNamespace, type Namespace } from '../../namespaces';
import type { User } from '../../users';
import { afterPush } from '../push';
import { ZERO_OID, type Repository } from '../repository';
import { updateRef, type RefUpdate } from '../store/refs';
import type { ObjectReader } from '../queries/objects';
import { BranchRules, type RefProtection, type TagRules } from '../queries/protection';
import { BRANCH_PREFIX } from '../queries/revisions';

/** Who changes the refs of which repository. */
export interface RefWriter {
  subject: ProjectSubject;
  user: User;
  repository: Repository;
}

/** The pre-receive hook's messages (`Gitlab::Checks::BranchCheck::ERROR_MESSAGES`). */
export const BRANCH_CHECK_ERRORS = {
  deleteDefaultBranch: 'The default branch of a project cannot be deleted.',
  forcePushProtectedBranch: 'You are not allowed to force push code to a protected branch on this project.',
  deleteProtectedBranch:
    'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
  pushProtectedBranch: 'You are not allowed to push code to protected branches on this project.',
  createProtectedBranch: 'You are not allowed to create protected branches on this project.',
  invalidCommitCreateProtectedBranch: 'You can only use an existing protected branch ref as the basis of a new protected branch.',
  hexBranchName: 'You cannot create a branch with a 40-character hexadecimal branch name.',
} as const;

/**
 * What GitLab's pre-receive checks say to a branch change made through the API, or `undefined`
 * when it may go ahead. `oldOid`/`newOid` null: the branch is created / deleted.
 */
export async function branchCheck(
  writer: RefWriter,
  reader: ObjectReader,
  rules: BranchRules,
  branch: string,
  oldOid: string | null,
  newOid: string | null,
): Promise<string | undefined> {
  const { subject, user } = writer;
  if (newOid === null) {
    if (branch === subject.project.defaultBranch) return BRANCH_CHECK_ERRORS.deleteDefaultBranch;
    if (rules.isProtected(branch) && !rules.canDelete(user, subject, branch)) return BRANCH_CHECK_ERRORS.deleteProtectedBranch;
    return undefined;
  }
  if (oldOid === null && /^[0-9a-f]{40}$/.test(branch)) return BRANCH_CHECK_ERRORS.hexBranchName;
  if (!rules.isProtected(branch)) return undefined;
  if (oldOid === null) {
    if (rules.canPush(user, subject, branch)) return undefined;
    if (!rules.canMerge(user, subject, branch)) return BRANCH_CHECK_ERRORS.createProtectedBranch;
    // The new branch must start at the tip of a protected branch.
    for (const ref of await writer.repository.refs(BRANCH_PREFIX)) {
      if (rules.isProtected(ref.name.slice(BRANCH_PREFIX.length)) && ref.oid === newOid) return undefined;
    }
    return BRANCH_CHECK_ERRORS.invalidCommitCreateProtectedBranch;
  }
  const protection = rules.protection(branch)!;
  if (!protection.allowForcePush && !(await reader.isAncestor(oldOid, newOid))) return BRANCH_CHECK_ERRORS.forcePushProtectedBranch;
  if (!rules.canPush(user, subject, branch)) return BRANCH_CHECK_ERRORS.pushProtectedBranch;
  return undefined;
}

/** The pre-receive hook's messages on tags (`Gitlab::Checks::TagCheck::ERROR_MESSAGES`). */
export const TAG_CHECK_ERRORS = {
  changeExistingTags: 'You are not allowed to change existing tags on this project.',
  updateProtectedTag: 'Protected tags cannot be updated.',
  deleteProtectedTag: 'You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.',
  deleteProtectedTagNonWeb: 'You can only delete protected tags using the web interface.',
  createProtectedTag: 'You are not allowed to create this tag as it is protected.',
} as const;

/**
 * What GitLab's `TagCheck` says to a tag change, or `undefined` when it may go ahead. `oldOid` /
 * `newOid` null: the tag is created / deleted. `web`: the change comes through the API (GitLab's
 * `updated_from_web?`), where a maintainer may delete a protected tag; a push may not. A protected
 * tag is never moved, and even its deletion needs the right to create it.
 */
export function tagCheck(
  { user, subject }: { user: User; subject: ProjectSubject },
  rules: TagRules,
  tag: string,
  oldOid: string | null,
  newOid: string | null,
  web: boolean,
): string | undefined {
  // GitLab's `admin_tag`: developers and up.
  if (oldOid !== null && !can(user, 'push_code', subject)) return TAG_CHECK_ERRORS.changeExistingTags;
  if (!rules.isProtected(tag)) return undefined;
  if (oldOid !== null && newOid !== null) return TAG_CHECK_ERRORS.updateProtectedTag;
  if (newOid === null) {
    // GitLab's `maintainer_access`.
    if (!can(user, 'admin_protected_branches', subject)) return TAG_CHECK_ERRORS.deleteProtectedTag;
    if (!web) return TAG_CHECK_ERRORS.deleteProtectedTagNonWeb;
  }
  if (!rules.canCreate(user, subject, tag)) return TAG_CHECK_ERRORS.createProtectedTag;
  return undefined;
}

/** Where a ref change lands and who makes it, for what follows it (the push's effects). */
interface RefChanger {
  repository: Repository;
  namespace: Namespace;
  user: User;
  /** Git's push option `ci.skip`: the push's listeners start no pipeline. */
  skipCi?: boolean;
}

/** Internal: the compare-and-swap, then the push's effects (activity, events, hooks, listeners) when it landed. */
async function applyRefChange({ repository, namespace, user, skipCi }: RefChanger, update: RefUpdate, rules?: RefProtection): Promise<boolean> {
  const previousRefs = await repository.refs();
  if (!(await updateRef(repository.project.id, update, repository.kind))) return false;
  await afterPush({
    repository,
    namespace,
    user,
    refs: [{ name: update.name, before: update.oldOid ?? ZERO_OID, after: update.newOid ?? ZERO_OID }],
    previousRefs,
    isProtected: (ref) => rules?.protectsRef(ref) ?? false,
    skipCi,
  });
  return true;
}

/**
 * Applies one ref change if the ref still holds `oldOid` (null: absent), then reports it like a
 * push (`rules`: the protections of the ref's kind, for the hooks' `ref_protected`). False when
 * another change won the race.
 */
export async function changeRef(writer: RefWriter, update: RefUpdate, rules?: RefProtection): Promise<boolean> {
  return applyRefChange({ repository: writer.repository, namespace: writer.subject.namespace, user: writer.user }, update, rules);
}

/**
 * Moves a branch from `from` to `to` if it still points at `from` (compare-and-swap), then records
 * what a push of `to` by `user` would: activity, the push event, the Push Hook, and the
 * `onBranchesPushed` listeners. `stale` when the branch moved meanwhile (or is gone): nothing was
 * changed, and the caller starts again from the branch's new tip. No permission or protection is
 * checked here: the caller decided the user may do this (a merge request's merge checks its own
 * rules, as GitLab's merge service does); `to` must be stored. `options.skipCi` is git's push
 * option `ci.skip` (a rebase with `skip_ci`): no pipeline.
 *
 * @example
 * if ((await moveBranch(repository, user, 'main', targetSha, mergeCommit)) === 'stale') // merge again onto the new tip
 */
export async function moveBranch(repository: Repository, user: User, branch: string, from: string, to: string, options: { skipCi?: boolean } = {}): Promise<'moved' | 'stale'> {
  const namespace = await getNamespace(repository.project.namespaceId);
  if (!namespace) throw new Error(`the namespace of project ${repository.project.id} is gone`);
  const rules = await BranchRules.load(repository.project.id);
  const moved = await applyRefChange({ repository, namespace, user, skipCi: options.skipCi }, { name: `${BRANCH_PREFIX}${branch}`, oldOid: from, newOid: to }, rules);
  return moved ? 'moved' : 'stale';
}

/** The message GitLab answers when a ref moved under a write (Gitaly's `updateref.Error`). */
export const refRaceMessage = (ref: string) => `Could not update ${ref}. Please refresh and try again.`;
