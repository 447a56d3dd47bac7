import { describe, expect, it } from 'vitest';
import { keySpace as auth } from '../../shared/auth/store/keys';
import { keySpace as badges } from '../../shared/badges/store/keys';
import { keySpace as boards } from '../../shared/boards/store/keys';
import { keySpace as ci } from '../../shared/ci/store/keys';
import { keySpace as deployKeys } from '../../shared/deploy-keys/store/keys';
import { keySpace as deployTokens } from '../../shared/deploy-tokens/store/keys';
import { keySpace as groups } from '../../shared/namespaces/store/keys';
import { keySpace as hooks } from '../../shared/hooks/store/keys';
import { keySpace as issues } from '../../shared/issues/store/keys';
import { keySpace as members } from '../../shared/members/store/keys';
import { keySpace as notificationSettings } from '../../shared/notification-settings/store/keys';
import { keySpace as mergeRequests } from '../../shared/merge-requests/store/keys';
import { keySpace as packages } from '../../shared/packages/store/keys';
import type { KeySpace } from '../../shared/platform/dynamo/keys';
import { keySpace as projects } from '../../shared/projects/store/keys';
import { keySpace as releases } from '../../shared/releases/store/keys';
import { keySpace as repository } from '../../shared/repository/store/keys';
import { keySpace as snippets } from '../../shared/snippets/store/keys';
import { keySpace as terraformStates } from '../../shared/terraform-states/store/keys';
import { keySpace as users } from '../../shared/users/store/keys';
import { sharedSequenceSpace as shared } from '../../shared/platform/dynamo/sequences';

// `shared`: the id sequences several features draw from, which no feature may claim as its own.
const features: Record<string, KeySpace> = { users, groups, auth, members, projects, hooks, issues, repository, mergeRequests, ci, releases, badges, boards, notificationSettings, deployTokens, deployKeys, snippets, terraformStates, packages, shared };

/** Two prefixes collide when one could start a key the other starts too. */
const collide = (a: string, b: string) => a.startsWith(b) || b.startsWith(a);

/** Every pair of (feature, value) from two different features of one list each. */
function crossPairs(lists: Record<string, readonly string[]>): Array<[string, string, string, string]> {
  const entries = Object.entries(lists);
  return entries.flatMap(([f1, a], i) => entries.slice(i + 1).flatMap(([f2, b]) => a.flatMap((x) => b.map((y) => [f1, x, f2, y] as [string, string, string, string]))));
}

const collisions = (lists: Record<string, readonly string[]>) =>
  crossPairs(lists)
    .filter(([, x, , y]) => collide(x, y))
    .map(([f1, x, f2, y]) => `${f1} ${x} ~ ${f2} ${y}`);

const by = <T>(pick: (space: KeySpace) => T) => Object.fromEntries(Object.entries(features).map(([name, space]) => [name, pick(space)]));

describe('key spaces of the features', () => {
  it('no two features own partitions that share a prefix', () => {
    expect(collisions(by((s) => s.partitions))).toEqual([]);
  });

  it('no two features put items under the same sort-key prefix of a partition', () => {
    const partitions = [...new Set(Object.values(features).flatMap((s) => Object.keys(s.sortKeys)))];
    for (const partition of partitions) {
      expect(collisions(by((s) => s.sortKeys[partition] ?? [])), partition).toEqual([]);
    }
  });

  it('every sort-key prefix lives under a partition some feature owns', () => {
    const owned = Object.values(features).flatMap((s) => s.partitions);
    const used = Object.values(features).flatMap((s) => Object.keys(s.sortKeys));
    expect(used.filter((partition) => !owned.includes(partition))).toEqual([]);
  });

  it('no two features write the same partition prefix to an index', () => {
    for (const index of ['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5', 'GSI6'] as const) {
      expect(collisions(by((s) => s.indexPartitions[index] ?? [])), index).toEqual([]);
    }
  });

  it('no two features share an id sequence', () => {
    const names = by((s) => s.sequences);
    const pairs = crossPairs(names).filter(([, x, , y]) => x === y || (x.endsWith('#') && y.startsWith(x)) || (y.endsWith('#') && x.startsWith(y)));
    expect(pairs).toEqual([]);
  });

  it('detects a collision (the check itself can fail)', () => {
    expect(collisions({ a: ['PROJECT#'], b: ['PROJECT#1'] })).toEqual(['a PROJECT# ~ b PROJECT#1']);
  });
});
