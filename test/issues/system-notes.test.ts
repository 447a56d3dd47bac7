import { describe, expect, it } from 'vitest';
import { addedCommitsNote, mergeRequestReference, movedNote, statusNote, systemNotesFor, targetBranchNote } from '../../shared/issues/system-notes';

describe('system note bodies', () => {
  it('names labels as references, quoting names that are not plain words', () => {
    expect(systemNotesFor({ labels: { added: ['bug'], removed: [] } })).toEqual(['added ~bug label']);
    expect(systemNotesFor({ labels: { added: ['a', 'needs review'], removed: ['old'] } })).toEqual([
      'added ~a ~"needs review" labels and removed ~old label',
    ]);
    expect(systemNotesFor({ labels: { added: [], removed: ['x', 'y'] } })).toEqual(['removed ~x ~y labels']);
    expect(systemNotesFor({ labels: { added: [], removed: [] } })).toEqual([]);
  });

  it('tells milestone, assignee, due date and confidentiality changes in GitLab words', () => {
    expect(systemNotesFor({ milestone: 'v1.0' })).toEqual(['changed milestone to %v1.0']);
    expect(systemNotesFor({ milestone: 'Sprint 3' })).toEqual(['changed milestone to %"Sprint 3"']);
    expect(systemNotesFor({ milestone: null })).toEqual(['removed milestone']);
    expect(systemNotesFor({ assignees: { added: ['bob'], removed: ['alice'] } })).toEqual(['assigned to @bob and unassigned @alice']);
    expect(systemNotesFor({ dueDate: '2026-11-30' })).toEqual(['changed due date to November 30, 2026']);
    expect(systemNotesFor({ dueDate: null })).toEqual(['removed due date']);
    expect(systemNotesFor({ confidential: true })).toEqual(['made the issue confidential']);
    expect(systemNotesFor({ confidential: false })).toEqual(['made the issue visible to everyone']);
  });

  it('orders the notes of one edit: title, description, labels, milestone, assignees, due date, confidentiality, state', () => {
    expect(
      systemNotesFor({
        state: 'closed',
        confidential: true,
        dueDate: null,
        assignees: { added: ['bob'], removed: [] },
        milestone: null,
        labels: { added: ['bug'], removed: [] },
        description: true,
        title: { from: 'a', to: 'b' },
      }),
    ).toEqual([
      'changed title from **a** to **b**',
      'changed the description',
      'added ~bug label',
      'removed milestone',
      'assigned to @bob',
      'removed due date',
      'made the issue confidential',
      'closed',
    ]);
    expect(systemNotesFor({})).toEqual([]);
  });

  it('points moves at the other issue', () => {
    expect(movedNote('to', 'group/app', 7)).toBe('moved to group/app#7');
    expect(movedNote('from', 'group/lib', 3)).toBe('moved from group/lib#3');
  });
});

describe('system note bodies of merge requests', () => {
  it('tells state changes, with what caused them (GitLab `change_status`)', () => {
    expect(statusNote('merged')).toBe('merged');
    expect(statusNote('reopened')).toBe('reopened');
    expect(statusNote('closed', 'merge request !7')).toBe('closed via merge request !7');
  });

  it('refers to a merge request by !iid in its own project, by its full reference from another', () => {
    const mr = { projectId: 5, iid: 7, reference: 'group/project!7' };
    expect(mergeRequestReference(mr, 5)).toBe('!7');
    expect(mergeRequestReference(mr, 6)).toBe('group/project!7');
  });

  it('lists added commits by short id and escaped title (GitLab `add_commits`)', () => {
    expect(addedCommitsNote([{ id: '1a2b3c4d5e6f7a8b', title: 'Fix the parser' }])).toBe('added 1 commit\n\n<ul><li>1a2b3c4d - Fix the parser</li></ul>');
    expect(
      addedCommitsNote(
        [
          { id: 'aaaaaaaa11', title: 'One <b>' },
          { id: 'bbbbbbbb22', title: 'Two & "three"' },
        ],
        { comparePath: '/g/p/-/merge_requests/7/diffs?diff_id=2&start_sha=cccccccc' },
      ),
    ).toBe(
      'added 2 commits\n\n<ul><li>aaaaaaaa - One &lt;b&gt;</li><li>bbbbbbbb - Two &amp; &quot;three&quot;</li></ul>\n\n' +
        '[Compare with previous version](/g/p/-/merge_requests/7/diffs?diff_id=2&start_sha=cccccccc)',
    );
  });

  it('summarises commits already in the merge request on one line before the new ones', () => {
    const existing = [
      { id: '11111111aa', title: 'a' },
      { id: '22222222bb', title: 'b' },
    ];
    const fresh = [{ id: '33333333cc', title: 'c' }];
    expect(addedCommitsNote(fresh, { existing: { commits: existing, branch: 'main' } })).toBe(
      'added 3 commits\n\n<ul><li>11111111..22222222 - 2 commits from branch <code>main</code></li><li>33333333 - c</li></ul>',
    );
    expect(addedCommitsNote([], { existing: { commits: existing, branch: 'main', oldrev: '99999999ff' } })).toBe(
      'added 2 commits\n\n<ul><li>99999999...22222222 - 2 commits from branch <code>main</code></li></ul>',
    );
    expect(addedCommitsNote([], { existing: { commits: existing.slice(0, 1), branch: 'fork:main', oldrev: '0'.repeat(40) } })).toBe(
      'added 1 commit\n\n<ul><li>11111111 - 1 commit from branch <code>fork:main</code></li></ul>',
    );
  });

  it('tells a target branch change', () => {
    expect(targetBranchNote('main', 'release')).toBe('changed target branch from `main` to `release`');
  });
});
