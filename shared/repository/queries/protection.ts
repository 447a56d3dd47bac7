/**
 * Branch and tag protection as GitLab decides it (`ProtectedRef`, `ProtectedBranch`,
 * `ProtectedTag`, `Gitlab::UserAccess`): which protected names a branch or tag matches (exactly,
 * or a pattern where `*` matches any characters, slashes included), whether it is protected, and
 * whether a user may push to a branch, merge into it or delete it, or create a tag. A project's
 * protections are read once per request and checked in memory.
 */
import { can, type ProjectSubject } from '../../auth';
import type { User } from '../../users';
import { listProtectedBranches, type ProtectedBranch } from '../store/protected-branches';
import type { AccessLevelGrant, ProtectedRefFields } from '../store/protected-refs';
import { listProtectedTags, type ProtectedTag } from '../store/protected-tags';
import { BRANCH_PREFIX, TAG_PREFIX } from './revisions';

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

/** Whether a protected name matches a ref name: the name itself, or a pattern with `*` (GitLab's `ProtectedRef::WildcardMatcher`). */
export function matchesProtectedName(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const regex = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*?');
  return new RegExp(`^${regex}$`, 's').test(name);
}

/** The lowest of some grants that lets anyone in (0 when all are "no one"). */
function lowestLevel(grants: AccessLevelGrant[]): number {
  const open = grants.map((grant) => grant.accessLevel).filter((level) => level !== NO_ACCESS);
  return open.length > 0 ? Math.min(...open) : NO_ACCESS;
}

/** Internal: whether one of the grants lets the user in (`ProtectedRefAccess#check_access`). */
function granted(user: User | null, subject: ProjectSubject, grants: AccessLevelGrant[]): boolean {
  if (!user) return false;
  return grants.some((grant) => {
    if (grant.accessLevel === NO_ACCESS) return false;
    if (grant.accessLevel === ADMIN_ACCESS) return user.admin;
    return can(user, 'push_code', subject) && subject.access.level >= grant.accessLevel;
  });
}

/** Whether a full ref name (`refs/heads/main`, `refs/tags/v1`) is protected. */
export interface RefProtection {
  protectsRef(ref: string): boolean;
}

/** The protections of one kind of a project, matched against names of that kind (`ProtectedRef.matching`). */
export class ProtectedNames<T extends ProtectedRefFields> implements RefProtection {
  constructor(
    readonly protections: T[],
    /** The prefix of the full names of refs of this kind (`refs/heads/`, `refs/tags/`). */
    private readonly prefix: string,
  ) {}

  matching(name: string): T[] {
    return this.protections.filter((protection) => matchesProtectedName(protection.name, name));
  }

  isProtected(name: string): boolean {
    return this.matching(name).length > 0;
  }

  /** Whether a full ref name is of this kind and protected (false for refs of other kinds). */
  protectsRef(ref: string): boolean {
    return ref.startsWith(this.prefix) && this.isProtected(ref.slice(this.prefix.length));
  }
}

/** The protections of a project, and the checks on its branches. */
export class BranchRules extends ProtectedNames<ProtectedBranch> {
  constructor(protections: ProtectedBranch[]) {
    super(protections, BRANCH_PREFIX);
  }

  static async load(projectId: number): Promise<BranchRules> {
    return new BranchRules(await listProtectedBranches(projectId));
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

  /** `Gitlab::UserAccess#can_push_to_branch?`. */
  canPush(user: User | null, subject: ProjectSubject, branch: string): boolean {
    if (!user || !can(user, 'push_code', subject)) return false;
    const matching = this.matching(branch);
    return matching.length === 0 || granted(user, subject, matching.flatMap((protection) => protection.pushAccessLevels));
  }

  /** `Gitlab::UserAccess#can_merge_to_branch?`. */
  canMerge(user: User | null, subject: ProjectSubject, branch: string): boolean {
    if (!user || !can(user, 'push_code', subject)) return false;
    const matching = this.matching(branch);
    return matching.length === 0 || granted(user, subject, matching.flatMap((protection) => protection.mergeAccessLevels));
  }

  /** `Gitlab::UserAccess#can_delete_branch?`: a protected branch only by maintainers. */
  canDelete(user: User | null, subject: ProjectSubject, branch: string): boolean {
    if (!user) return false;
    return this.isProtected(branch) ? can(user, 'admin_protected_branches', subject) : can(user, 'push_code', subject);
  }
}

/** The protected tags of a project, and who may create the tags they match. */
export class TagRules extends ProtectedNames<ProtectedTag> {
  constructor(protections: ProtectedTag[]) {
    super(protections, TAG_PREFIX);
  }

  static async load(projectId: number): Promise<TagRules> {
    return new TagRules(await listProtectedTags(projectId));
  }

  /**
   * `Gitlab::UserAccess#can_create_tag?`: a protected tag by whoever a matching protection's
   * create level lets in, any other by developers and up (`admin_tag`).
   */
  canCreate(user: User | null, subject: ProjectSubject, tag: string): boolean {
    if (!user) return false;
    const matching = this.matching(tag);
    return matching.length === 0 ? can(user, 'push_code', subject) : granted(user, subject, matching.flatMap((protection) => protection.createAccessLevels));
  }

  /** `Gitlab::Git::TagPolicy`'s `delete_tag`: a protected tag only by maintainers (and only from the web: the API). */
  canDelete(user: User | null, subject: ProjectSubject, tag: string): boolean {
    if (!user || !can(user, 'push_code', subject)) return false;
    return !this.isProtected(tag) || can(user, 'admin_protected_branches', subject);
  }
}

/** Both kinds of a project's protections: what a push of branches and tags is checked against. */
export class RefRules implements RefProtection {
  constructor(
    readonly branches: BranchRules,
    readonly tags: TagRules,
  ) {}

  static async load(projectId: number): Promise<RefRules> {
    const [branches, tags] = await Promise.all([BranchRules.load(projectId), TagRules.load(projectId)]);
    return new RefRules(branches, tags);
  }

  /** GitLab's `Project#protected_for?` of a full ref name. */
  protectsRef(ref: string): boolean {
    return this.branches.protectsRef(ref) || this.tags.protectsRef(ref);
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
