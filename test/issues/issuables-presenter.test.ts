import { describe, expect, it } from 'vitest';
import { issuableReferences, taskCompletionStatus } from '../../shared/issues/presenters/issuables';

describe('issuable references (GitLab\'s to_reference)', () => {
  it('are short in their own project and without a context, and full always', () => {
    expect(issuableReferences('#', 3, 'acme/web', undefined)).toEqual({ short: '#3', relative: '#3', full: 'acme/web#3' });
    expect(issuableReferences('!', 7, 'acme/web', { project: 'acme/web' })).toEqual({ short: '!7', relative: '!7', full: 'acme/web!7' });
  });

  it("name the project's path from another project of its namespace or from its group, the full path from elsewhere", () => {
    expect(issuableReferences('#', 3, 'acme/web', { project: 'acme/api' }).relative).toBe('web#3');
    expect(issuableReferences('#', 3, 'acme/web', { project: 'other/web' }).relative).toBe('acme/web#3');
    expect(issuableReferences('#', 3, 'acme/web', { group: 'acme' }).relative).toBe('web#3');
    // A subgroup's project, listed from the parent group.
    expect(issuableReferences('!', 4, 'acme/tools/cli', { group: 'acme' }).relative).toBe('acme/tools/cli!4');
    expect(issuableReferences('!', 4, 'acme/tools/cli', { group: 'acme/tools' }).relative).toBe('cli!4');
  });
});

describe('task completion status (GitLab\'s Taskable)', () => {
  it('counts the checkboxes of list items, and the checked ones', () => {
    const description = ['Plan:', '- [x] design', '* [ ] build', '+ [X] ship it', '1. [ ] numbered', '  - [ ] nested', '> - [x] quoted'].join('\n');
    expect(taskCompletionStatus(description)).toEqual({ count: 6, completed_count: 3 });
  });

  it('ignores boxes outside list items, without text, or not followed by a space', () => {
    expect(taskCompletionStatus('[x] not a list\n- [x]done\n-[x] no space\n- [y] not a box\n- [x]')).toEqual({ count: 0, completed_count: 0 });
    expect(taskCompletionStatus(null)).toEqual({ count: 0, completed_count: 0 });
    expect(taskCompletionStatus('')).toEqual({ count: 0, completed_count: 0 });
  });
});
