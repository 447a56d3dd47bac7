/**
 * The merge-requests feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/merge-requests/store/keys.ts`) and collide with no other feature's prefixes: every key
 * builder, index attribute and collection is called with sample arguments.
 */
import { expect, it } from 'vitest';
import {
  isMergeRequestOrderKey,
  keySpace,
  mergeRequestCollections,
  mergeRequestIndexKeys,
  mergeRequestKeys,
  mergeRequestOrderKey,
  type MergeRequestListed,
} from '../../shared/merge-requests/store/keys';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import { describeKeySpace } from '../support/key-space';

const AT = '2026-03-04T05:06:07.089Z';
const LATER = '2026-04-05T06:07:08.090Z';

const listed = (overrides: Partial<MergeRequestListed> = {}): MergeRequestListed => ({
  id: 70,
  projectId: 5,
  state: 'opened',
  authorId: 1,
  assigneeId: 2,
  createdAt: AT,
  updatedAt: LATER,
  ...overrides,
});

const tableKeys = {
  mergeRequest: [() => mergeRequestKeys.mergeRequest(5, 3)],
  version: [() => mergeRequestKeys.version(5, 3, 9)],
  versionContent: [() => mergeRequestKeys.versionContent(5, 3, 9)],
  closes: [() => mergeRequestKeys.closes(5, 3, 6, 4)],
  closedBy: [() => mergeRequestKeys.closedBy(6, 4, 5, 3)],
  mentions: [() => mergeRequestKeys.mentions(5, 3, 6, 4)],
  mentionedBy: [() => mergeRequestKeys.mentionedBy(6, 4, 5, 3)],
  targetBranch: [() => mergeRequestKeys.targetBranch(5, 'main', 3), () => mergeRequestKeys.targetBranch(5, 'ラ'.repeat(255), 3)],
  approval: [() => mergeRequestKeys.approval(5, 3, 8)],
  draftNote: [() => mergeRequestKeys.draftNote(5, 3, 8, 11)],
  deploymentLink: [() => mergeRequestKeys.deploymentLink(5, 12, 3)],
  commitLink: [() => mergeRequestKeys.commitLink(5, 'a'.repeat(40), 3, 7), () => mergeRequestKeys.commitLink(5, 'a'.repeat(40), 3, 'merge')],
} satisfies Record<Exclude<keyof typeof mergeRequestKeys, 'claims'>, Array<() => Key>>;

const claimKeys = {
  openPair: [() => mergeRequestKeys.claims.openPair(7, 'feature', 5, 'main'), () => mergeRequestKeys.claims.openPair(7, 'ラ'.repeat(255), 5, 'マ'.repeat(255))],
} satisfies Record<keyof typeof mergeRequestKeys.claims, Array<() => Key>>;

const indexKeys = {
  lists: [
    () => mergeRequestIndexKeys.lists(listed()),
    () => mergeRequestIndexKeys.lists(listed({ state: 'merged', assigneeId: null })),
    () => mergeRequestIndexKeys.lists(listed({ reviewer: { userId: 4 } })),
  ],
  updated: [() => mergeRequestIndexKeys.updated(LATER, 70)],
} satisfies Record<keyof typeof mergeRequestIndexKeys, Array<() => Record<string, string>>>;

const collections = {
  projectMergeRequests: [() => mergeRequestCollections.projectMergeRequests(5, 'opened'), () => mergeRequestCollections.projectMergeRequests(5, 'merged', 'updated_at')],
  userMergeRequests: [() => mergeRequestCollections.userMergeRequests(1), () => mergeRequestCollections.userMergeRequests(1, 'updated_at')],
  assignedMergeRequests: [() => mergeRequestCollections.assignedMergeRequests(2), () => mergeRequestCollections.assignedMergeRequests(2, 'updated_at')],
  reviewingMergeRequests: [() => mergeRequestCollections.reviewingMergeRequests(4), () => mergeRequestCollections.reviewingMergeRequests(4, 'updated_at')],
  projectMergeRequestItems: [() => mergeRequestCollections.projectMergeRequestItems(5)],
  versions: [() => mergeRequestCollections.versions(5, 3)],
  closes: [() => mergeRequestCollections.closes(5, 3)],
  closedBy: [() => mergeRequestCollections.closedBy(6, 4)],
  mentions: [() => mergeRequestCollections.mentions(5, 3)],
  mentionedBy: [() => mergeRequestCollections.mentionedBy(6, 4)],
  fromBranch: [() => mergeRequestCollections.fromBranch(7, 'feature')],
  intoBranch: [() => mergeRequestCollections.intoBranch(5, 'main')],
  approvals: [() => mergeRequestCollections.approvals(5, 3)],
  draftNotes: [() => mergeRequestCollections.draftNotes(5, 3, 8)],
  deploymentLinks: [() => mergeRequestCollections.deploymentLinks(5, 12)],
  commitLinks: [() => mergeRequestCollections.commitLinks(5, 'a'.repeat(40))],
} satisfies Record<keyof typeof mergeRequestCollections, Array<() => Collection>>;

describeKeySpace(
  {
    feature: 'merge-requests',
    keySpace,
    keys: { name: 'mergeRequestKeys', builders: mergeRequestKeys, samples: tableKeys, claims: claimKeys },
    indexKeys: { name: 'mergeRequestIndexKeys', builders: mergeRequestIndexKeys, samples: indexKeys, sortKeysOnly: ['updated'] },
    collections: { name: 'mergeRequestCollections', builders: mergeRequestCollections, samples: collections },
    partitions: ['PROJECT#'],
    outside: { PK: 'PROJECT#5', SK: 'STAR#000000000007' },
  },
  () => {
    it('lists a locked merge request (being merged) with the opened ones', () => {
      const item = mergeRequestIndexKeys.lists(listed({ state: 'locked' }));
      expect(item.GSI1PK).toBe(mergeRequestCollections.projectMergeRequests(5, 'opened').partitionValue);
    });

    it('finds the open merge requests of a branch by the pair claims in the source partition, not those of a branch named alike', () => {
      const claim = mergeRequestKeys.claims.openPair(7, 'feature', 5, 'main');
      expect(claim.PK).toBe('PROJECT#7');
      expect(claim.SK.startsWith(mergeRequestCollections.fromBranch(7, 'feature').prefix!)).toBe(true);
      expect(claim.SK.startsWith(mergeRequestCollections.fromBranch(7, 'feature2').prefix!)).toBe(false);
      expect(mergeRequestKeys.targetBranch(5, 'main', 3).SK.startsWith(mergeRequestCollections.intoBranch(5, 'main').prefix!)).toBe(true);
    });

    it('keeps one merge request’s versions out of the range of another whose iid starts alike', () => {
      expect(mergeRequestKeys.version(5, 30, 9).SK.startsWith(mergeRequestCollections.versions(5, 3).prefix!)).toBe(false);
      expect(mergeRequestKeys.versionContent(5, 3, 9).SK.startsWith(mergeRequestCollections.versions(5, 3).prefix!)).toBe(false);
    });

    it('reads one author\u2019s drafts of one merge request, not another author\u2019s or merge request\u2019s', () => {
      const range = mergeRequestCollections.draftNotes(5, 3, 8).prefix!;
      expect(mergeRequestKeys.draftNote(5, 3, 8, 11).SK.startsWith(range)).toBe(true);
      expect(mergeRequestKeys.draftNote(5, 3, 80, 11).SK.startsWith(range)).toBe(false);
      expect(mergeRequestKeys.draftNote(5, 30, 8, 11).SK.startsWith(range)).toBe(false);
    });

    it('accepts its own list sort keys as cursors, and nothing else', () => {
      expect(isMergeRequestOrderKey(mergeRequestOrderKey(AT, 70))).toBe(true);
      expect(isMergeRequestOrderKey(`${AT}#70`)).toBe(false);
    });
  },
);
