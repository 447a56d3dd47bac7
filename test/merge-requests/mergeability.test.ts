/**
 * The merge checks a project's settings add (`shared/merge-requests/mergeability.ts`): GitLab's
 * `mergeable_discussions_state?`, `mergeable_ci_state?` and `detailed_merge_status`, in its order.
 */
import { describe, expect, it } from 'vitest';
import type { Pipeline } from '../../shared/ci';
import { detailedMergeStatus, discussionsAllowMerge, pipelineAllowsMerge } from '../../shared/merge-requests/mergeability';

const settings = (discussions: boolean, pipeline: boolean) => ({ onlyAllowMergeIfAllDiscussionsAreResolved: discussions, onlyAllowMergeIfPipelineSucceeds: pipeline });
const open = { state: 'opened' as const, title: 'Change', mergeStatus: 'can_be_merged' as const, unresolvedDiscussionsCount: 0 };

describe('discussionsAllowMerge (blocking_discussions_resolved)', () => {
  it('is true whatever the discussions when the project does not require them resolved', () => {
    expect(discussionsAllowMerge({ unresolvedDiscussionsCount: 3 }, settings(false, false))).toBe(true);
  });

  it('is true only without unresolved discussions when the project requires it', () => {
    expect(discussionsAllowMerge({ unresolvedDiscussionsCount: 1 }, settings(true, false))).toBe(false);
    expect(discussionsAllowMerge({ unresolvedDiscussionsCount: 0 }, settings(true, false))).toBe(true);
    expect(discussionsAllowMerge({}, settings(true, false))).toBe(true);
  });
});

describe('pipelineAllowsMerge', () => {
  it('needs a successful head pipeline only when the project requires one', () => {
    expect(pipelineAllowsMerge(settings(false, false), undefined)).toBe(true);
    expect(pipelineAllowsMerge(settings(false, true), undefined)).toBe(false);
    expect(pipelineAllowsMerge(settings(false, true), { status: 'running' })).toBe(false);
    expect(pipelineAllowsMerge(settings(false, true), { status: 'failed' })).toBe(false);
    expect(pipelineAllowsMerge(settings(false, true), { status: 'skipped' })).toBe(false);
    expect(pipelineAllowsMerge(settings(false, true), { status: 'success' })).toBe(true);
  });
});

describe('detailedMergeStatus', () => {
  it.each([
    ['unchecked', { ...open, mergeStatus: 'unchecked' as const }, settings(true, true), undefined],
    ['not_open', { ...open, state: 'merged' as const }, settings(false, false), undefined],
    ['draft_status', { ...open, title: 'WIP: Change', unresolvedDiscussionsCount: 2 }, settings(true, false), undefined],
    ['discussions_not_resolved', { ...open, unresolvedDiscussionsCount: 2, mergeStatus: 'cannot_be_merged' as const }, settings(true, false), undefined],
    ['conflict', { ...open, mergeStatus: 'cannot_be_merged' as const }, settings(false, true), undefined],
    ['ci_still_running', open, settings(false, true), { status: 'pending' }],
    ['ci_must_pass', open, settings(false, true), { status: 'failed' }],
    ['ci_must_pass', open, settings(false, true), undefined],
    ['mergeable', { ...open, unresolvedDiscussionsCount: 2 }, settings(false, false), undefined],
    ['mergeable', open, settings(true, true), { status: 'success' }],
  ])('is %s', (expected, mr, project, pipeline) => {
    expect(detailedMergeStatus(mr, project, pipeline as Pick<Pipeline, 'status'> | undefined)).toBe(expected);
  });
});
