/**
 * Branch reads: a project's branches (by name, filtered by `search` and `regex` as GitLab's
 * `BranchesFinder`), one branch, and what GitLab's `Branch` entity shows of each: the tip commit,
 * whether it is merged into the default branch (its tip an ancestor of the default branch's, and
 * not the same commit), its protection, and whether the caller may push to it.
 */
import type { ProjectSubject } from '../../auth';
import { NotFoundError, ParamError } from '../../platform/http/errors';
import type { User } from '../../users';
import type { BranchView } from '../presenters/branches';
import type { Ref } from '../store/refs';
import type { ObjectReader } from './objects';
import type { BranchRules } from './protection';
import { BRANCH_PREFIX } from './revisions';

export const branchName = (ref: Ref) => ref.name.slice(BRANCH_PREFIX.length);

/**
 * GitLab's name search: `^term` starts with it, `term$` ends with it, anything else contains it;
 * case-insensitively.
 */
export function matchesSearch(name: string, search: string | undefined): boolean {
  if (!search) return true;
  const term = search.toLowerCase();
  const lower = name.toLowerCase();
  if (term.startsWith('^')) return lower.startsWith(term.slice(1));
  if (term.endsWith('$')) return lower.endsWith(term.slice(0, -1));
  return lower.includes(term);
}

/** A project's branch refs in name (byte) order, filtered. */
export async function listBranchRefs(reader: ObjectReader, filters: { search?: string; regex?: string }): Promise<Ref[]> {
  let pattern: RegExp | undefined;
  if (filters.regex) {
    try {
      pattern = new RegExp(filters.regex);
    } catch {
      throw new ParamError('regex is invalid');
    }
  }
  return (await reader.repository.refs(BRANCH_PREFIX)).filter((ref) => matchesSearch(branchName(ref), filters.search) && (!pattern || pattern.test(branchName(ref))));
}

/** A branch by name; `404 Branch Not Found` otherwise (also in an empty repository). */
export async function findBranchOrNotFound(reader: ObjectReader, name: string): Promise<Ref> {
  const ref = await reader.repository.ref(`${BRANCH_PREFIX}${name}`);
  if (!ref || !(await reader.peelToCommit(ref.oid))) throw new NotFoundError('Branch');
  return ref;
}

/** What the `Branch` entity shows of some branches (one `merged` walk per branch). */
export async function branchViews(reader: ObjectReader, subject: ProjectSubject, user: User | null, refs: Ref[], rules: BranchRules): Promise<BranchView[]> {
  const defaultBranch = subject.project.defaultBranch;
  const root = await reader.repository.ref(`${BRANCH_PREFIX}${defaultBranch}`);
  const views: BranchView[] = [];
  for (const ref of refs) {
    const commit = await reader.peelToCommit(ref.oid);
    if (!commit) continue;
    const name = branchName(ref);
    views.push({
      name,
      commit,
      merged: root !== undefined && commit.id !== root.oid && (await reader.isAncestor(commit.id, root.oid)),
      protected: rules.isProtected(name),
      developersCanPush: rules.developersCan('push', name),
      developersCanMerge: rules.developersCan('merge', name),
      canPush: rules.canPush(user, subject, name),
      default: name === defaultBranch,
    });
  }
  return views;
}
