/** GitLab's closing pattern (`Gitlab::ClosingIssueExtractor` with the default `issue_closing_pattern`). */
import { describe, expect, it } from 'vitest';
import { closingReferences } from '../../shared/merge-requests/closing-issues';

const BASE = 'https://git.example.com';

describe('closingReferences', () => {
  it.each([
    ['Closes #1', [{ iid: 1 }]],
    ['closes #1', [{ iid: 1 }]],
    ['Fixes #12 and #13', [{ iid: 12 }, { iid: 13 }]],
    ['fixed #2, #3', [{ iid: 2 }, { iid: 3 }]],
    ['Resolves: #4', [{ iid: 4 }]],
    ['Closing issue #5', [{ iid: 5 }]],
    ['Fix issues #6 and #7', [{ iid: 6 }, { iid: 7 }]],
    ['Closes group/project#8', [{ path: 'group/project', iid: 8 }]],
    ['Closes group/sub/project#8, #9', [{ path: 'group/sub/project', iid: 8 }, { iid: 9 }]],
    [`Closes ${BASE}/group/project/issues/10`, [{ path: 'group/project', iid: 10 }]],
    ['Resolving #11\n\nFixes #11', [{ iid: 11 }]],
  ])('%j → %j', (text, expected) => {
    expect(closingReferences(text, BASE)).toEqual(expected);
  });

  it.each(['Related to #1', 'Mentions #2', 'Closes the bug in #3', '#4 closes', 'Prefixes #5', 'Closes https://elsewhere.example.com/g/p/issues/6'])(
    'finds nothing in %j',
    (text) => {
      expect(closingReferences(text, BASE)).toEqual([]);
    },
  );
});
