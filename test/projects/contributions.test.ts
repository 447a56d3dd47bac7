/** Which events make a user a project's contributor (GitLab's `Event.contributions` scope). */
import { describe, expect, it } from 'vitest';
import { isContribution } from '../../shared/projects/store/contributions';

describe('isContribution', () => {
  it.each([
    ['pushed to', null],
    ['pushed new', null],
    ['deleted', null],
    ['commented on', 'Note'],
    ['commented on', 'DiffNote'],
    ['opened', 'Issue'],
    ['closed', 'Issue'],
    ['opened', 'MergeRequest'],
    ['accepted', 'MergeRequest'],
    ['approved', 'MergeRequest'],
  ])('counts %s %s', (actionName, targetType) => {
    expect(isContribution({ actionName, targetType })).toBe(true);
  });

  it.each([
    ['created', null],
    ['joined', null],
    ['left', null],
    ['reopened', 'Issue'],
    ['reopened', 'MergeRequest'],
    ['created', 'WikiPage::Meta'],
    ['destroyed', 'WikiPage::Meta'],
    ['deleted', 'WikiPage::Meta'],
  ])('does not count %s %s', (actionName, targetType) => {
    expect(isContribution({ actionName, targetType })).toBe(false);
  });
});
