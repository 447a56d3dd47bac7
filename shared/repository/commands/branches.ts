/**
 * Branch writes of the branches API: create (GitLab's `Branches::CreateService`, which first gives
 * an empty repository its default branch with an empty `README.md`), delete
 * (`Branches::DeleteService`), delete the branches merged into the default branch
 * (`Branches::DeleteMergedService`), and the legacy protect / unprotect of one branch
 * (`ProtectedBranches::LegacyApiCreateService` / `LegacyApiUpdateService`).
 */
import { DEVELOPER, MAINTAINER, type ProjectSubject } from '../../auth';
import { BadRequestError, ConflictError } from '../../platform/http/errors';
import type { User } from '../../users';
import { openRepository } from '../repository';
import { ObjectReader } from '../queries/objects';
import { BranchRules } from '../queries/protection';
import { BRANCH_PREFIX, resolveCommit } from '../queries/revisions';
import {
  deleteProtectedBranch,
  getProtectedBranch,
  insertProtectedBranch,
  updateProtectedBranch,
} from '../store/protected-branches';
import { commitFiles } from './commits';
import { validateNewBranchName } from './ref-names';
import { branchCheck, changeRef } from './refs';

/**
 * Creates a branch at a revision. An empty repository first gets its default branch, with an
 * empty `README.md` (as GitLab does), so that the revision can name it.
 */
export async function createBranch(subject: ProjectSubject, user: User, name: string, revision: string) {
  // Bad input changes nothing: a malformed name is refused before an empty repository gets its
  // default branch (GitLab creates that first; the answer is the same 400).
  const malformed = validateNewBranchName(name, false);
  if (malformed) throw new BadRequestError(malformed);
  let repository = await openRepository(subject.project);
  const existing = await repository.refs(BRANCH_PREFIX);
  if (existing.length === 0) {
    // Only the default branch about to be made can resolve there: any other revision, or a branch
    // of that name, is refused before anything is written (GitLab would commit the README first).
    const defaultBranch = subject.project.defaultBranch;
    if (![defaultBranch, `${BRANCH_PREFIX}${defaultBranch}`, 'HEAD'].includes(revision)) throw new BadRequestError(`Invalid reference name: ${revision}`);
    if (name === defaultBranch) throw new BadRequestError('Branch already exists');
    await commitFiles(subject, user, {
      branch: subject.project.defaultBranch,
      message: 'Add README.md',
      actions: [{ action: 'create', filePath: 'README.md', content: '', encoding: 'text' }],
    });
    repository = await openRepository(subject.project);
  }
  const invalid = validateNewBranchName(name, (await repository.ref(`${BRANCH_PREFIX}${name}`)) !== undefined);
  if (invalid) throw new BadRequestError(invalid);
  const reader = new ObjectReader(repository);
  const commit = await resolveCommit(reader, subject.project, revision);
  if (!commit) throw new BadRequestError(`Invalid reference name: ${revision}`);
  const rules = await BranchRules.load(subject.project.id);
  const writer = { subject, user, repository };
  const refused = await branchCheck(writer, reader, rules, name, null, commit.id);
  if (refused) throw new BadRequestError(refused);
  if (!(await changeRef(writer, { name: `${BRANCH_PREFIX}${name}`, oldOid: null, newOid: commit.id }, rules))) {
    throw new BadRequestError('Branch already exists');
  }
  return { name, commit, reader, rules };
}

/** Deletes a branch the caller found (`oid` its tip then); GitLab's pre-receive checks first. */
export async function deleteBranch(subject: ProjectSubject, user: User, name: string, oid: string): Promise<void> {
  const repository = await openRepository(subject.project);
  const reader = new ObjectReader(repository);
  const rules = await BranchRules.load(subject.project.id);
  const writer = { subject, user, repository };
  const refused = await branchCheck(writer, reader, rules, name, oid, null);
  if (refused) throw new BadRequestError(refused);
  if (!(await changeRef(writer, { name: `${BRANCH_PREFIX}${name}`, oldOid: oid, newOid: null }, rules))) {
    throw new BadRequestError('Failed to remove branch');
  }
}

/**
 * Deletes every branch merged into the default branch (its tip an ancestor of the default
 * branch's, and not the same commit), but protected branches; nothing when the caller may not push
 * (GitLab's worker then fails, after the API has answered).
 */
export async function deleteMergedBranches(subject: ProjectSubject, user: User, canPush: boolean): Promise<void> {
  if (!canPush) return;
  const repository = await openRepository(subject.project);
  const reader = new ObjectReader(repository);
  const branches = await repository.refs(BRANCH_PREFIX);
  const root = branches.find((ref) => ref.name === `${BRANCH_PREFIX}${subject.project.defaultBranch}`);
  if (!root) return;
  const rules = await BranchRules.load(subject.project.id);
  const writer = { subject, user, repository };
  for (const ref of branches) {
    const name = ref.name.slice(BRANCH_PREFIX.length);
    if (ref.oid === root.oid || rules.isProtected(name)) continue;
    if (!(await reader.isAncestor(ref.oid, root.oid))) continue;
    await changeRef(writer, { name: ref.name, oldOid: ref.oid, newOid: null }, rules);
  }
}

/**
 * `PUT …/branches/:branch/protect`: protects the branch's exact name, or changes its protection;
 * `developers_can_push` / `developers_can_merge` choose developers (30) or maintainers (40), and
 * an absent flag leaves an existing level alone (a new protection gets maintainers).
 */
export async function protectBranch(projectId: number, name: string, flags: { developersCanPush?: boolean; developersCanMerge?: boolean }): Promise<void> {
  const level = (flag: boolean | undefined) => (flag === undefined ? undefined : flag ? DEVELOPER : MAINTAINER);
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await getProtectedBranch(projectId, name);
    if (!existing) {
      const created = await insertProtectedBranch(projectId, name, {
        pushAccessLevel: level(flags.developersCanPush) ?? MAINTAINER,
        mergeAccessLevel: level(flags.developersCanMerge) ?? MAINTAINER,
        allowForcePush: false,
      });
      if (created === 'project_gone') throw new ConflictError('Project is being deleted');
      if (created !== 'exists') return;
      continue;
    }
    const updated = await updateProtectedBranch(existing, { pushAccessLevel: level(flags.developersCanPush), mergeAccessLevel: level(flags.developersCanMerge) });
    if (updated !== 'stale') return;
  }
  throw new ConflictError('Protected branch changed meanwhile, try again');
}

/** `PUT …/branches/:branch/unprotect`: removes the protection of the branch's exact name, if any. */
export async function unprotectBranch(projectId: number, name: string): Promise<void> {
  await deleteProtectedBranch(projectId, name);
}
