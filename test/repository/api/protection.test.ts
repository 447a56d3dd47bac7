import { describe, expect, it } from 'vitest';
import type { ProjectSubject } from '../../../shared/auth';
import { isValidRefName, validateNewBranchName } from '../../../shared/repository/commands/ref-names';
import { TAG_CHECK_ERRORS, tagCheck } from '../../../shared/repository/commands/refs';
import { BranchRules, RefRules, TagRules, matchesProtectedName } from '../../../shared/repository/queries/protection';
import type { ProtectedBranch } from '../../../shared/repository/store/protected-branches';
import type { ProtectedTag } from '../../../shared/repository/store/protected-tags';
import type { User } from '../../../shared/users';

const protection = (name: string, push: number[], merge: number[], allowForcePush = false): ProtectedBranch => ({
  id: 1,
  projectId: 1,
  name,
  pushAccessLevels: push.map((accessLevel, i) => ({ id: i, accessLevel })),
  mergeAccessLevels: merge.map((accessLevel, i) => ({ id: 10 + i, accessLevel })),
  allowForcePush,
  createdAt: '',
  updatedAt: '',
  version: 1,
});

const user = (admin = false) => ({ id: 2, admin, state: 'active', external: false }) as User;
const subject = (level: number) => ({ kind: 'project', project: { visibility: 'private', archived: false }, namespace: {}, access: { level } }) as unknown as ProjectSubject;

describe('protected branch names', () => {
  it.each([
    ['main', 'main', true],
    ['main', 'main2', false],
    ['release/*', 'release/1.0', true],
    ['release/*', 'release/1.0/hotfix', true],
    ['release/*', 'releases/1.0', false],
    ['*-stable', '15-0-stable', true],
    ['v.*', 'v.1', true],
    ['v.*', 'vx1', false],
  ])('%s matches %s: %s', (pattern, branch, expected) => {
    expect(matchesProtectedName(pattern, branch)).toBe(expected);
  });
});

describe('BranchRules', () => {
  const rules = new BranchRules([protection('main', [40], [30]), protection('release/*', [0], [40]), protection('release/1.*', [30], [40], true)]);

  it('combines every protection a branch matches', () => {
    expect(rules.protection('main')).toEqual({ pushLevel: 40, mergeLevel: 30, allowForcePush: false });
    expect(rules.protection('release/2.0')).toEqual({ pushLevel: 0, mergeLevel: 40, allowForcePush: false });
    expect(rules.protection('release/1.5')).toEqual({ pushLevel: 30, mergeLevel: 40, allowForcePush: true });
    expect(rules.protection('feature')).toBeUndefined();
  });

  it('lets developers push where a protection lets them, maintainers where maintainers may, no one where no one may', () => {
    expect(rules.canPush(user(), subject(30), 'feature')).toBe(true);
    expect(rules.canPush(user(), subject(30), 'main')).toBe(false);
    expect(rules.canPush(user(), subject(40), 'main')).toBe(true);
    expect(rules.canMerge(user(), subject(30), 'main')).toBe(true);
    expect(rules.canPush(user(), subject(50), 'release/2.0')).toBe(false);
    expect(rules.canPush(user(), subject(30), 'release/1.5')).toBe(true);
    expect(rules.canPush(user(), subject(20), 'feature')).toBe(false);
    expect(rules.canPush(null, subject(0), 'feature')).toBe(false);
    expect(rules.developersCan('push', 'release/1.5')).toBe(true);
    expect(rules.developersCan('merge', 'main')).toBe(true);
    expect(rules.developersCan('push', 'main')).toBe(false);
  });

  it('lets only maintainers delete a protected branch', () => {
    expect(rules.canDelete(user(), subject(30), 'main')).toBe(false);
    expect(rules.canDelete(user(), subject(40), 'main')).toBe(true);
    expect(rules.canDelete(user(), subject(30), 'feature')).toBe(true);
  });
});

const protectedTag = (name: string, create: number[]): ProtectedTag => ({
  id: 1,
  projectId: 1,
  name,
  createAccessLevels: create.map((accessLevel, i) => ({ id: i, accessLevel })),
  createdAt: '',
  updatedAt: '',
});

describe('TagRules and TagCheck', () => {
  const tags = new TagRules([protectedTag('v*', [40]), protectedTag('dev-*', [30]), protectedTag('locked', [0]), protectedTag('admin-*', [60])]);
  const A = 'a'.repeat(40);
  const B = 'b'.repeat(40);

  it('lets the create level of a matching protection create a tag, developers any other', () => {
    expect(tags.canCreate(user(), subject(30), 'v1')).toBe(false);
    expect(tags.canCreate(user(), subject(40), 'v1')).toBe(true);
    expect(tags.canCreate(user(), subject(30), 'dev-1')).toBe(true);
    expect(tags.canCreate(user(), subject(50), 'locked')).toBe(false);
    expect(tags.canCreate(user(true), subject(50), 'locked')).toBe(false);
    expect(tags.canCreate(user(), subject(50), 'admin-1')).toBe(false);
    expect(tags.canCreate(user(true), subject(50), 'admin-1')).toBe(true);
    expect(tags.canCreate(user(), subject(30), 'plain')).toBe(true);
    expect(tags.canCreate(user(), subject(20), 'plain')).toBe(false);
    expect(tags.canCreate(null, subject(0), 'plain')).toBe(false);
  });

  it.each([
    // who, tag, old, new, from the web, what TagCheck says
    [30, 'v1', null, A, false, TAG_CHECK_ERRORS.createProtectedTag],
    [40, 'v1', null, A, false, undefined],
    [40, 'v1', A, B, true, TAG_CHECK_ERRORS.updateProtectedTag],
    [30, 'v1', A, null, true, TAG_CHECK_ERRORS.deleteProtectedTag],
    [40, 'v1', A, null, false, TAG_CHECK_ERRORS.deleteProtectedTagNonWeb],
    [40, 'v1', A, null, true, undefined],
    [40, 'locked', A, null, true, TAG_CHECK_ERRORS.createProtectedTag],
    [30, 'plain', A, B, false, undefined],
    [30, 'plain', A, null, false, undefined],
    [20, 'plain', A, B, false, TAG_CHECK_ERRORS.changeExistingTags],
  ] as const)('level %i, %s from %s to %s (web: %s): %s', (level, tag, oldOid, newOid, web, expected) => {
    expect(tagCheck({ user: user(), subject: subject(level) }, tags, tag, oldOid, newOid, web)).toBe(expected);
  });

  it('tells protected refs of both kinds by their full names', () => {
    const refs = new RefRules(new BranchRules([protection('main', [40], [40])]), tags);
    expect(refs.protectsRef('refs/heads/main')).toBe(true);
    expect(refs.protectsRef('refs/tags/v2')).toBe(true);
    expect(refs.protectsRef('refs/tags/main')).toBe(false);
    expect(refs.protectsRef('refs/heads/v2')).toBe(false);
    expect(refs.protectsRef('refs/merge-requests/1/head')).toBe(false);
  });
});

describe('ref names', () => {
  it.each([
    ['main', true],
    ['feature/login', true],
    ['v1.0', true],
    ['', false],
    ['HEAD', false],
    ['-dash', false],
    ['refs/heads/x', false],
    ['a..b', false],
    ['a b', false],
    ['a~1', false],
    ['a:b', false],
    ['a/', false],
    ['/a', false],
    ['a.lock', false],
    ['.hidden', false],
    ['a/.b', false],
    ['a@{1}', false],
    ['ends.', false],
    ['x'.repeat(1000), false],
  ])('%j is valid: %s', (name, expected) => {
    expect(isValidRefName(name)).toBe(expected);
  });

  it('says why a new branch cannot be made', () => {
    expect(validateNewBranchName('ok', false)).toBeUndefined();
    expect(validateNewBranchName('ok', true)).toBe('Branch already exists');
    expect(validateNewBranchName('not ok', false)).toBe('Branch name is invalid');
  });
});
