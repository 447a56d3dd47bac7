import { describe, expect, it } from 'vitest';
import { movedNote, systemNotesFor } from '../../shared/issues/system-notes';

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
