/** The mention relations behind `related_merge_requests`: what a text mentions, and what a write records. */
import { describe, expect, it } from 'vitest';
import { mentionedReferences } from '../../shared/merge-requests/closing-issues';
import { mergeRequestKeys } from '../../shared/merge-requests/store/keys';
import { MAX_MENTIONS, mentionEntries } from '../../shared/merge-requests/store/related';

const BASE = 'https://git.example.com';

describe('mentionedReferences', () => {
  it.each([
    ['Related to #1', [{ iid: 1 }]],
    ['Closes #2, see group/app#3', [{ iid: 2 }, { path: 'group/app', iid: 3 }]],
    [`See ${BASE}/group/project/-/issues/4 (and #5)`, [{ path: 'group/project', iid: 4 }, { iid: 5 }]],
    ['#6 then #6 again', [{ iid: 6 }]],
  ])('%j → %j', (text, expected) => {
    expect(mentionedReferences(text, BASE)).toEqual(expected);
  });

  it.each(['abc#1', '##2', '#3a', 'https://elsewhere.example.com/g/p/issues/4', 'no reference'])('finds nothing in %j', (text) => {
    expect(mentionedReferences(text, BASE)).toEqual([]);
  });
});

describe('mentionEntries', () => {
  const mr = { projectId: 1, iid: 7 };

  it('puts both sides of each new mention and deletes both sides of each dropped one, leaving the kept ones alone', () => {
    // Act
    const items = mentionEntries(mr, { before: [{ projectId: 1, iid: 2 }, { projectId: 3, iid: 4 }], after: [{ projectId: 3, iid: 4 }, { projectId: 5, iid: 6 }] });

    // Assert
    expect(items.filter((item) => item.Delete).map((item) => item.Delete!.Key)).toEqual([mergeRequestKeys.mentions(1, 7, 1, 2), mergeRequestKeys.mentionedBy(1, 2, 1, 7)]);
    expect(items.filter((item) => item.Put).map((item) => item.Put!.Item)).toEqual([
      expect.objectContaining({ ...mergeRequestKeys.mentions(1, 7, 5, 6), issueProjectId: 5, issueIid: 6, projectId: 1, iid: 7 }),
      expect.objectContaining({ ...mergeRequestKeys.mentionedBy(5, 6, 1, 7), issueProjectId: 5, issueIid: 6, projectId: 1, iid: 7 }),
    ]);
  });

  it('records at most MAX_MENTIONS mentions, and nothing when the mentions did not change', () => {
    // Arrange
    const many = Array.from({ length: MAX_MENTIONS + 5 }, (_, i) => ({ projectId: 1, iid: i + 1 }));

    // Act
    const capped = mentionEntries(mr, { before: [], after: many });
    const unchanged = mentionEntries(mr, undefined);

    // Assert
    expect(capped).toHaveLength(2 * MAX_MENTIONS);
    expect(unchanged).toEqual([]);
  });
});
