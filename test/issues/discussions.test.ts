/**
 * Discussion ids: GitLab's 40-hex form, derived from the discussion's first note id so no lookup
 * item is needed, and read back only when the digest part matches (a forged or mistyped id names
 * no discussion).
 */
import { describe, expect, it } from 'vitest';
import { discussionIdOf, discussionRootFromId, isResolvable, resolutionChange } from '../../shared/issues/store/discussions';
import { issueCollections, issueIndexKeys, issueKeys, keySpace } from '../../shared/issues/store/keys';

describe('discussion ids', () => {
  it('are 40 hex digits, the same for every note of a discussion', () => {
    // Act
    const first = discussionIdOf({ id: 41 });
    const reply = discussionIdOf({ id: 57, rootId: 41 });

    // Assess
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    expect(reply).toBe(first);
    expect(discussionIdOf({ id: 42 })).not.toBe(first);
  });

  it('name the first note they were derived from', () => {
    for (const id of [1, 41, 123_456_789, Number.MAX_SAFE_INTEGER]) expect(discussionRootFromId(discussionIdOf({ id }))).toBe(id);
  });

  it('name nothing when malformed or when the digest does not match', () => {
    // Prepare
    const id = discussionIdOf({ id: 41 });
    const forged = `${'0'.repeat(24)}${id.slice(24)}`;

    // Act / Assess
    for (const candidate of [forged, id.toUpperCase(), id.slice(1), `${id}0`, 'x'.repeat(40), '0'.repeat(40), '']) {
      expect(discussionRootFromId(candidate)).toBeUndefined();
    }
  });
});

describe('discussion and award keys', () => {
  it('stay in the key space the issues feature declares', () => {
    // Prepare
    const noteable = { type: 'Issue' as const, projectId: 5, iid: 3 };
    const awardables = [
      { type: 'Issue' as const, projectId: 5, localId: 3 },
      { type: 'Note' as const, projectId: 5, localId: 41 },
    ];
    const sortKeys = keySpace.sortKeys['PROJECT#'];

    // Act
    const keys = awardables.flatMap((awardable) => [issueKeys.award(awardable, 7), issueKeys.awardName(awardable, 2, 'thumbsup')]);
    const ranges = [...awardables.map((awardable) => issueCollections.awards(awardable)), issueCollections.projectNoteItems(5, 'Issue'), issueCollections.projectNoteItems(5, 'MergeRequest')];
    const threads = [issueIndexKeys.noteThread(noteable, 41, 57), issueIndexKeys.noteThread({ ...noteable, type: 'MergeRequest' }, 41, 41)];
    const threadReads = [issueCollections.noteableDiscussions(noteable), issueCollections.noteableDiscussions(noteable, 41), issueCollections.discussionNotes(noteable, 41)];

    // Assess
    for (const key of keys) {
      expect(key.PK).toBe('PROJECT#5');
      expect(sortKeys.some((prefix) => key.SK.startsWith(prefix)), key.SK).toBe(true);
    }
    for (const range of ranges) expect(sortKeys.some((prefix) => range.prefix!.startsWith(prefix)), range.prefix).toBe(true);
    for (const thread of threads) expect(keySpace.indexPartitions.GSI1!.some((prefix) => thread.GSI1PK.startsWith(prefix))).toBe(true);
    for (const read of threadReads) {
      expect(read.index).toBe('GSI1');
      expect(read.partitionValue).toBe(threads[0].GSI1PK);
    }
    expect(keySpace.sequences).toContain('award_emoji');
  });

  it('keep a discussion contiguous: a reply sorts after its first note and before the next discussion', () => {
    const noteable = { type: 'Issue' as const, projectId: 5, iid: 3 };
    const first = issueIndexKeys.noteThread(noteable, 41, 41).GSI1SK;
    const reply = issueIndexKeys.noteThread(noteable, 41, 99).GSI1SK;
    const next = issueIndexKeys.noteThread(noteable, 42, 42).GSI1SK;
    expect([next, reply, first].sort()).toEqual([first, reply, next]);
    // Keyset paging resumes past every note of discussion 41 and at discussion 42.
    const from = issueCollections.noteableDiscussions(noteable, 41).from!;
    expect(reply < from && from < next).toBe(true);
  });
});

describe('resolution (merge request discussions)', () => {
  const mergeRequest = { type: 'MergeRequest' as const, projectId: 5, iid: 3 };

  it('lets only user notes of merge request discussions be resolved', () => {
    expect(isResolvable({ noteableType: 'MergeRequest', noteType: 'DiscussionNote', system: false })).toBe(true);
    expect(isResolvable({ noteableType: 'MergeRequest', system: false })).toBe(false);
    expect(isResolvable({ noteableType: 'MergeRequest', noteType: 'DiscussionNote', system: true })).toBe(false);
    expect(isResolvable({ noteableType: 'Issue', noteType: 'DiscussionNote', system: false })).toBe(false);
    expect(isResolvable({ noteType: 'DiscussionNote', system: false })).toBe(false);
  });

  it.each([
    { before: undefined, after: 1, delta: 1 },
    { before: 0, after: 2, delta: 1 },
    { before: 2, after: 1, delta: 0 },
    { before: 1, after: 2, delta: 0 },
    { before: 1, after: 0, delta: -1 },
    { before: 0, after: 0, delta: 0 },
  ])('moves the merge request count by $delta when a discussion goes from $before to $after unresolved notes', ({ before, after, delta }) => {
    // Act
    const change = resolutionChange(mergeRequest, 41, before, after);

    // Assess
    expect(change.unresolvedDiscussionsDelta).toBe(delta);
    const put = change.state.Put!;
    expect(put.Item).toMatchObject({ ...issueKeys.mergeRequestDiscussion(5, 3, 41), unresolved: after });
    // Conditioned on the count read, so a racing write to the same discussion fails and re-reads.
    if (before === undefined) expect(put.ConditionExpression).toBe('attribute_not_exists(PK)');
    else expect(put).toMatchObject({ ConditionExpression: 'unresolved = :before', ExpressionAttributeValues: { ':before': before } });
  });
});
