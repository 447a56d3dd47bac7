/**
 * Branch protection as GitLab decides it (`ProtectedBranch`, `Gitlab::UserAccess`): which
 * protected names a branch matches (exactly, or a pattern where `*` matches any characters,
 * slashes included), whether it is protected, and whether a user may push to it, merge into it or
 * delete it. A project's protections are read once per request and checked in memory.
 */
import { can, type ProjectSubject } from '../../auth';
import type { User } from '../../users';
import { listProtectedBranches, type AccessLevelGrant, type ProtectedBranch } from '../store/protected-branches';

/** GitLab's access levels of protected refs: no one, developers and maintainers, maintainers, instance admins. */
export const NO_ACCESS = 0;
export const ADMIN_ACCESS = 60;

/** What a branch's protections allow, combined over every protected name it matches. */
export interface BranchProtection {
  /** The lowest level that may push (0: no one; 60: instance admins only). */
  pushLevel: number;
  /** The lowest level that may merge. */
  mergeLevel: number;
  /** Whether any matching protection allows force pushes. */
  allowForcePush: boolean;
}

/** Whether a protected name matches a branch: the name itself, or a pattern with `*` (GitLab's `ProtectedRef::WildcardMatcher`). */
export function matchesProtectedName(pattern: string, branch: string): boolean {
  if (!pattern.includes('*')) return pattern === branch;
  const regex = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*?');
  return new RegExp(`^${regex}$`, 's').test(branch);
}

/** The lowest of some grants that lets anyone in (0 when all are "no one"). */
function lowestLevel(grants: AccessLevelGrant[]): number {
  const open = grants.map((grant) => grant.accessLevel).filter((level) => level !== NO_ACCESS);
  return open.length > 0 ? Math.min(...open) : NO_ACCESS;
}

/** The protections of a project, and the checks on its branches. */
export class BranchRules {
  constructor(readonly protections: ProtectedBranch[]) {}

  static async load(projectId: number): Promise<BranchRules> {
    return new BranchRules(await listProtectedBranches(projectId));
  }

  matching(branch: string): ProtectedBranch[] {
    return this.protections.filter((protection) => matchesProtectedName(protection.name, branch));
  }

  isProtected(branch: string): boolean {
    return this.matching(branch).length > 0;
  }

  /** The combined protection of a branch, or `undefined` when it is not protected. */
  protection(branch: string): BranchProtection | undefined {
    const matching = this.matching(branch);
    if (matching.length === 0) return undefined;
    return {
      pushLevel: lowestLevel(matching.flatMap((protection) => protection.pushAccessLevels)),
      mergeLevel: lowestLevel(matching.flatMap((protection) => protection.mergeAccessLevels)),
      allowForcePush: matching.some((protection) => protection.allowForcePush),
    };
  }

  /** GitLab's `ProtectedBranch.developers_can?`: a matching protection grants developers that action. */
  developersCan(action: 'push' | 'merge', branch: string): boolean {
    return this.matching(branch).some((protection) =>
      (action === 'push' ? protection.pushAccessLevels : protection.mergeAccessLevels).some((grant) => grant.accessLevel === 30),
    );
  }

  /** Internal: whether one of the grants lets the user in (`ProtectedRefAccess#check_access`). */
  private granted(user: User | null, subject: ProjectSubject, grants: AccessLevelGrant[]): boolean {
    if (!user) return false;
    return grants.some((grant) => {
      if (grant.accessLevel === NO_ACCESS) return false;
      if (grant.accessLevel === ADMIN_ACCESS) return user.admin;
      return can(user, 'push_code', subject) && subject.access.level >= grant.accessLevel;
    });
  }

  /** `Gitlab::UserAccess#can_push_to_branch?`. */
  canPush(user: User | null, subject: ProjectSubject, branch: string): boolean {
    if (!user || !can(user, 'push_code', subject)) return false;
    const matching = this.matching(branch);
    return matching.length === 0 || this.granted(user, subject, matching.flatMap((protection) => protection.pushAccessLevels));
  }

  /** `Gitlab::UserAccess#can_merge_to_branch?`. */
  canMerge(user: User | null, subject: ProjectSubject, branch: string): boolean {
    if (!user || !can(user, 'push_code', subject)) return false;
    const matching = this.matching(branch);
    return matching.length === 0 || this.granted(user, subject, matching.flatMap((protection) => protection.mergeAccessLevels));
  }

  /** `Gitlab::UserAccess#can_delete_branch?`: a protected branch only by maintainers. */
  canDelete(user: User | null, subject: ProjectSubject, branch: string): boolean {
    if (!user) return false;
    return this.isProtected(branch) ? can(user, 'admin_protected_branches', subject) : can(user, 'push_code', subject);
  }
}

/**
 * The protection of a branch of a project (for git pushes), or `undefined` when no protected name
 * matches it. Levels: 0 no one, 30 developers and maintainers, 40 maintainers, 60 instance admins.
 *
 * @example
 * const protection = await branchProtection(project.id, 'main');
 * if (protection && level < protection.pushLevel) reject('You are not allowed to push code to protected branches on this project.');
 */
export async function branchProtection(projectId: number, branchName: string): Promise<BranchProtection | undefined> {
  return (await BranchRules.load(projectId)).protection(branchName);
}
