/**
 * The rule that hides a tree being deleted at once (`shared/namespaces/store/live-tree.ts`): a
 * namespace counts as gone when any of its ancestors is being deleted or missing, and the
 * ancestors a check must read are only those not in hand.
 */
import { describe, expect, it } from 'vitest';
import { ancestorsLive, knownFromItems, missingAncestors } from '../../shared/namespaces/store/live-tree';
import { namespaceKeys } from '../../shared/namespaces';

const group = (id: number, ancestorIds: number[] = [], deleting?: boolean) => ({ id, ancestorIds, ...(deleting ? { deleting } : {}) });

describe('ancestorsLive', () => {
  const known = new Map([group(1), group(2, [1]), group(3, [2, 1]), group(10, [], true), group(11, [10], false)].map((g) => [g.id, g]));

  it('holds for a namespace without ancestors, without looking at anything', () => {
    expect(ancestorsLive(group(99), new Map())).toBe(true);
  });

  it('holds when every ancestor is known and live', () => {
    expect(ancestorsLive(group(4, [3, 2, 1]), known)).toBe(true);
  });

  it('fails when any ancestor, near or far, is being deleted', () => {
    expect(ancestorsLive(group(12, [10]), known)).toBe(false);
    expect(ancestorsLive(group(13, [11, 10]), known)).toBe(false);
  });

  it('fails when an ancestor is missing (removed: nothing beneath it is left)', () => {
    expect(ancestorsLive(group(5, [3, 77, 1]), known)).toBe(false);
  });

  it("does not look at the namespace's own mark (the caller's to check)", () => {
    expect(ancestorsLive(group(6, [1], true), known)).toBe(true);
  });
});

describe('missingAncestors', () => {
  it('names each ancestor not in hand once, and none when all are known', () => {
    const known = new Map([[1, group(1)]]);
    expect(missingAncestors([group(5, [3, 1]), group(6, [3, 2, 1]), group(7)], known).sort()).toEqual([2, 3]);
    expect(missingAncestors([group(8, [1])], known)).toEqual([]);
  });
});

describe('knownFromItems', () => {
  it('keeps the namespace items of a batch read (deleting ones included) and nothing else', () => {
    const items = [
      { ...namespaceKeys.namespace(1), id: 1, ancestorIds: [], deleting: true, version: 3 },
      { ...namespaceKeys.namespace(2), id: 2, ancestorIds: [1] },
      { PK: 'PROJECT#1', SK: 'PROJECT', id: 1, ancestorIds: [] },
      { ...namespaceKeys.groupLink(2, 1), id: 1 },
    ];
    const known = knownFromItems(items);
    expect([...known.keys()].sort()).toEqual([1, 2]);
    expect(known.get(1)?.deleting).toBe(true);
    expect(ancestorsLive(group(3, [2, 1]), known)).toBe(false);
  });
});
